// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Top-down Microarchitecture Analysis arithmetic (SDM 22.2.9.6 "TMA Slots Per Cycle"; docs/PMU.md "TMA").
// Ice Lake and later: read() of the slots group returns each metric already converted to slots by the kernel
// (icl_get_metrics_event_value), so fractions are metric / (sum of the four level-1 metrics), as perf's
// tma_* MetricExpr and toplev's PERF_METRICS_SUM do. Before Ice Lake: pmu-tools skl_client_ratios.py level 1.

#include "PerfRecord.h"
#include "core/Result.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rdt::pmu {

struct TmaLevel1 {
    double retiring = 0, badSpeculation = 0, frontendBound = 0, backendBound = 0;
};

/// Level 2 (SPR+: four measured, four derived as topdown.txt describes; Skylake: SkylakeTmaCounts::level2).
struct TmaLevel2 {
    bool present = false;
    double heavyOperations = 0, lightOperations = 0; ///< Retiring = heavy + light
    double branchMispredicts = 0, machineClears = 0; ///< Bad speculation = mispredicts + clears
    double fetchLatency = 0, fetchBandwidth = 0; ///< Frontend bound = latency + bandwidth
    double memoryBound = 0, coreBound = 0; ///< Backend bound = memory + core
};

struct TmaBreakdown {
    bool valid = false;
    std::string note; ///< why not valid (no slots counted, counter never ran), or what was clamped
    double slots = 0; ///< total issue slots in the interval (scaled)
    double multiplexScale = 1; ///< time_enabled / time_running applied (1 = the group ran the whole time)
    TmaLevel1 level1;
    TmaLevel2 level2;
};

/// Every level-1 and level-2 fraction of a breakdown, in one fixed order: what code that combines breakdowns
/// field by field (a slot-weighted mean, the difference of two cumulative breakdowns) walks.
/// (double* for a breakdown, const double* for a const one).
template <typename Breakdown> auto tmaFractions(Breakdown& b) -> std::array<decltype(&b.level1.retiring), 12>
{
    return { &b.level1.retiring, &b.level1.badSpeculation, &b.level1.frontendBound, &b.level1.backendBound,
        &b.level2.heavyOperations, &b.level2.lightOperations, &b.level2.branchMispredicts, &b.level2.machineClears,
        &b.level2.fetchLatency, &b.level2.fetchBandwidth, &b.level2.memoryBound, &b.level2.coreBound };
}

/// Deltas of the Ice Lake+ group read (slots and metric events, all in slots).
struct IcelakeTmaCounts {
    std::uint64_t slots = 0, retiring = 0, badSpec = 0, feBound = 0, beBound = 0;
    bool level2 = false;
    std::uint64_t heavyOps = 0, brMispredict = 0, fetchLat = 0, memBound = 0;
};
TmaBreakdown tmaFromIcelake(const IcelakeTmaCounts& c);

/// Deltas of the pre-Ice Lake generic events. With SMT on, the slots of a core are shared by its two threads, so
/// pmu-tools counts cycles and recovery cycles for the whole core (AnyThread, SDM 22.2.3.1) and halves them:
/// CORE_CLKS = CPU_CLK_UNHALTED.THREAD_ANY / 2, Recovery_Cycles = INT_MISC.RECOVERY_CYCLES_ANY / 2.
struct SkylakeTmaCounts {
    std::uint64_t uopsIssuedAny = 0; ///< UOPS_ISSUED.ANY
    std::uint64_t uopsRetiredSlots = 0; ///< UOPS_RETIRED.RETIRE_SLOTS
    std::uint64_t idqUopsNotDelivered = 0; ///< IDQ_UOPS_NOT_DELIVERED.CORE
    std::uint64_t recoveryCycles = 0; ///< INT_MISC.RECOVERY_CYCLES
    std::uint64_t clkUnhalted = 0; ///< CPU_CLK_UNHALTED.THREAD
    unsigned slotsPerCycle = 4; ///< CPUID.23H.00H:ECX[7:0] when non-zero (SDM 22.2.9.6), else 4 (Pipeline_Width)
    bool anyThread = false; ///< clkUnhalted and recoveryCycles were counted with AnyThread (whole core): halve them
    /// Level 2 (Skylake and later only, SMT-off formulas), as perf's skylakex-metrics.json computes it:
    /// tma_fetch_latency = 4 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE / slots,
    /// tma_branch_mispredicts = BR_MISP_RETIRED.ALL_BRANCHES / (BR_MISP_RETIRED.ALL_BRANCHES + MACHINE_CLEARS.COUNT)
    ///   * tma_bad_speculation,
    /// tma_memory_bound = (CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES) / (CYCLE_ACTIVITY.STALLS_TOTAL
    ///   + (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * EXE_ACTIVITY.2_PORTS_UTIL) + EXE_ACTIVITY.BOUND_ON_STORES)
    ///   * tma_backend_bound,
    /// and pmu-tools' Microcode_Sequencer = (RETIRE_SLOTS / UOPS_ISSUED.ANY) * IDQ.MS_UOPS / slots, reported as
    /// heavyOperations (Skylake's Heavy Operations adds multi-uop instructions, which need more events).
    /// The siblings are the remainders (fetch bandwidth, machine clears, core bound, light operations).
    bool level2 = false;
    std::uint64_t cycles0UopsDelivered = 0; ///< IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE
    std::uint64_t brMispRetired = 0; ///< BR_MISP_RETIRED.ALL_BRANCHES
    std::uint64_t machineClears = 0; ///< MACHINE_CLEARS.COUNT
    std::uint64_t stallsMemAny = 0; ///< CYCLE_ACTIVITY.STALLS_MEM_ANY
    std::uint64_t stallsTotal = 0; ///< CYCLE_ACTIVITY.STALLS_TOTAL
    std::uint64_t boundOnStores = 0; ///< EXE_ACTIVITY.BOUND_ON_STORES
    std::uint64_t onePortUtil = 0; ///< EXE_ACTIVITY.1_PORTS_UTIL
    std::uint64_t twoPortsUtil = 0; ///< EXE_ACTIVITY.2_PORTS_UTIL
    std::uint64_t idqMsUops = 0; ///< IDQ.MS_UOPS
};

/// perf's skylake / icelake tma_memory_bound as a fraction of Backend Bound (the formula above, without the final
/// `* tma_backend_bound`): (STALLS_MEM_ANY + BOUND_ON_STORES) / (STALLS_TOTAL + 1_PORTS_UTIL + retiring x
/// 2_PORTS_UTIL + BOUND_ON_STORES), 0 when the denominator is. The one formula for the TMA level 2 and the
/// sweeps' memory-bound share (MemoryBound.h).
double memoryBoundFractionOfBackend(double stallsMemAny, double boundOnStores, double stallsTotal, double onePortUtil,
    double twoPortsUtil, double retiring);
TmaBreakdown tmaFromSkylake(const SkylakeTmaCounts& c);

/// Deltas of an E-core (cpu_atom) group, level 1 as perf's metrics JSON computes it for "Unit": "cpu_atom":
/// - Gracemont (Alder Lake / Raptor Lake, alderlake adl-metrics.json): tma_info_core_clks = CPU_CLK_UNHALTED.CORE,
///   tma_info_core_slots = 5 * tma_info_core_clks, tma_retiring = TOPDOWN_RETIRING.ALL / slots, tma_frontend_bound =
///   TOPDOWN_FE_BOUND.ALL / slots, tma_backend_bound = TOPDOWN_BE_BOUND.ALL / slots, and tma_bad_speculation =
///   (slots - (TOPDOWN_FE_BOUND.ALL + TOPDOWN_BE_BOUND.ALL + TOPDOWN_RETIRING.ALL)) / slots (the remainder).
/// - Crestmont (Meteor Lake, meteorlake mtl-metrics.json): each of TOPDOWN_{RETIRING,BAD_SPECULATION,FE_BOUND,
///   BE_BOUND}.ALL_P / (6 * CPU_CLK_UNHALTED.CORE), bad speculation measured.
/// Level 1 only: the E-core's level 2 (base/ms_uops, fetch latency/bandwidth...) does not map onto TmaLevel2.
struct AtomTmaCounts {
    std::uint64_t retiring = 0; ///< TOPDOWN_RETIRING.ALL(_P)
    std::uint64_t feBound = 0; ///< TOPDOWN_FE_BOUND.ALL(_P)
    std::uint64_t beBound = 0; ///< TOPDOWN_BE_BOUND.ALL(_P)
    std::uint64_t coreClks = 0; ///< CPU_CLK_UNHALTED.CORE(_P)
    unsigned slotsPerCycle = 5; ///< 5 (Gracemont) or 6 (Crestmont)
    bool badSpecMeasured = false; ///< Crestmont: badSpec is TOPDOWN_BAD_SPECULATION.ALL_P; Gracemont: the remainder
    std::uint64_t badSpec = 0;
};
TmaBreakdown tmaFromAtom(const AtomTmaCounts& c);

/// CPUID.23H.00H:ECX[7:0] when the leaf exists and reports non-zero, else 4 (SDM 22.2.9.6 allows 0).
unsigned tmaSlotsPerCycle(unsigned cpuid23Ecx, bool leaf23Present);

/// value * enabled / running; returns 0 when the counter never ran (running == 0).
double scaleCount(std::uint64_t value, std::uint64_t enabled, std::uint64_t running);

/// Parses a read() of an event or a group (PERF_FORMAT_GROUP, TOTAL_TIME_*, ID, LOST) [uapi read_format comment].
Result<ReadData> parseReadFormat(std::span<const std::byte> bytes, std::uint64_t readFormat);

/// Difference of two cumulative group reads (counters and times), value by value; sizes must match.
ReadData deltaRead(const ReadData& now, const ReadData& before);

/// TMA per interval: feed cumulative group reads (as PerfSession::readGroups or SimPmu::readGroup return them) and
/// get the breakdown of each interval, with its history kept for views and sessions.
struct TmaInterval {
    std::uint64_t timeNs = 0; ///< end of the interval
    TmaBreakdown breakdown;
};
class TmaIntervals {
public:
    /// The cumulative values at the start of the first interval.
    void start(const ReadData& cumulative)
    {
        m_last = cumulative;
        m_hasLast = true;
    }
    /// `toBreakdown` turns one delta into a breakdown (tmaFromGroupRead bound to a recipe).
    template <typename F> const TmaInterval& add(std::uint64_t timeNs, const ReadData& cumulative, F&& toBreakdown)
    {
        const ReadData delta = m_hasLast ? deltaRead(cumulative, m_last) : cumulative;
        m_last = cumulative;
        m_hasLast = true;
        m_history.push_back(TmaInterval { timeNs, toBreakdown(delta) });
        return m_history.back();
    }
    const std::vector<TmaInterval>& history() const { return m_history; }
    /// Slot-weighted mean over the history (what a "total" row shows).
    TmaBreakdown total() const;

private:
    ReadData m_last;
    bool m_hasLast = false;
    std::vector<TmaInterval> m_history;
};

} // namespace rdt::pmu
