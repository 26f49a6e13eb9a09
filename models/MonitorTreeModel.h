// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/Sample.h"

#include <QAbstractItemModel>

#include <string>
#include <vector>

/// The Monitor dock's model: one top-level row per monitoring group with its figures summed over the L3 domains,
/// and one child row per domain. A machine with 4 domains and 128 groups gives 128 rows to scan, not 512.
/// On Intel SNC (RdtSampleBatch::nodeSamples) a domain row has one child per sub-NUMA node, so a node's share of
/// its L3 shows under that L3 (kernel Documentation/filesystems/resctrl.rst, mon_sub_L3_YY).
/// Columns match MonitorModel's; sort and filter through a QSortFilterProxyModel (ValueRole sorts numerically).
/// A row whose MBM counter is Unassigned (AMD assignable counters in mbm_event mode, kernel
/// Documentation/filesystems/resctrl.rst "mbm_L3_assignments") is a state, not a zero: its bandwidth cells read
/// "unassigned", the row is greyed (ForegroundRole) and its tooltip says why and what to do.
class MonitorTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        GroupColumn,
        DomainsColumn,
        OccupancyColumn,
        TotalColumn,
        LocalColumn,
        RemoteColumn,
        FlagsColumn,
        ColumnCount
    };
    enum Role { ValueRole = Qt::UserRole + 1, GroupPathRole };

    explicit MonitorTreeModel(QObject* parent = nullptr);

    /// Replaces the readings. Same groups and domains as before: one dataChanged per changed row; else a reset.
    void update(const rdt::RdtSampleBatch& batch);
    void clear();
    int groupCount() const { return static_cast<int>(m_groups.size()); }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Group {
        std::string path;
        rdt::RdtSample sum; ///< occupancy and bandwidths summed over the domains, flags or-ed
        std::vector<rdt::RdtSample> domains;
        std::vector<std::vector<rdt::RdtSample>> nodes; ///< per entry of `domains`: its SNC node rows (or none)
        std::size_t unassigned = 0; ///< domains whose MBM counter is Unassigned (AMD assignable counters)
    };
    enum class Level { Group, Domain, Node };
    static Level levelOf(const QModelIndex& index);
    const rdt::RdtSample* sampleFor(const QModelIndex& index) const;
    /// The row's bandwidth is not measured: a domain without an MBM counter, or a group with none in any domain.
    bool mbmUnassigned(const QModelIndex& index) const;
    QString tooltip(const QModelIndex& index) const;

    std::vector<Group> m_groups;
};
