// SPDX-License-Identifier: GPL-3.0-or-later
#include "MonitorTreeModel.h"

#include "MonitorModel.h"
#include "core/Units.h"

#include <QGuiApplication>
#include <QPalette>

#include <map>

namespace {
constexpr quintptr kTopLevel = ~quintptr(0); ///< internalId of a group row; a domain row holds its group's index
}

MonitorTreeModel::MonitorTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void MonitorTreeModel::update(const rdt::RdtSampleBatch& batch)
{
    std::vector<Group> groups;
    std::map<std::string, std::size_t> at;
    for (const auto& s : batch.samples) {
        auto [it, fresh] = at.try_emplace(s.group, groups.size());
        if (fresh) {
            groups.push_back({ s.group, {}, {} });
            groups.back().sum.group = s.group;
            groups.back().sum.timeNs = s.timeNs;
        }
        Group& g = groups[it->second];
        g.domains.push_back(s);
        g.sum.occupancyBytes += s.occupancyBytes;
        g.sum.mbmTotalBps += s.mbmTotalBps;
        g.sum.mbmLocalBps += s.mbmLocalBps;
        g.sum.flags |= s.flags;
        if (s.flags & rdt::SampleMbmUnassigned) ++g.unassigned;
    }
    bool sameShape = groups.size() == m_groups.size();
    for (std::size_t i = 0; sameShape && i < groups.size(); ++i) {
        sameShape = groups[i].path == m_groups[i].path && groups[i].domains.size() == m_groups[i].domains.size();
        for (std::size_t d = 0; sameShape && d < groups[i].domains.size(); ++d)
            sameShape = groups[i].domains[d].domain == m_groups[i].domains[d].domain;
    }
    if (!sameShape) {
        beginResetModel();
        m_groups = std::move(groups);
        endResetModel();
        return;
    }
    m_groups = std::move(groups);
    // Rows keep their place (expansion and selection survive); the proxy re-sorts on dataChanged.
    const int last = static_cast<int>(m_groups.size()) - 1;
    if (last >= 0) Q_EMIT dataChanged(index(0, 0), index(last, ColumnCount - 1));
    for (int g = 0; g <= last; ++g) {
        const QModelIndex parent = index(g, 0);
        const int n = rowCount(parent);
        if (n > 0) Q_EMIT dataChanged(index(0, 0, parent), index(n - 1, ColumnCount - 1, parent));
    }
}

void MonitorTreeModel::clear()
{
    beginResetModel();
    m_groups.clear();
    endResetModel();
}

QModelIndex MonitorTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_groups.size()) ? createIndex(row, column, kTopLevel) : QModelIndex();
    if (parent.internalId() != kTopLevel) return {};
    const auto& g = m_groups[static_cast<std::size_t>(parent.row())];
    return row < static_cast<int>(g.domains.size()) ? createIndex(row, column, quintptr(parent.row())) : QModelIndex();
}

QModelIndex MonitorTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel) return {};
    return createIndex(static_cast<int>(child.internalId()), 0, kTopLevel);
}

int MonitorTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid()) return static_cast<int>(m_groups.size());
    if (parent.internalId() != kTopLevel || parent.column() != 0) return 0;
    const auto& g = m_groups[static_cast<std::size_t>(parent.row())];
    return g.domains.size() > 1 ? static_cast<int>(g.domains.size()) : 0; // one domain: nothing to break down
}

int MonitorTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

const rdt::RdtSample* MonitorTreeModel::sampleFor(const QModelIndex& index) const
{
    if (!index.isValid()) return nullptr;
    if (index.internalId() == kTopLevel) return &m_groups[static_cast<std::size_t>(index.row())].sum;
    const auto& g = m_groups[static_cast<std::size_t>(index.internalId())];
    return &g.domains[static_cast<std::size_t>(index.row())];
}

QVariant MonitorTreeModel::data(const QModelIndex& index, int role) const
{
    const rdt::RdtSample* s = sampleFor(index);
    if (!s) return {};
    const bool group = index.internalId() == kTopLevel;
    const std::size_t domains = group ? m_groups[static_cast<std::size_t>(index.row())].domains.size() : 1;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case GroupColumn:
            if (!group) return tr("domain %1").arg(s->domain);
            return s->group.empty() ? tr("(default)") : QString::fromStdString(s->group);
        case DomainsColumn:
            // "all 4", or which one domain a group was read in ("0" alone read like a count of domains).
            return group
                ? (domains == 1 ? tr("domain %1").arg(m_groups[static_cast<std::size_t>(index.row())].domains[0].domain)
                                : tr("all %1").arg(domains))
                : QString::number(s->domain);
        case OccupancyColumn:
            return QString::fromStdString(rdt::formatBytes(static_cast<double>(s->occupancyBytes)));
        case TotalColumn:
        case LocalColumn:
        case RemoteColumn:
            if (mbmUnassigned(index)) return tr("unassigned");
            return QString::fromStdString(rdt::formatBandwidth(index.column() == TotalColumn ? s->mbmTotalBps
                    : index.column() == LocalColumn                                          ? s->mbmLocalBps
                                                                                             : s->mbmRemoteBps()));
        case FlagsColumn:
            return MonitorModel::flagsText(s->flags & ~static_cast<std::uint32_t>(rdt::SampleFirst));
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && mbmUnassigned(index))
        return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
    if (role == ValueRole) {
        switch (index.column()) {
        case GroupColumn:
            return QString(QString::fromStdString(s->group) + (group ? QString() : QString::number(s->domain)));
        case DomainsColumn:
            return group ? static_cast<double>(domains) : static_cast<double>(s->domain);
        case OccupancyColumn:
            return static_cast<double>(s->occupancyBytes);
        case TotalColumn:
            return s->mbmTotalBps;
        case LocalColumn:
            return s->mbmLocalBps;
        case RemoteColumn:
            return s->mbmRemoteBps();
        case FlagsColumn:
            return static_cast<double>(s->flags);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= DomainsColumn && index.column() <= RemoteColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == GroupPathRole) return QString::fromStdString(s->group);
    if (role == Qt::ToolTipRole) return tooltip(index);
    return {};
}

bool MonitorTreeModel::mbmUnassigned(const QModelIndex& index) const
{
    const rdt::RdtSample* s = sampleFor(index);
    if (!s) return false;
    if (index.internalId() != kTopLevel) return (s->flags & rdt::SampleMbmUnassigned) != 0;
    const Group& g = m_groups[static_cast<std::size_t>(index.row())];
    return g.unassigned > 0 && g.unassigned == g.domains.size();
}

QString MonitorTreeModel::tooltip(const QModelIndex& index) const
{
    const rdt::RdtSample* s = sampleFor(index);
    const bool group = index.internalId() == kTopLevel;
    const Group* g = group ? &m_groups[static_cast<std::size_t>(index.row())] : nullptr;
    const QString name = s->group.empty() ? tr("(default)") : QString::fromStdString(s->group);
    const QString flags = MonitorModel::flagsText(s->flags);
    QString text = group ? tr("%1: summed over %n L3 domain(s)", nullptr, int(g->domains.size())).arg(name)
                         : tr("%1 in L3 domain %2").arg(name).arg(s->domain);
    if (!flags.isEmpty()) text += QStringLiteral("\n") + flags;
    if (mbmUnassigned(index)) {
        text += QStringLiteral("\n")
            + tr("No MBM counter is assigned here (assignable counters, mbm_event mode): the kernel reads "
                 "'Unassigned', so this bandwidth is not measured. Free a counter elsewhere or assign one: right-click "
                 "the group in the Groups dock, or 'rdtscope-cli groups counter-assign'.");
    } else if (g && g->unassigned > 0) {
        text += QStringLiteral("\n")
            + tr("%1 of %2 L3 domains have no MBM counter: the sums leave them out.")
                  .arg(g->unassigned)
                  .arg(g->domains.size());
    }
    return text;
}

QVariant MonitorTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    static const char* const names[]
        = { "Group", "Domains", "LLC occupancy", "Total BW", "Local BW", "Remote BW", "Flags" };
    static const char* const tips[] = { "Monitoring group (resctrl path); expand for one row per L3 domain",
        "L3 domains (cache instances) the figures are summed over", "Bytes of the L3 cache the group holds now",
        "Memory bandwidth, local and remote (MBM total)", "Memory bandwidth to the local node (MBM local)",
        "Total minus local: bandwidth to other nodes", "Counter errors, wraps and resets" };
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return tr(names[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}
