// SPDX-License-Identifier: GPL-3.0-or-later
#include "MonitorPanel.h"

#include "models/MonitorTreeModel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

MonitorPanel::MonitorPanel(MonitorTreeModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTreeView(this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(MonitorTreeModel::ValueRole);
    m_proxy->setFilterKeyColumn(MonitorTreeModel::GroupColumn);
    m_proxy->setFilterRole(MonitorTreeModel::GroupPathRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setDynamicSortFilter(true);

    m_filter->setPlaceholderText(tr("Filter groups\u2026"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter monitoring groups"));
    m_filter->setObjectName(QStringLiteral("monitorFilter"));
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_view->setModel(m_proxy);
    m_view->setObjectName(QStringLiteral("monitorTree"));
    m_view->setAccessibleName(tr("Monitoring groups"));
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(MonitorTreeModel::TotalColumn, Qt::DescendingOrder);
    m_view->setAlternatingRowColors(true);
    m_view->setUniformRowHeights(true); // 128 groups x 4 domains stay cheap to lay out
    m_view->setTextElideMode(Qt::ElideMiddle); // group paths differ at both ends
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    // The figures stay in view; a long group path is elided in the middle (its tooltip and a wider column show it).
    header->setSectionResizeMode(MonitorTreeModel::GroupColumn, QHeaderView::Interactive);
    header->resizeSection(MonitorTreeModel::GroupColumn, 190);
    for (int c = MonitorTreeModel::DomainsColumn; c < MonitorTreeModel::ColumnCount; ++c)
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    header->setMinimumSectionSize(40);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& i) {
        static const char* concepts[]
            = { "rmid", "llc-occupancy", "llc-occupancy", "mbm-total", "mbm-local", "mbm-remote", "counter-wrap" };
        if (i.isValid() && i.column() < static_cast<int>(std::size(concepts)))
            Q_EMIT explainRequested(QString::fromLatin1(concepts[i.column()]));
    });
}
