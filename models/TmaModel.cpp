// SPDX-License-Identifier: GPL-3.0-or-later
#include "TmaModel.h"

using rdt::pmu::TmaBreakdown;

namespace {
// internalId: 0 for level-1 rows, parent row + 1 for level-2 rows (so parent() needs no lookup table).
constexpr quintptr kTop = 0;
}

const std::vector<TmaModel::Category>& TmaModel::categories()
{
    // The measured level-2 nodes come from different events per generation (Tma.h): the PERF_METRICS topdown-*
    // events on Sapphire Rapids and later, generic events as perf's skylakex-metrics.json uses them before Ice Lake.
    // The column explains the category; the tooltip says how each generation measures it.
    static const std::vector<Category> c = {
        { "retiring", "Retiring", "Slots that retired a uop: useful work (SDM 22.2.9.6; perf's topdown.txt)", -1,
            nullptr },
        { "bad-speculation", "Bad speculation",
            "Slots wasted on uops that never retired: mispredicted paths and machine clears (perf's topdown.txt)", -1,
            nullptr },
        { "frontend-bound", "Frontend bound",
            "Slots where the frontend delivered no uop to an idle backend (IDQ not delivered; perf's topdown.txt)", -1,
            nullptr },
        { "backend-bound", "Backend bound",
            "Slots where uops could not be issued for lack of backend resources: memory or execution units "
            "(perf's topdown.txt)",
            -1, nullptr },
        { "retiring.heavy", "Heavy operations", "Retired uops of instructions that need 2+ uops or microcode", 0,
            "Sapphire Rapids and later: topdown-heavy-ops.\nBefore Ice Lake: the microcode sequencer's share only,\n"
            "UOPS_RETIRED.RETIRE_SLOTS / UOPS_ISSUED.ANY x IDQ.MS_UOPS / slots (pmu-tools' Microcode_Sequencer):\n"
            "multi-uop instructions decoded without microcode count as light operations there" },
        { "retiring.light", "Light operations", "Retired single-uop instructions: Retiring - Heavy operations", 0,
            nullptr },
        { "bad-speculation.mispredicts", "Branch mispredicts", "Slots lost to mispredicted branches", 1,
            "Sapphire Rapids and later: topdown-br-mispredict.\nBefore Ice Lake: Bad speculation x "
            "BR_MISP_RETIRED.ALL_BRANCHES / (BR_MISP_RETIRED.ALL_BRANCHES + MACHINE_CLEARS.COUNT)" },
        { "bad-speculation.clears", "Machine clears",
            "Slots lost to pipeline flushes (memory ordering, self-modifying code): Bad speculation - Branch "
            "mispredicts",
            1, nullptr },
        { "frontend-bound.latency", "Fetch latency", "Frontend starved by i-cache/iTLB misses or resteers", 2,
            "Sapphire Rapids and later: topdown-fetch-lat.\nBefore Ice Lake: 4 x "
            "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE / slots" },
        { "frontend-bound.bandwidth", "Fetch bandwidth",
            "Frontend delivered too few uops per cycle (decoders, DSB): Frontend bound - Fetch latency", 2, nullptr },
        { "backend-bound.memory", "Memory bound", "Stalls waiting for loads and stores: caches, DRAM, bandwidth", 3,
            "Sapphire Rapids and later: topdown-mem-bound.\nBefore Ice Lake: Backend bound x "
            "(CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES)\n/ (stall and low port-use cycles)" },
        { "backend-bound.core", "Core bound", "Stalls on execution units or dividers: Backend bound - Memory bound", 3,
            nullptr },
    };
    return c;
}

double TmaModel::value(const TmaBreakdown& b, int index)
{
    const auto& l1 = b.level1;
    const auto& l2 = b.level2;
    switch (index) {
    case 0:
        return l1.retiring;
    case 1:
        return l1.badSpeculation;
    case 2:
        return l1.frontendBound;
    case 3:
        return l1.backendBound;
    case 4:
        return l2.heavyOperations;
    case 5:
        return l2.lightOperations;
    case 6:
        return l2.branchMispredicts;
    case 7:
        return l2.machineClears;
    case 8:
        return l2.fetchLatency;
    case 9:
        return l2.fetchBandwidth;
    case 10:
        return l2.memoryBound;
    case 11:
        return l2.coreBound;
    default:
        return 0;
    }
}

TmaModel::TmaModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void TmaModel::setBreakdown(const TmaBreakdown& breakdown)
{
    const bool shapeChanges = breakdown.valid != m_breakdown.valid
        || (breakdown.valid && breakdown.level2.present != m_breakdown.level2.present);
    if (shapeChanges) {
        beginResetModel();
        m_breakdown = breakdown;
        endResetModel();
        return;
    }
    m_breakdown = breakdown;
    if (!m_breakdown.valid) return;
    Q_EMIT dataChanged(index(0, FractionColumn), index(3, FractionColumn));
    if (hasLevel2())
        for (int r = 0; r < 4; ++r)
            Q_EMIT dataChanged(index(0, FractionColumn, index(r, 0)), index(1, FractionColumn, index(r, 0)));
}

void TmaModel::setSeries(std::vector<Point> series)
{
    m_series = std::move(series);
}

QModelIndex TmaModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, kTop);
    return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex TmaModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kTop) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kTop);
}

int TmaModel::rowCount(const QModelIndex& parent) const
{
    if (!m_breakdown.valid) return 0;
    if (!parent.isValid()) return 4;
    if (parent.column() != 0 || parent.internalId() != kTop) return 0;
    return hasLevel2() ? 2 : 0;
}

int TmaModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

int TmaModel::categoryOf(const QModelIndex& index) const
{
    if (!index.isValid()) return -1;
    if (index.internalId() == kTop) return index.row();
    return 4 + static_cast<int>(index.internalId() - 1) * 2 + index.row();
}

QVariant TmaModel::data(const QModelIndex& index, int role) const
{
    const int c = categoryOf(index);
    if (c < 0) return {};
    const Category& cat = categories()[static_cast<std::size_t>(c)];
    const double v = value(m_breakdown, c);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case CategoryColumn:
            return tr(cat.name);
        case FractionColumn:
            return QStringLiteral("%1 %").arg(v * 100.0, 0, 'f', 1);
        case ExplanationColumn:
            return tr(cat.explanation);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return cat.measuredBy ? tr("%1.\n%2.").arg(tr(cat.explanation), tr(cat.measuredBy)) : tr(cat.explanation);
    case Qt::TextAlignmentRole:
        return index.column() == FractionColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case FractionRole:
        return v;
    case KeyRole:
        return QString::fromLatin1(cat.key);
    default:
        return {};
    }
}

QVariant TmaModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case CategoryColumn:
        return tr("Category");
    case FractionColumn:
        return tr("Slots");
    case ExplanationColumn:
        return tr("What it means");
    default:
        return {};
    }
}
