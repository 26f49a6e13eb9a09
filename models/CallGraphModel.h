// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The branch call graph (rdt::pmu::BranchGraphReport) for the GUI: nodes (functions with self and inclusive
// samples) and edges (count, mispredict rate, LBR cycles), shown as a table of edges in one of three modes:
// every edge hottest first (the hot-branch table), the callers of a function, or its callees.
// neighbourhood() gives the functions within N hops of one, for the graph view's focus.

#include "pmu/BranchGraph.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QString>

#include <vector>

class CallGraphModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        FromColumn,
        ToColumn,
        CountColumn,
        MispredictColumn,
        AvgCyclesColumn,
        TotalCyclesColumn,
        KindColumn, ///< the edge kind the engine decided, and where from (pmu::edgeKindName)
        ColumnCount
    };
    enum class Mode { Edges, Callers, Callees };
    enum Roles { SortRole = Qt::UserRole + 1, EdgeIndexRole };

    explicit CallGraphModel(QObject* parent = nullptr);

    void setReport(rdt::pmu::BranchGraphReport report);
    /// False for call-stack LBR (no mispredict or cycle fields): those columns say "n/a" instead of 0.
    void setHasBranchFlags(bool has);
    bool hasBranchFlags() const { return m_flags; }
    const rdt::pmu::BranchGraphReport& report() const { return m_report; }
    /// Edges: every edge; Callers / Callees: the edges into / out of `function` (calls only, no self loops).
    void setMode(Mode mode, const QString& function = {});
    Mode mode() const { return m_mode; }
    QString function() const { return m_function; }

    /// Index into report().functions, -1 when absent.
    int findFunction(const QString& name) const;
    /// Functions reachable from `name` within `hops` call edges in either direction (includes `name`).
    QSet<QString> neighbourhood(const QString& name, int hops) const;
    /// The edge shown in `row`.
    const rdt::pmu::FunctionEdge* edgeAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildRows();

    rdt::pmu::BranchGraphReport m_report;
    Mode m_mode = Mode::Edges;
    bool m_flags = true;
    QString m_function;
    std::vector<int> m_rows; ///< indices into m_report.edges
};
