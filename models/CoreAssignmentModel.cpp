// SPDX-License-Identifier: GPL-3.0-or-later
#include "CoreAssignmentModel.h"

#include "core/IdList.h"

namespace {
const char* const kUnknownWhy = QT_TRANSLATE_NOOP("CoreAssignmentModel",
    "resctrl shows CLOSIDs and RMIDs only when mounted with -o debug (each group's closid and rmid files), which "
    "rdtscope does not read yet; the MSR source (--source msr) knows them");
}

CoreAssignmentModel::CoreAssignmentModel(Kind kind, QObject* parent)
    : QAbstractTableModel(parent)
    , m_kind(kind)
{ }

void CoreAssignmentModel::setAssignments(const rdt::engine::CoreAssignments& table)
{
    const bool columnsChange = m_kind == Kind::Classes && table.resources != m_table.resources;
    if (columnsChange) {
        beginResetModel();
        m_table = table;
        endResetModel();
        return;
    }
    const auto rows = [this](const rdt::engine::CoreAssignments& t) {
        return static_cast<int>(m_kind == Kind::Cores ? t.cores.size() : t.classes.size());
    };
    if (rows(table) != rows(m_table)) {
        beginResetModel();
        m_table = table;
        endResetModel();
        return;
    }
    m_table = table; // same shape: a refresh keeps the selection and scroll position
    if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

QString CoreAssignmentModel::groupLabel(const std::string& path)
{
    return path.empty() ? tr("default") : QString::fromStdString(path);
}

int CoreAssignmentModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid()) return 0;
    return static_cast<int>(m_kind == Kind::Cores ? m_table.cores.size() : m_table.classes.size());
}

int CoreAssignmentModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid()) return 0;
    return m_kind == Kind::Cores ? CoreColumnCount : FirstResourceColumn + static_cast<int>(m_table.resources.size());
}

QVariant CoreAssignmentModel::coreData(const rdt::engine::CoreAssignment& c, int column, int role) const
{
    const auto id = [](int v) { return v >= 0 ? QVariant(v) : QVariant(tr("unknown")); };
    if (role == Qt::ToolTipRole) {
        if (!c.known) return tr("No group's CPU list names CPU %1 (a cpus_list could not be read)").arg(c.cpu);
        if ((column == ClosColumn && c.closid < 0) || (column == RmidColumn && c.rmid < 0)) return tr(kUnknownWhy);
        if (column == ClosColumn || column == ControlGroupColumn)
            return tr("The class of the default group's tasks while they run on CPU %1 (resctrl.rst \"cpus\"); a "
                      "task in another group uses its own group's class")
                .arg(c.cpu);
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case CpuColumn:
        return c.cpu;
    case ClosColumn:
        return c.known ? id(c.closid) : QVariant(tr("unknown"));
    case ControlGroupColumn:
        return c.known ? groupLabel(c.controlGroup) : tr("unknown");
    case RmidColumn:
        return c.known ? id(c.rmid) : QVariant(tr("unknown"));
    case MonitorGroupColumn:
        return c.known ? groupLabel(c.monitorGroup) : tr("unknown");
    default:
        return {};
    }
}

QVariant CoreAssignmentModel::classData(const rdt::engine::ClassAllocation& c, int column, int role) const
{
    if (role == Qt::ToolTipRole) {
        if (column == ClassClosColumn && c.closid < 0) return tr(kUnknownWhy);
        if (column >= FirstResourceColumn && !c.error.empty())
            return tr("The schemata could not be read: %1").arg(QString::fromStdString(c.error));
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case GroupColumn:
        return groupLabel(c.group);
    case ClassClosColumn:
        return c.closid >= 0 ? QVariant(c.closid) : QVariant(tr("unknown"));
    case ModeColumn:
        return c.mode.empty() ? tr("unknown") : QString::fromStdString(c.mode);
    case CpusColumn:
        return c.cpusKnown ? (c.cpus.empty() ? tr("none") : QString::fromStdString(rdt::formatIdList(c.cpus)))
                           : tr("unknown");
    default: {
        const auto r = static_cast<std::size_t>(column - FirstResourceColumn);
        if (r >= c.values.size()) return {};
        if (!c.error.empty()) return tr("unreadable");
        return c.values[r].empty() ? tr("\u2014") : QString::fromStdString(c.values[r]);
    }
    }
}

QVariant CoreAssignmentModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto row = static_cast<std::size_t>(index.row());
    return m_kind == Kind::Cores ? coreData(m_table.cores[row], index.column(), role)
                                 : classData(m_table.classes[row], index.column(), role);
}

QVariant CoreAssignmentModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    if (m_kind == Kind::Cores) {
        switch (section) {
        case CpuColumn:
            return tr("CPU");
        case ClosColumn:
            return tr("CLOS");
        case ControlGroupColumn:
            return tr("Control group");
        case RmidColumn:
            return tr("RMID");
        case MonitorGroupColumn:
            return tr("Monitor group");
        default:
            return {};
        }
    }
    switch (section) {
    case GroupColumn:
        return tr("Class (group)");
    case ClassClosColumn:
        return tr("CLOS");
    case ModeColumn:
        return tr("Mode");
    case CpusColumn:
        return tr("CPUs");
    default: {
        const auto r = static_cast<std::size_t>(section - FirstResourceColumn);
        return r < m_table.resources.size() ? QString::fromStdString(m_table.resources[r]) : QString();
    }
    }
}
