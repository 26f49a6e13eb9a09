// SPDX-License-Identifier: GPL-3.0-or-later
#include "MonitorPanel.h"

#include "DistinctElision.h"
#include "DistinctNameDelegate.h"
#include "core/Units.h"
#include "models/MonitorTreeModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

MonitorPanel::MonitorPanel(MonitorTreeModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_counters(new QLabel(this))
    , m_view(new QTreeView(this))
    , m_names(new DistinctNameDelegate(this))
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
    m_view->setIndentation(14); // three levels on SNC (group, L3 domain, node) in a narrow dock
    m_view->setUniformRowHeights(true); // 128 groups x 4 domains stay cheap to lay out
    m_view->setTextElideMode(Qt::ElideMiddle); // group paths differ at both ends
    m_view->setItemDelegateForColumn(MonitorTreeModel::GroupColumn, m_names); // ...and never elide to the same text
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(false);
    // Where a group was read ("all 4", "domain 2") matters less than its figures: shown after them.
    header->moveSection(header->visualIndex(MonitorTreeModel::DomainsColumn), MonitorTreeModel::RemoteColumn);
    header->setSectionResizeMode(QHeaderView::Interactive);
    // The figures stay in view; a long group path is elided in the middle (its tooltip and a wider column show it).
    header->setSectionResizeMode(MonitorTreeModel::GroupColumn, QHeaderView::Interactive);
    // Widths follow the contents when rows come or go, never on a value update: ResizeToContents measured (shaped
    // the text of) every visible cell at every sample, ten times a second, most of an idle window's GUI time. A
    // value column is never narrower than the widest figure its format can print, so a growing value is not elided.
    const QFontMetrics metrics(m_view->font());
    const int widestBytes = metrics.horizontalAdvance(QString::fromStdString(rdt::formatBytes(1023.9 * 1048576.0)));
    const int widestRate = metrics.horizontalAdvance(QString::fromStdString(rdt::formatBandwidth(999.99e9)));
    auto fitColumns = [this, widestBytes, widestRate] {
        const int padding = 2 * m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 12;
        for (int c = MonitorTreeModel::DomainsColumn; c < MonitorTreeModel::ColumnCount; ++c) {
            m_view->resizeColumnToContents(c);
            const int floor = c == MonitorTreeModel::OccupancyColumn                        ? widestBytes
                : c >= MonitorTreeModel::TotalColumn && c <= MonitorTreeModel::RemoteColumn ? widestRate
                                                                                            : 0;
            if (floor > 0) m_view->setColumnWidth(c, std::max(m_view->columnWidth(c), floor + padding));
        }
        fitGroupColumn();
    };
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, fitColumns);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, fitColumns);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, fitColumns);
    // Expanding shows domain rows and, on SNC, node rows one level deeper: their names must fit too.
    connect(m_view, &QTreeView::expanded, this, fitColumns);
    connect(m_view, &QTreeView::collapsed, this, fitColumns);
    header->setMinimumSectionSize(40);
    connect(header, &QHeaderView::sectionResized, this, [this](int column) {
        if (column == MonitorTreeModel::GroupColumn) shortenGroupNames(); // the user dragged it
    });
    fitColumns();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    m_counters->setObjectName(QStringLiteral("monitorCounters"));
    m_counters->setWordWrap(true);
    m_counters->hide();
    layout->addWidget(m_counters);
    layout->addWidget(m_view, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& i) {
        static const char* concepts[]
            = { "rmid", "llc-occupancy", "llc-occupancy", "mbm-total", "mbm-local", "mbm-remote", "counter-wrap" };
        if (i.isValid() && i.column() < static_cast<int>(std::size(concepts)))
            Q_EMIT explainRequested(QString::fromLatin1(concepts[i.column()]));
    });
}

void MonitorPanel::fitGroupColumn()
{
    // Group paths as wide as the longest, but never so wide that LLC occupancy and total bandwidth leave the view
    // (the default dock is about 300 px): longer paths are elided in the middle, their tooltip says them whole.
    const int figures
        = m_view->columnWidth(MonitorTreeModel::OccupancyColumn) + m_view->columnWidth(MonitorTreeModel::TotalColumn);
    const int room = std::max(kNarrowestGroupColumn, m_view->viewport()->width() - figures);
    m_view->resizeColumnToContents(MonitorTreeModel::GroupColumn);
    m_view->setColumnWidth(MonitorTreeModel::GroupColumn,
        std::clamp(m_view->columnWidth(MonitorTreeModel::GroupColumn), kNarrowestGroupColumn, room));
    shortenGroupNames();
}

void MonitorPanel::shortenGroupNames()
{
    // The groups' names as they fit the column: the indentation and the cell's margins take part of it.
    QStringList names;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        names << m_proxy->index(r, MonitorTreeModel::GroupColumn).data().toString();
    const int margins = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1);
    m_names->setShownNames(distinctElisions(names, m_view->fontMetrics(),
        m_view->columnWidth(MonitorTreeModel::GroupColumn) - m_view->indentation() - margins));
    m_view->viewport()->update();
}

void MonitorPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitGroupColumn();
}

void MonitorPanel::setCounterStatus(const QString& freeCounters)
{
    m_counters->setVisible(!freeCounters.isEmpty());
    if (freeCounters.isEmpty()) return;
    m_counters->setText(tr("%1; greyed rows have no counter (Unassigned)").arg(freeCounters));
    m_counters->setToolTip(tr("Assignable MBM counters (kernel resctrl mbm_event mode): a group's bandwidth is "
                              "measured only in the L3 domains where it holds a counter."));
}
