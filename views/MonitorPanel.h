// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class MonitorTreeModel;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;
class DistinctNameDelegate;

/// The Monitor dock: a filter box over a sortable tree of groups (sums over the L3 domains, domains as children).
/// Sorted by total bandwidth, largest first, until the user clicks another header.
class MonitorPanel : public QWidget {
    Q_OBJECT
public:
    explicit MonitorPanel(MonitorTreeModel* model, QWidget* parent = nullptr);

    QTreeView* view() const { return m_view; }
    QLineEdit* filterBox() const { return m_filter; }
    /// The free-counter line of a machine with assignable MBM counters (rdt::formatFreeCounters), shown above the
    /// tree; "" hides it (no assignable counters).
    void setCounterStatus(const QString& freeCounters);
    QLabel* counterStatus() const { return m_counters; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }

Q_SIGNALS:
    /// The current cell's column changed: the concept the explain panel should show ("mbm-total", ...).
    void explainRequested(const QString& conceptId);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    static constexpr int kNarrowestGroupColumn = 80;
    /// The group column's width from its contents and the room the figures leave (rows changed, dock resized).
    void fitGroupColumn();
    /// Names shortened to the group column so that no two groups read alike (DistinctElision.h).
    void shortenGroupNames();

    MonitorTreeModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QLabel* m_counters;
    QTreeView* m_view;
    DistinctNameDelegate* m_names;
};
