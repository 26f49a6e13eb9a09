// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One of the two tables of rdt::engine::CoreAssignments (what `pqos -s` prints): the cores (CPU -> class of service
// and RMID, with the groups they stand for) or the classes (control group -> CLOSID, mode, CPUs and one column per
// allocation resource: L3/L2 masks, MB values). An unknown CLOSID or RMID reads "unknown", with the reason in the
// tooltip.

#include "engine/CoreAssignments.h"

#include <QAbstractTableModel>

class CoreAssignmentModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Kind { Cores, Classes };
    enum CoreColumn { CpuColumn, ClosColumn, ControlGroupColumn, RmidColumn, MonitorGroupColumn, CoreColumnCount };
    enum ClassColumn { GroupColumn, ClassClosColumn, ModeColumn, CpusColumn, FirstResourceColumn };

    explicit CoreAssignmentModel(Kind kind, QObject* parent = nullptr);

    void setAssignments(const rdt::engine::CoreAssignments& table);
    const rdt::engine::CoreAssignments& assignments() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// A group path as the table shows it ("default" for the root group).
    static QString groupLabel(const std::string& path);

private:
    QVariant coreData(const rdt::engine::CoreAssignment& c, int column, int role) const;
    QVariant classData(const rdt::engine::ClassAllocation& c, int column, int role) const;

    Kind m_kind;
    rdt::engine::CoreAssignments m_table;
};
