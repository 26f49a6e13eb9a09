// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A top-down or bottom-up call tree (CallTreeModel) in a sortable tree view with a search box that keeps the rows
// whose function (or a descendant's) matches. Expanded rows stay expanded across updates (a running capture
// re-aggregates every step), remembered by their call path; the hottest path is opened on the first data.

#include "models/CallTreeModel.h"

#include <QSet>
#include <QStringList>
#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

class CallTreeView : public QWidget {
    Q_OBJECT
public:
    explicit CallTreeView(CallTreeModel::Kind kind, QWidget* parent = nullptr);

    void setReport(const rdt::pmu::CallTreeReport& report);
    CallTreeModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    /// Keeps rows whose function, or a descendant's, contains `text` (case-insensitive); empty: every row.
    void setSearchText(const QString& text);

private:
    void rememberExpanded();
    void restoreExpanded();
    void expandHottestPath();

    CallTreeModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_tree;
    QLineEdit* m_search;
    QSet<QStringList> m_expanded;
    bool m_seenData = false;
};
