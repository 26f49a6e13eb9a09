// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProcessPickerDialog.h"

#include "models/ProcessModel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

ProcessPickerDialog::ProcessPickerDialog(const QString& procRoot, QWidget* parent)
    : QDialog(parent)
    , m_model(new ProcessModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTableView(this))
    , m_count(new QLabel(this))
{
    setWindowTitle(tr("Add processes to the group"));
    resize(720, 480);
    auto* layout = new QVBoxLayout(this);
    m_filter->setPlaceholderText(tr("Filter by name, command or PID; user:NAME for a user"));
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortRole(ProcessModel::PidRole);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ProcessModel::PidColumn, Qt::AscendingOrder);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_view, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add selected"));
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_count, 1);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_filter, &QLineEdit::textChanged, this, &ProcessPickerDialog::setFilter);
    connect(m_model, &ProcessModel::refreshed, this,
        [this] { m_count->setText(tr("%1 processes").arg(m_model->rowCount())); });
    m_model->setProcRoot(procRoot);
    m_model->refresh();
}

void ProcessPickerDialog::setFilter(const QString& text)
{
    if (m_filter->text() != text) m_filter->setText(text);
    const QString t = text.trimmed();
    if (t.startsWith(QStringLiteral("user:"))) {
        m_proxy->setFilterKeyColumn(ProcessModel::UserColumn);
        m_proxy->setFilterFixedString(t.mid(5).trimmed());
    } else {
        m_proxy->setFilterKeyColumn(-1);
        m_proxy->setFilterFixedString(t);
    }
}

QList<int> ProcessPickerDialog::selectedPids() const
{
    QList<int> pids;
    const auto rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex& index : rows)
        pids.append(index.data(ProcessModel::PidRole).toInt());
    std::sort(pids.begin(), pids.end());
    return pids;
}
