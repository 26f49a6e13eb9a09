// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One call tree of rdt::pmu::CallTreeReport (top-down or bottom-up) as a Qt item model: function, self and inclusive
// samples with their share of the tree's total, and the module. The root node ("all samples") is not a row: its
// children are the top-level rows. Self samples of a bottom-up caller do not exist (only the first level ran the
// code), so that cell is empty there instead of 0.

#include "pmu/CallTree.h"

#include <QAbstractItemModel>
#include <QStringList>

#include <vector>

class CallTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { FunctionColumn, SelfColumn, InclusiveColumn, ShareColumn, ModuleColumn, ColumnCount };
    enum class Kind { TopDown, BottomUp };
    enum Roles { SortRole = Qt::UserRole + 1, NodeRole };

    explicit CallTreeModel(Kind kind, QObject* parent = nullptr);

    /// Takes the tree of `report` this model shows (topDown or bottomUp).
    void setReport(const rdt::pmu::CallTreeReport& report);
    Kind kind() const { return m_kind; }
    const std::vector<rdt::pmu::CallTreeNode>& nodes() const { return m_nodes; }
    /// Samples of the whole tree (the root's inclusive samples).
    quint64 totalSamples() const;
    /// The function names from the top level down to `index` (what a view keeps to re-expand after a reset).
    QStringList pathOf(const QModelIndex& index) const;
    /// The row reached by `path` from the top level, invalid when absent.
    QModelIndex indexOfPath(const QStringList& path) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const rdt::pmu::CallTreeNode& node(const QModelIndex& index) const;
    std::int32_t nodeIndex(const QModelIndex& index) const;

    Kind m_kind;
    std::vector<rdt::pmu::CallTreeNode> m_nodes; ///< [0] is the root
};
