// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Capture recipes: the perf_event groups (with every attr bit that matters) for TMA, LBR and load latency.
// A Recipe is data; PerfSession opens it per process or per CPU, SimPmu produces records that match it.

#include "EventEncoder.h"
#include "Tma.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rdt::pmu {

/// What a group member measures, so group reads can be turned into TMA without name matching.
enum class EventRole : std::uint8_t {
    Sampler, ///< the sampling event of an LBR / load-latency / cpu-clock recipe
    Placeholder, ///< mem-loads-aux: a leader that only exists to co-schedule the load-latency event
    Slots,
    Retiring,
    BadSpec,
    FeBound,
    BeBound,
    HeavyOps,
    BrMispredict,
    FetchLat,
    MemBound,
    UopsIssued,
    UopsRetiredSlots,
    IdqUopsNotDelivered,
    RecoveryCycles,
    Cycles,
    // TMA level 2 Memory Bound before Sapphire Rapids (pmu/MemoryBound.h)
    StallsMemAny, ///< CYCLE_ACTIVITY.STALLS_MEM_ANY
    StallsTotal, ///< CYCLE_ACTIVITY.STALLS_TOTAL
    BoundOnStores, ///< EXE_ACTIVITY.BOUND_ON_STORES
    OnePortUtil, ///< EXE_ACTIVITY.1_PORTS_UTIL
    TwoPortsUtil, ///< EXE_ACTIVITY.2_PORTS_UTIL
    // TMA level 2 on Skylake (SkylakeTmaCounts::level2; Memory Bound shares the events above)
    Cycles0UopsDelivered,
    BrMispRetired,
    MachineClearsCount,
    IdqMsUops,
};

struct RecipeEvent {
    std::string name;
    std::string fstr;
    EventRole role = EventRole::Sampler;
    EventAttr attr;
    /// Lowest precise_ip the recipe still means something with: when the PMU refuses attr's precise_ip, PerfSession
    /// retries one lower down to this (perf's evsel__precise_ip_fallback). PEBS load latency needs 1 (PEBS at all);
    /// a plain cycles sample is fine with 0 (skid).
    unsigned minPreciseIp = 0;
};

enum class LbrMode : std::uint8_t {
    AnyBranch, ///< every taken branch, with cycles, mispredict and type (perf record -j any,save_type)
    CallStack, ///< USER|CALL_STACK|HW_INDEX: the LBR as a call stack (perf record --call-graph lbr)
};

struct Recipe {
    std::string name; ///< "tma", "lbr-any", "lbr-callstack", "load-latency", "cpu-clock"
    std::string description;
    std::vector<RecipeEvent> events; ///< events[0] is the group leader
    bool sampling = false; ///< needs an mmap ring
    bool counting = false; ///< read() periodically (TMA)
    TmaModel tma = TmaModel::None;
    unsigned slotsPerCycle = 4;
    bool anyThread = false; ///< pre-ICL TMA: cycles and recovery cycles count the whole core (SMT on)
    unsigned lbrDepth = 0;
    /// Hybrid parts: the core PMU this recipe is for ("cpu_core", "cpu_atom"), how to call it ("P-cores
    /// (cpu_core)"), and its CPUs: PerfSession opens per-CPU events only there (the kernel refuses a core PMU's
    /// event on another PMU's CPU). Empty on parts with one core PMU: every online CPU.
    std::string pmuName, pmuLabel;
    std::vector<int> cpus;
};

struct RecipeOptions {
    bool user = true;
    bool kernel = false; ///< user-only works at perf_event_paranoid 2
    std::uint64_t period = 0; ///< 0: the recipe's default
    std::uint64_t frequency = 0; ///< when non-zero, sample at this frequency instead of a period
    unsigned ldlat = 30; ///< load latency threshold in cycles (perf's default)
    unsigned preciseIp = 2; ///< 2: "requested to have 0 skid" (PEBS)
    bool weightStruct = true; ///< WEIGHT_STRUCT (load + instruction latency) instead of WEIGHT
    bool physAddr = false;
    unsigned slotsPerCycle = 4; ///< pre-ICL only: tmaSlotsPerCycle(CPUID.23H)
    bool smtActive = false; ///< pre-ICL only: SMT is on (/sys/devices/system/cpu/smt/active), see tmaRecipe
    bool anyThreadAllowed = false; ///< AnyThread counting is permitted (perf_event_paranoid <= 0 or root)
    unsigned lbrDepth = 0; ///< from lbrDepthFromCpuid, 0 = unknown (the kernel decides)
    /// Skylake and later, SMT off: add the nine level-2 events to the TMA group (SkylakeTmaCounts::level2). Thirteen
    /// programmable events are more than a Skylake core's eight counters, so real hardware could not schedule the
    /// group at once (perf splits such metrics into multiplexed groups; rdtscope does not yet): only the simulated
    /// PMU, whose counters have no limit, asks for it. hostRecipeOptions leaves it off.
    bool skylakeLevel2 = false;
};

struct PerfEnvironment;
struct PmuCpuid;
/// The options for recipes on this host, the same for the CLI and the GUI: user-only (works at
/// perf_event_paranoid 2), slots per cycle from CPUID.23H, LBR depth from CPUID.1CH, SMT and AnyThread permission.
RecipeOptions hostRecipeOptions(const PerfEnvironment& env, const PmuCpuid& cpuid);

/// Level 1 (and level 2 on SPR+) TMA group for the model: ICL+ slots leader with metric events, pre-ICL the five
/// generic events; PERF_FORMAT_GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID, no sampling [topdown.txt].
/// Pre-ICL with SMT on: cycles and recovery cycles with AnyThread (SDM 22.2.3.1) when allowed, as pmu-tools does;
/// otherwise the SMT-off formulas, and the description says the breakdown is approximate.
/// AnyThread needs perf_event_paranoid <= 0 or CAP_PERFMON (the kernel's x86_pmu_hw_config returns EACCES).
Result<Recipe> tmaRecipe(const EventEncoder& enc, const RecipeOptions& opt = {});
/// LBR sampling on cycles with PERF_SAMPLE_BRANCH_STACK in either mode.
Result<Recipe> lbrRecipe(const EventEncoder& enc, LbrMode mode, const RecipeOptions& opt = {});
/// PEBS load latency: MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=N with precise_ip, sampling
/// IP|TID|TIME|ADDR|CPU|PERIOD|WEIGHT(_STRUCT)|DATA_SRC[|PHYS_ADDR]; led by mem-loads-aux on SPR+.
Result<Recipe> loadLatencyRecipe(const EventEncoder& enc, const RecipeOptions& opt = {});
/// cpu-clock (software) with user callchains: works without a hardware PMU (the live test, and `pmu` on VMs).
Recipe cpuClockRecipe(const RecipeOptions& opt = {});

/// Maximum LBR depth from CPUID.1CH:EAX[7:0], a bitmap where bit n means depth 8*(n+1) is supported (SDM 21.1.2.2
/// "LBR Depth"; the bitmap meaning is SDM Vol. 2A, CPUID leaf 1CH); 0 when none is set (no architectural LBR).
unsigned lbrDepthFromCpuid(std::uint32_t eax1c);

/// The recipe's group counts TMA level 2: Sapphire Rapids' metric events, or Skylake's level-2 events.
bool recipeHasTmaLevel2(const Recipe& recipe);

/// Turns one interval's group read delta into TMA, scaling for multiplexing (time_enabled / time_running).
TmaBreakdown tmaFromGroupRead(const Recipe& recipe, const ReadData& delta);

} // namespace rdt::pmu
