// SPDX-License-Identifier: GPL-3.0-or-later
#include "GroupModel.h"
#include "rdt/GroupNames.h"

#include <QStringList>

namespace {
/// "p0/mon_groups/m1" -> "p0"; "mon_groups/m1" -> "" (a monitor group of the default group).
std::string controlParent(const std::string& path)
{
    const auto pos = path.find("mon_groups/");
    if (pos == std::string::npos) return path;
    return pos == 0 ? std::string() : path.substr(0, pos - 1);
}
} // namespace

GroupModel::GroupModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void GroupModel::setGroups(const std::vector<GroupDescription>& groups)
{
    beginResetModel();
    m_groups.clear();
    for (const auto& g : groups) {
        if (!g.monitorOnly) m_groups.append({ g, {} });
    }
    for (const auto& g : groups) {
        if (!g.monitorOnly) continue;
        const auto parentPath = controlParent(g.path);
        auto it
            = std::find_if(m_groups.begin(), m_groups.end(), [&](const Node& n) { return n.group.path == parentPath; });
        if (it == m_groups.end()) {
            GroupDescription parentGroup;
            parentGroup.path = parentPath;
            m_groups.append({ parentGroup, {} });
            it = m_groups.end() - 1;
        }
        it->children.append(g);
    }
    endResetModel();
}

void GroupModel::observeGroup(const std::string& path)
{
    const auto parentPath = controlParent(path);
    const bool monitor = parentPath != path;
    int top = -1;
    for (int i = 0; i < m_groups.size(); ++i) {
        if (m_groups[i].group.path == parentPath) top = i;
    }
    if (top < 0) {
        beginInsertRows({}, static_cast<int>(m_groups.size()), static_cast<int>(m_groups.size()));
        GroupDescription g;
        g.path = parentPath;
        m_groups.append({ g, {} });
        endInsertRows();
        top = static_cast<int>(m_groups.size()) - 1;
    }
    if (!monitor) return;
    auto& children = m_groups[top].children;
    if (std::any_of(children.cbegin(), children.cend(), [&](const GroupDescription& c) { return c.path == path; }))
        return;
    beginInsertRows(index(top, 0), static_cast<int>(children.size()), static_cast<int>(children.size()));
    GroupDescription g;
    g.path = path;
    g.monitorOnly = true;
    children.append(g);
    endInsertRows();
}

const GroupDescription* GroupModel::groupAt(const QModelIndex& index) const
{
    if (!index.isValid()) return nullptr;
    if (index.internalId() == kTopId) return index.row() < m_groups.size() ? &m_groups[index.row()].group : nullptr;
    const auto top = static_cast<int>(index.internalId());
    if (top >= m_groups.size() || index.row() >= m_groups[top].children.size()) return nullptr;
    return &m_groups[top].children[index.row()];
}

QModelIndex GroupModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) return row < m_groups.size() ? createIndex(row, column, kTopId) : QModelIndex {};
    if (parent.internalId() != kTopId || parent.row() >= m_groups.size()
        || row >= m_groups[parent.row()].children.size())
        return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row()));
}

QModelIndex GroupModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kTopId) return {};
    return createIndex(static_cast<int>(child.internalId()), 0, kTopId);
}

int GroupModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid()) return static_cast<int>(m_groups.size());
    if (parent.column() != 0 || parent.internalId() != kTopId || parent.row() >= m_groups.size()) return 0;
    return static_cast<int>(m_groups[parent.row()].children.size());
}

int GroupModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QString GroupModel::displayName(const std::string& path)
{
    if (path.empty()) return QString::fromStdString(rdt::displayGroup(path)); // the one name (rdt/GroupNames.h)
    const auto pos = path.rfind('/');
    return QString::fromStdString(pos == std::string::npos ? path : path.substr(pos + 1));
}

QVariant GroupModel::data(const QModelIndex& index, int role) const
{
    const GroupDescription* g = groupAt(index);
    if (!g) return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return displayName(g->path);
        case KindColumn:
            return g->monitorOnly ? tr("monitor") : tr("control");
        case TasksColumn:
            return static_cast<int>(g->tasks.size());
        case CpusColumn:
            return QString::fromStdString(g->cpus);
        default:
            return {};
        }
    case Qt::ToolTipRole: {
        QStringList pids;
        for (int pid : g->tasks)
            pids.append(QString::number(pid));
        const QString path = QString::fromStdString(rdt::displayGroup(g->path));
        return pids.isEmpty() ? path
                              : path + QStringLiteral("\n") + tr("tasks: %1").arg(pids.join(QStringLiteral(", ")));
    }
    case PathRole:
        return QString::fromStdString(g->path);
    case MonitorOnlyRole:
        return g->monitorOnly;
    default:
        return {};
    }
}

QVariant GroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Group");
    case KindColumn:
        return tr("Kind");
    case TasksColumn:
        return tr("Tasks");
    case CpusColumn:
        return tr("CPUs");
    default:
        return {};
    }
}
