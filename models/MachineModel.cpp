// SPDX-License-Identifier: GPL-3.0-or-later
#include "MachineModel.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

MachineModel::MachineModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void MachineModel::setRows(QList<CapabilityRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_groups.clear();
    for (int i = 0; i < m_rows.size(); ++i) {
        const QString& name = m_rows[i].group;
        auto it = std::find_if(m_groups.begin(), m_groups.end(), [&](const Group& g) { return g.name == name; });
        if (it == m_groups.end()) {
            m_groups.append({ name, {} });
            it = m_groups.end() - 1;
        }
        it->rows.append(i);
    }
    endResetModel();
}

const CapabilityRow* MachineModel::rowAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == kGroupId) return nullptr;
    const auto g = static_cast<int>(index.internalId());
    if (g < 0 || g >= m_groups.size() || index.row() >= m_groups[g].rows.size()) return nullptr;
    return &m_rows[m_groups[g].rows[index.row()]];
}

QModelIndex MachineModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) return row < m_groups.size() ? createIndex(row, column, kGroupId) : QModelIndex {};
    if (parent.internalId() != kGroupId || parent.row() >= m_groups.size()) return {};
    if (row >= m_groups[parent.row()].rows.size()) return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row()));
}

QModelIndex MachineModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kGroupId) return {};
    return createIndex(static_cast<int>(child.internalId()), 0, kGroupId);
}

int MachineModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid()) return static_cast<int>(m_groups.size());
    if (parent.column() != 0 || parent.internalId() != kGroupId || parent.row() >= m_groups.size()) return 0;
    return static_cast<int>(m_groups[parent.row()].rows.size());
}

int MachineModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant MachineModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    if (index.internalId() == kGroupId) {
        if (index.row() >= m_groups.size()) return {};
        const auto& g = m_groups[index.row()];
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == NameColumn) return g.name;
            if (index.column() == ValueColumn) {
                const auto present
                    = std::count_if(g.rows.cbegin(), g.rows.cend(), [this](int r) { return m_rows[r].present; });
                return tr("%1 of %2 present").arg(present).arg(g.rows.size());
            }
            return {};
        case Qt::FontRole: {
            QFont f;
            f.setBold(true);
            return f;
        }
        case GroupRole:
            return g.name;
        case IsGroupRole:
            return true;
        default:
            return {};
        }
    }
    const CapabilityRow* r = rowAt(index);
    if (!r) return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return r->name;
        case ValueColumn:
            return r->present ? r->value : (r->value.isEmpty() ? tr("absent") : r->value);
        case OriginColumn:
            return r->origin;
        case SdmColumn:
            return r->sdmSection.isEmpty() ? QString() : QStringLiteral("SDM ") + r->sdmSection;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (!r->present && !r->whyNot.isEmpty()) return tr("Not available: %1").arg(r->whyNot);
        return r->origin.isEmpty() ? r->name : r->name + QStringLiteral(" \u2014 ") + r->origin;
    case Qt::ForegroundRole:
        if (!r->present) return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case PresentRole:
        return r->present;
    case SdmSectionRole:
        return r->sdmSection;
    case WhyNotRole:
        return r->whyNot;
    case GroupRole:
        return r->group;
    case IsGroupRole:
        return false;
    default:
        return {};
    }
}

QVariant MachineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Capability");
    case ValueColumn:
        return tr("Value");
    case OriginColumn:
        return tr("Origin");
    case SdmColumn:
        return tr("SDM section");
    default:
        return {};
    }
}
