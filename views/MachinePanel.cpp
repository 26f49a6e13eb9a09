// SPDX-License-Identifier: GPL-3.0-or-later
#include "MachinePanel.h"

#include "models/MachineModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

MachinePanel::MachinePanel(MachineModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this))
    , m_filter(new QLineEdit(this))
    , m_summary(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->hide();
    layout->addWidget(m_summary);
    m_filter->setPlaceholderText(tr("Filter capabilities (name, value, CPUID leaf, SDM section)"));
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);

    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true); // a matching capability keeps its group visible
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    // Values and origins can be long (event lists, leaf ranges): fixed, user-resizable widths keep all four columns
    // on screen; the full text is in the tooltip and the explain panel.
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(MachineModel::NameColumn, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(MachineModel::ValueColumn, QHeaderView::Interactive);
    m_view->header()->setSectionResizeMode(MachineModel::OriginColumn, QHeaderView::Interactive);
    m_view->header()->resizeSection(MachineModel::ValueColumn, 220);
    m_view->header()->resizeSection(MachineModel::OriginColumn, 215);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_model, &QAbstractItemModel::modelReset, m_view, &QTreeView::expandAll);
    m_view->expandAll();
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        if (const CapabilityRow* row = m_model->rowAt(m_proxy->mapToSource(current))) Q_EMIT capabilitySelected(*row);
    });
}

void MachinePanel::setSummary(const QString& text)
{
    m_summary->setText(text);
    m_summary->setVisible(!text.isEmpty());
}
