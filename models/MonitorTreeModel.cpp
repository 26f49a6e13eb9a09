// SPDX-License-Identifier: GPL-3.0-or-later
#include "MonitorTreeModel.h"
#include "rdt/GroupNames.h"

#include "MonitorModel.h"
#include "core/Units.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <map>

namespace {
// internalId: a group row is kTopLevel; a domain row holds its group's index; an SNC node row holds kNodeRow with
// its group's index above bit 16 and its domain's row below.
constexpr quintptr kTopLevel = ~quintptr(0);
constexpr quintptr kNodeRow = quintptr(1) << 62;
constexpr int kNodeShift = 16;
constexpr quintptr kRowMask = (quintptr(1) << kNodeShift) - 1;

quintptr nodeRowId(std::size_t group, int domainRow)
{
    return kNodeRow | (quintptr(group) << kNodeShift) | quintptr(domainRow);
}
std::size_t groupOfNodeRow(quintptr id)
{
    return static_cast<std::size_t>((id & ~kNodeRow) >> kNodeShift);
}
std::size_t domainOfNodeRow(quintptr id)
{
    return static_cast<std::size_t>(id & kRowMask);
}
} // namespace

MonitorTreeModel::Level MonitorTreeModel::levelOf(const QModelIndex& index)
{
    if (index.internalId() == kTopLevel) return Level::Group;
    return (index.internalId() & kNodeRow) ? Level::Node : Level::Domain;
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
            groups.push_back({ s.group, {}, {}, {}, 0 });
            groups.back().sum.group = s.group;
            groups.back().sum.timeNs = s.timeNs;
        }
        Group& g = groups[it->second];
        g.domains.push_back(s);
        g.nodes.emplace_back();
        g.sum.occupancyBytes += s.occupancyBytes;
        g.sum.mbmTotalBps += s.mbmTotalBps;
        g.sum.mbmLocalBps += s.mbmLocalBps;
        // A domain without an assigned counter is left out of the group's sums (the tooltip says how many), so
        // its flag does not make the group's bandwidth unknown; any other unknown reading does.
        constexpr std::uint32_t kUnassigned = rdt::SampleMbmUnassigned | rdt::SampleMbmLocalUnassigned;
        g.sum.flags |= s.flags & ~kUnassigned;
        if (s.flags & kUnassigned) ++g.unassigned;
    }
    for (const auto& s : batch.nodeSamples) {
        const auto it = at.find(s.group);
        if (it == at.end()) continue; // every node row has its L3 row (rdt::splitSncNodes)
        Group& g = groups[it->second];
        for (std::size_t d = 0; d < g.domains.size(); ++d)
            if (g.domains[d].domain == s.domain && g.nodes[d].size() < kRowMask) g.nodes[d].push_back(s);
    }
    bool sameShape = groups.size() == m_groups.size();
    for (std::size_t i = 0; sameShape && i < groups.size(); ++i) {
        sameShape = groups[i].path == m_groups[i].path && groups[i].domains.size() == m_groups[i].domains.size();
        for (std::size_t d = 0; sameShape && d < groups[i].domains.size(); ++d)
            sameShape = groups[i].domains[d].domain == m_groups[i].domains[d].domain
                && groups[i].nodes[d].size() == m_groups[i].nodes[d].size();
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
        for (int d = 0; d < n; ++d) {
            const QModelIndex domain = index(d, 0, parent);
            const int nodes = rowCount(domain);
            if (nodes > 0) Q_EMIT dataChanged(index(0, 0, domain), index(nodes - 1, ColumnCount - 1, domain));
        }
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
    if (row >= rowCount(parent)) return {};
    if (levelOf(parent) == Level::Group) return createIndex(row, column, quintptr(parent.row()));
    return createIndex(row, column, nodeRowId(static_cast<std::size_t>(parent.internalId()), parent.row()));
}

QModelIndex MonitorTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid()) return {};
    switch (levelOf(child)) {
    case Level::Group:
        return {};
    case Level::Domain:
        return createIndex(static_cast<int>(child.internalId()), 0, kTopLevel);
    case Level::Node:
        return createIndex(
            static_cast<int>(domainOfNodeRow(child.internalId())), 0, quintptr(groupOfNodeRow(child.internalId())));
    }
    return {};
}

int MonitorTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid()) return static_cast<int>(m_groups.size());
    if (parent.column() != 0) return 0;
    switch (levelOf(parent)) {
    case Level::Group: {
        const auto& g = m_groups[static_cast<std::size_t>(parent.row())];
        const bool snc = std::any_of(g.nodes.begin(), g.nodes.end(), [](const auto& n) { return !n.empty(); });
        // One domain: nothing to break down, unless its SNC nodes are.
        return g.domains.size() > 1 || snc ? static_cast<int>(g.domains.size()) : 0;
    }
    case Level::Domain:
        return static_cast<int>(m_groups[static_cast<std::size_t>(parent.internalId())]
                                    .nodes[static_cast<std::size_t>(parent.row())]
                                    .size());
    case Level::Node:
        return 0;
    }
    return 0;
}

int MonitorTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

const rdt::RdtSample* MonitorTreeModel::sampleFor(const QModelIndex& index) const
{
    if (!index.isValid()) return nullptr;
    switch (levelOf(index)) {
    case Level::Group:
        return &m_groups[static_cast<std::size_t>(index.row())].sum;
    case Level::Domain:
        return &m_groups[static_cast<std::size_t>(index.internalId())].domains[static_cast<std::size_t>(index.row())];
    case Level::Node:
        return &m_groups[groupOfNodeRow(index.internalId())]
                    .nodes[domainOfNodeRow(index.internalId())][static_cast<std::size_t>(index.row())];
    }
    return nullptr;
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
            if (s->node >= 0) return tr("SNC node %1").arg(s->node);
            if (!group) return tr("domain %1").arg(s->domain);
            return QString::fromStdString(rdt::displayGroup(s->group));
        case DomainsColumn:
            // "all 4", or which one domain a group was read in ("0" alone read like a count of domains).
            return group
                ? (domains == 1 ? tr("domain %1").arg(m_groups[static_cast<std::size_t>(index.row())].domains[0].domain)
                                : tr("all %1").arg(domains))
                : QString::number(s->domain);
        case OccupancyColumn:
            return MonitorModel::valueText(*s, MonitorModel::OccupancyColumn);
        case TotalColumn:
            if (mbmUnassigned(index)) return tr("unassigned");
            return MonitorModel::valueText(*s, MonitorModel::TotalColumn);
        case LocalColumn:
            if (mbmUnassigned(index)) return tr("unassigned");
            return MonitorModel::valueText(*s, MonitorModel::LocalColumn);
        case RemoteColumn:
            if (mbmUnassigned(index)) return tr("unassigned");
            return MonitorModel::valueText(*s, MonitorModel::RemoteColumn);
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
            return QString(QString::fromStdString(s->group) + (group ? QString() : QString::number(s->domain))
                + (s->node >= 0 ? QStringLiteral("/") + QString::number(s->node) : QString()));
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
    if (index.internalId() != kTopLevel)
        return (s->flags & (rdt::SampleMbmUnassigned | rdt::SampleMbmLocalUnassigned)) != 0;
    const Group& g = m_groups[static_cast<std::size_t>(index.row())];
    return g.unassigned > 0 && g.unassigned == g.domains.size();
}

QString MonitorTreeModel::tooltip(const QModelIndex& index) const
{
    const rdt::RdtSample* s = sampleFor(index);
    const bool group = index.internalId() == kTopLevel;
    const Group* g = group ? &m_groups[static_cast<std::size_t>(index.row())] : nullptr;
    const QString name = QString::fromStdString(rdt::displayGroup(s->group));
    const QString flags = MonitorModel::flagsText(s->flags);
    QString text = group ? tr("%1: summed over %n L3 domain(s)", nullptr, int(g->domains.size())).arg(name)
        : s->node >= 0
        ? tr("%1 in SNC node %2 of L3 domain %3 (the kernel's mon_sub_L3_%4): what the group holds and moves through "
             "this node's share of the L3; the domain row is the sum of its nodes.")
              .arg(name)
              .arg(s->node)
              .arg(s->domain)
              .arg(s->node, 2, 10, QLatin1Char('0'))
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
    static const char* const tips[]
        = { "Monitoring group (resctrl path); expand for one row per L3 domain (and per SNC node under it)",
              "L3 domains (cache instances) the figures are summed over", "Bytes of the L3 cache the group holds now",
              "Memory bandwidth, local and remote (MBM total)", "Memory bandwidth to the local node (MBM local)",
              "Total minus local: bandwidth to other nodes", "Counter errors, wraps and resets" };
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return tr(names[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}
