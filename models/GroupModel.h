// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "GroupControl.h"

#include <QAbstractItemModel>
#include <QList>

/// Groups dock model: control groups at the top level, their monitor groups as children.
/// Columns: group, kind, tasks (count, with the PIDs in the tooltip), CPUs.
class GroupModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, TasksColumn, CpusColumn, ColumnCount };
    enum Role { PathRole = Qt::UserRole + 1, MonitorOnlyRole };

    explicit GroupModel(QObject* parent = nullptr);

    void setGroups(const std::vector<GroupDescription>& groups);
    /// Adds groups that appear in samples but not in the list (e.g. a replay without a group list).
    void observeGroup(const std::string& path);
    int groupCount() const { return static_cast<int>(m_groups.size()); }
    /// The description behind an index, or nullptr.
    const GroupDescription* groupAt(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node {
        GroupDescription group;
        QList<GroupDescription> children;
    };
    static constexpr quintptr kTopId = ~quintptr(0);
    static QString displayName(const std::string& path);
    QList<Node> m_groups;
};
