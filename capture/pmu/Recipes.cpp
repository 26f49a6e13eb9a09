// SPDX-License-Identifier: GPL-3.0-or-later
#include "Recipes.h"

#include "PerfSyscalls.h"
#include "PmuCpuid.h"

#include <algorithm>
#include <bit>
#include <ctime>

namespace rdt::pmu {

namespace {

constexpr std::uint64_t kGroupRead
    = perf::ReadGroup | perf::ReadTotalTimeEnabled | perf::ReadTotalTimeRunning | perf::ReadId;

Result<RecipeEvent> member(const EventEncoder& enc, const char* name, EventRole role, const RecipeOptions& opt)
{
    auto e = enc.encode(name, opt.user, opt.kernel);
    if (!e) return e.error();
    RecipeEvent r { e->name, e->fstr, role, e->attr };
    // Hybrid parts: a generic hardware event names its PMU in config bits 32-63 [uapi PERF_PMU_TYPE_SHIFT], also
    // cpu_core's type 4: without it the kernel would pick one core PMU for the event.
    if (r.attr.type == TypeHardware && (enc.model().rawType != TypeRaw || !enc.model().pmuName.empty()))
        r.attr.config |= static_cast<std::uint64_t>(enc.model().rawType) << 32;
    return r;
}

void setSampling(EventAttr& a, const RecipeOptions& opt, std::uint64_t defaultPeriod)
{
    if (opt.frequency) {
        a.samplePeriod = opt.frequency;
        a.setFlag(EventAttr::FlagFreq, true);
    } else {
        a.samplePeriod = opt.period ? opt.period : defaultPeriod;
    }
    a.setFlag(EventAttr::FlagDisabled, true); // enabled together once every ring is mapped
    a.setFlag(EventAttr::FlagMmap2, true); // MMAP2 + COMM feed the symbolizer
    a.setFlag(EventAttr::FlagComm, true);
    a.setFlag(EventAttr::FlagMmap, true);
    a.setFlag(EventAttr::FlagCommExec, true);
    a.setFlag(EventAttr::FlagSampleIdAll, true);
    a.setFlag(1, true); // inherit: follow the threads and children the target creates
    // Sample times on CLOCK_MONOTONIC (`perf record -k CLOCK_MONOTONIC`, kernel 4.1+), the clock the RDT sampler and
    // the GUI's timelines use, so a range selected there selects exactly these samples.
    a.setFlag(EventAttr::FlagUseClockid, true);
    a.clockid = CLOCK_MONOTONIC;
    a.wakeupEvents = 0;
}

} // namespace

unsigned lbrDepthFromCpuid(std::uint32_t eax1c)
{
    const std::uint32_t bitmap = eax1c & 0xffu;
    if (bitmap == 0) return 0;
    return 8u * static_cast<unsigned>(std::bit_width(bitmap)); // highest bit n -> 8*(n+1)
}

RecipeOptions hostRecipeOptions(const PerfEnvironment& env, const PmuCpuid& cpuid)
{
    RecipeOptions ro;
    ro.kernel = false;
    ro.slotsPerCycle = cpuid.slotsPerCycle; // CPUID.23H (SDM 22.2.9.6), used by the pre-Ice Lake formulas
    ro.lbrDepth = cpuid.lbrDepth; // CPUID.1CH (SDM 21.1.2.2); informational, the kernel programs the LBRs
    ro.smtActive = env.smtActive; // pre-ICL TMA: core cycles via AnyThread when allowed (SDM 22.2.3.1)
    ro.anyThreadAllowed = env.anyThreadAllowed();
    return ro;
}

Result<Recipe> tmaRecipe(const EventEncoder& enc, const RecipeOptions& opt)
{
    const PmuModel& m = enc.model();
    Recipe r;
    r.name = "tma";
    r.counting = true;
    r.tma = m.tma;
    r.slotsPerCycle = opt.slotsPerCycle ? opt.slotsPerCycle : 4;
    struct Want {
        const char* name;
        EventRole role;
    };
    std::vector<Want> wants;
    switch (m.tma) {
    case TmaModel::None:
        if (m.atom)
            return makeError("TMA is not available on E-cores (" + m.pmuName + ")",
                m.tmaUnavailable.empty() ? std::string("no E-core TMA events are known for this model")
                                         : m.tmaUnavailable);
        return makeError("TMA is not available on this PMU ("
                + (m.pfmName.empty() ? std::string("no Intel core PMU detected") : m.pfmName) + ")",
            "TMA needs an Intel core PMU (Sandy Bridge or later); use --source sim for the simulated one");
    case TmaModel::Gracemont:
        // Level 1 as perf's alderlake adl-metrics.json computes it for cpu_atom (see tmaFromAtom); the cycles
        // leader and three slot counters fit the E-core's six general counters. Bad speculation is the remainder
        // there, so TOPDOWN_BAD_SPECULATION.ALL (in the event table) is not needed.
        wants = { { "cpu_clk_unhalted.core_p", EventRole::Cycles }, { "topdown_retiring.all", EventRole::Retiring },
            { "topdown_fe_bound.all", EventRole::FeBound }, { "topdown_be_bound.all", EventRole::BeBound } };
        r.slotsPerCycle = 5; // tma_info_core_slots = 5 * tma_info_core_clks
        r.description = "TMA level 1 on Gracemont E-cores (TOPDOWN_*.ALL, 5 slots per cycle)";
        break;
    case TmaModel::Crestmont:
        // perf's meteorlake mtl-metrics.json (cpu_atom): every level-1 node measured, over 6 * CPU_CLK_UNHALTED.CORE.
        wants = { { "cpu_clk_unhalted.core_p", EventRole::Cycles }, { "topdown_retiring.all_p", EventRole::Retiring },
            { "topdown_bad_speculation.all_p", EventRole::BadSpec }, { "topdown_fe_bound.all_p", EventRole::FeBound },
            { "topdown_be_bound.all_p", EventRole::BeBound } };
        r.slotsPerCycle = 6;
        r.description = "TMA level 1 on Crestmont E-cores (TOPDOWN_*.ALL_P, 6 slots per cycle)";
        break;
    case TmaModel::PreIcelake: {
        // Cycles on fixed counter 1 leads, so the four programmable events fit the 4 counters of an SMT thread.
        wants = { { "cycles", EventRole::Cycles }, { "UOPS_ISSUED:ANY", EventRole::UopsIssued },
            { "UOPS_RETIRED:RETIRE_SLOTS", EventRole::UopsRetiredSlots },
            { "IDQ_UOPS_NOT_DELIVERED:CORE", EventRole::IdqUopsNotDelivered },
            { "INT_MISC:RECOVERY_CYCLES", EventRole::RecoveryCycles } };
        r.description = "TMA level 1 from generic counters (pmu-tools skl_client_ratios)";
        if (opt.smtActive && opt.anyThreadAllowed) {
            // t=1 sets AnyThread (bit 21); event 3CH still lands on fixed counter 1, which honours it too.
            wants[0].name = "CPU_CLK_UNHALTED:THREAD_P:t=1";
            wants[4].name = "INT_MISC:RECOVERY_CYCLES:t=1";
            r.anyThread = true;
            r.description += "; SMT on: core cycles via AnyThread, halved per thread";
        } else if (opt.smtActive) {
            r.description += "; SMT on but AnyThread counting is not permitted (needs perf_event_paranoid <= 0 or "
                             "CAP_PERFMON): per-thread formulas, approximate while the sibling thread is busy";
        }
        const bool skylakeOn = m.pfmName == "skl" || m.pfmName == "skx" || m.pfmName == "clx";
        if (opt.skylakeLevel2 && !opt.smtActive && !skylakeOn) // EXE_ACTIVITY exists from Skylake on
            r.description += "; no level 2 (its events exist from Skylake on)";
        if (opt.skylakeLevel2 && !opt.smtActive && skylakeOn) {
            const Want l2[] = { { "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", EventRole::Cycles0UopsDelivered },
                { "BR_MISP_RETIRED:ALL_BRANCHES", EventRole::BrMispRetired },
                { "MACHINE_CLEARS:COUNT", EventRole::MachineClearsCount },
                { "CYCLE_ACTIVITY:STALLS_MEM_ANY", EventRole::StallsMemAny },
                { "CYCLE_ACTIVITY:STALLS_TOTAL", EventRole::StallsTotal },
                { "EXE_ACTIVITY:BOUND_ON_STORES", EventRole::BoundOnStores },
                { "EXE_ACTIVITY:1_PORTS_UTIL", EventRole::OnePortUtil },
                { "EXE_ACTIVITY:2_PORTS_UTIL", EventRole::TwoPortsUtil }, { "IDQ:MS_UOPS", EventRole::IdqMsUops } };
            wants.insert(wants.end(), std::begin(l2), std::end(l2));
            r.description = "TMA levels 1-2 from generic counters (perf's skylakex metrics; 13 events in one group, "
                            "more than a real core's counters: simulated PMU only)";
        }
        break;
    }
    case TmaModel::SapphireRapids:
    case TmaModel::Icelake:
        wants = { { "slots", EventRole::Slots }, { "topdown-retiring", EventRole::Retiring },
            { "topdown-bad-spec", EventRole::BadSpec }, { "topdown-fe-bound", EventRole::FeBound },
            { "topdown-be-bound", EventRole::BeBound } };
        if (m.tma == TmaModel::SapphireRapids) {
            wants.push_back({ "topdown-heavy-ops", EventRole::HeavyOps });
            wants.push_back({ "topdown-br-mispredict", EventRole::BrMispredict });
            wants.push_back({ "topdown-fetch-lat", EventRole::FetchLat });
            wants.push_back({ "topdown-mem-bound", EventRole::MemBound });
        }
        r.description = m.tma == TmaModel::SapphireRapids ? "TMA levels 1-2: slots + 8 PERF_METRICS events"
                                                          : "TMA level 1: slots + 4 PERF_METRICS events";
        break;
    }
    for (const auto& w : wants) {
        auto e = member(enc, w.name, w.role, opt);
        if (!e) return e.error();
        EventAttr& a = e->attr;
        // Metric events must not sample and their slots leader must not either [kcore intel_pmu_hw_config].
        a.samplePeriod = 0;
        a.readFormat = kGroupRead; // "The PERF_FORMAT_GROUP flag must be applied for each TopDown metric" [topdown]
        a.setFlag(EventAttr::FlagDisabled, r.events.empty());
        r.events.push_back(std::move(*e));
    }
    return r;
}

Result<Recipe> lbrRecipe(const EventEncoder& enc, LbrMode mode, const RecipeOptions& opt)
{
    const PmuModel& m = enc.model();
    if (!m.lbr)
        return makeError("LBR is not available on this PMU ("
                + (m.pfmName.empty() ? std::string("no Intel core PMU detected") : m.pfmName) + ")",
            "LBR needs an Intel core PMU (call-stack mode: Haswell or later); use --source sim");
    auto e = member(enc, "cycles", EventRole::Sampler, opt);
    if (!e) return e.error();
    Recipe r;
    r.lbrDepth = opt.lbrDepth;
    EventAttr& a = e->attr;
    setSampling(a, opt, 100003); // perf's prime-ish periods avoid lock-step with loops
    a.sampleType = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SamplePeriod | perf::SampleCpu
        | perf::SampleBranchStack;
    const std::uint64_t priv = (opt.user ? std::uint64_t { perf::BranchUser } : 0u)
        | (opt.kernel ? std::uint64_t { perf::BranchKernel } : 0u);
    if (mode == LbrMode::AnyBranch) {
        r.name = "lbr-any";
        r.description = "LBR, every taken branch (cycles, mispredict, type)";
        a.branchSampleType = priv | perf::BranchAny | perf::BranchTypeSave; // type tells calls from returns
    } else {
        // perf's --call-graph lbr: user space only ("LBR callstack option is only available to get user callchain
        // information"); the call stack needs one CPL (SDM 21.1.2.4 "CPL filtering").
        if (!opt.user || opt.kernel)
            return makeError("LBR call-stack mode records user space only (SDM 21.1.2.4: use one CPL)");
        r.name = "lbr-callstack";
        r.description = "LBR call-stack mode (USER|CALL_STACK|HW_INDEX)";
        a.sampleType |= perf::SampleCallchain;
        a.branchSampleType = perf::BranchUser | perf::BranchCallStack | perf::BranchNoCycles | perf::BranchNoFlags
            | perf::BranchHwIndex;
    }
    r.sampling = true;
    r.events.push_back(std::move(*e));
    return r;
}

Result<Recipe> loadLatencyRecipe(const EventEncoder& enc, const RecipeOptions& opt)
{
    const PmuModel& m = enc.model();
    if (!m.loadLatency)
        return makeError("PEBS load latency is not available on this PMU ("
                + (m.pfmName.empty() ? std::string("no Intel core PMU detected") : m.pfmName) + ")",
            "MEM_TRANS_RETIRED.LOAD_LATENCY needs an Intel core PMU with PEBS; use --source sim");
    if (opt.ldlat < 1 || opt.ldlat > 0xffff) return makeError("ldlat must be 1..65535 cycles (config1 bits 0-15)");
    Recipe r;
    r.name = "load-latency";
    r.description = "PEBS load latency (MEM_TRANS_RETIRED.LOAD_LATENCY, ldlat=" + std::to_string(opt.ldlat) + ")";
    r.sampling = true;
    const bool grouped = m.memLoadsAux;
    if (grouped) {
        // SPR+: the load-latency event "needs to always be co-scheduled with an auxiliary event" [kcore]; perf
        // makes it the leader and samples the second event (tools/perf/arch/x86/util/mem-events.c).
        auto aux = member(enc, "mem-loads-aux", EventRole::Placeholder, opt);
        if (!aux) return aux.error();
        aux->attr.samplePeriod = 0;
        aux->attr.setFlag(EventAttr::FlagDisabled, true);
        aux->attr.setPreciseIp(opt.preciseIp);
        aux->minPreciseIp = std::min(1u, opt.preciseIp); // a PEBS event: precise_ip 0 would not be PEBS
        aux->attr.sampleType = perf::SampleIdentifier;
        aux->attr.setFlag(EventAttr::FlagSampleIdAll, true);
        r.events.push_back(std::move(*aux));
    }
    Result<RecipeEvent> e = makeError("unset");
    if (m.atom) {
        // E-cores: MEM_UOPS_RETIRED.LOAD_LATENCY (event 0xd0 umask 0x5) with the threshold in config1 [kcore
        // mem_ld_adl], no auxiliary leader (mem-loads-aux is the P-core's only).
        e = member(enc, "mem_uops_retired.load_latency", EventRole::Sampler, opt);
        if (e) {
            e->attr.config1 = opt.ldlat;
            e->attr.setPreciseIp(opt.preciseIp);
            e->name = "MEM_UOPS_RETIRED:LOAD_LATENCY:ldlat=" + std::to_string(opt.ldlat)
                + ":precise=" + std::to_string(opt.preciseIp);
            r.description = "PEBS load latency on E-cores (MEM_UOPS_RETIRED.LOAD_LATENCY, ldlat="
                + std::to_string(opt.ldlat) + ")";
        }
    } else {
        const std::string name = "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=" + std::to_string(opt.ldlat)
            + ":precise=" + std::to_string(opt.preciseIp);
        e = member(enc, name.c_str(), EventRole::Sampler, opt);
    }
    if (!e) return e.error();
    // Load latency exists only in PEBS records (SDM 22.3.1.1.2 "Load Latency Performance Monitoring Facility"), so
    // the precise_ip fallback may lower 2 (or 3) to 1 but never to 0.
    e->minPreciseIp = std::min(1u, opt.preciseIp);
    EventAttr& a = e->attr;
    setSampling(a, opt, 1000);
    a.setFlag(EventAttr::FlagMmapData, true); // perf -d: data mmaps too, so data addresses can be resolved
    a.sampleType = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleAddr | perf::SampleCpu
        | perf::SamplePeriod | perf::SampleDataSrc
        | (opt.weightStruct ? std::uint64_t { perf::SampleWeightStruct } : std::uint64_t { perf::SampleWeight })
        | (opt.physAddr ? std::uint64_t { perf::SamplePhysAddr } : 0u)
        | (grouped ? std::uint64_t { perf::SampleIdentifier } : 0u);
    if (grouped) a.setFlag(EventAttr::FlagDisabled, false); // members follow the leader
    r.events.push_back(std::move(*e));
    return r;
}

Recipe cpuClockRecipe(const RecipeOptions& opt)
{
    Recipe r;
    r.name = "cpu-clock";
    r.description = "cpu-clock (software timer) with user callchains";
    r.sampling = true;
    RecipeEvent e;
    e.name = "cpu-clock";
    e.fstr = "perf::PERF_COUNT_SW_CPU_CLOCK";
    e.attr.type = TypeSoftware;
    e.attr.config = SwCpuClock;
    e.attr.size = perf::AttrSizeVer8;
    RecipeOptions o = opt;
    if (!o.period && !o.frequency) o.frequency = 4000;
    setSampling(e.attr, o, 0);
    e.attr.setFlag(EventAttr::FlagExcludeKernel, !opt.kernel);
    e.attr.setFlag(EventAttr::FlagExcludeHv, true);
    e.attr.sampleType = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SamplePeriod | perf::SampleCpu
        | perf::SampleCallchain;
    e.attr.setFlag(21, !opt.kernel); // exclude_callchain_kernel: user frames only at paranoid 2
    r.events.push_back(std::move(e));
    return r;
}

bool recipeHasTmaLevel2(const Recipe& recipe)
{
    if (recipe.tma == TmaModel::SapphireRapids) return true;
    return recipe.tma == TmaModel::PreIcelake
        && std::any_of(recipe.events.begin(), recipe.events.end(),
            [](const RecipeEvent& e) { return e.role == EventRole::StallsMemAny; });
}

TmaBreakdown tmaFromGroupRead(const Recipe& recipe, const ReadData& d)
{
    TmaBreakdown bad;
    if (d.values.size() != recipe.events.size()) {
        bad.note = "group read has " + std::to_string(d.values.size()) + " values for "
            + std::to_string(recipe.events.size()) + " events";
        return bad;
    }
    if (d.timeRunning == 0) {
        bad.note = recipe.pmuName.empty()
            ? "the TMA group was never scheduled in this interval (another tool holds the counters?)"
            : "the " + recipe.pmuLabel
                + " group did not run in this interval (the target ran on none of its CPUs, "
                  "or another tool holds the counters)";
        return bad;
    }
    // Hybrid parts: a per-task event of one core PMU is not scheduled while the task runs on the other PMU's CPUs,
    // so time_running < time_enabled there is no multiplexing and must not extrapolate the slots.
    const double scale = d.timeEnabled > d.timeRunning && recipe.pmuName.empty()
        ? static_cast<double>(d.timeEnabled) / static_cast<double>(d.timeRunning)
        : 1.0;
    auto get = [&](EventRole role) -> std::uint64_t {
        for (std::size_t i = 0; i < recipe.events.size(); ++i)
            if (recipe.events[i].role == role) return d.values[i].value;
        return 0;
    };
    TmaBreakdown b;
    if (recipe.tma == TmaModel::Gracemont || recipe.tma == TmaModel::Crestmont) {
        AtomTmaCounts c { get(EventRole::Retiring), get(EventRole::FeBound), get(EventRole::BeBound),
            get(EventRole::Cycles), recipe.slotsPerCycle, recipe.tma == TmaModel::Crestmont, get(EventRole::BadSpec) };
        b = tmaFromAtom(c);
    } else if (recipe.tma == TmaModel::PreIcelake) {
        // Every member of a group runs for the same time, so scaling changes no ratio; it scales the totals.
        SkylakeTmaCounts c { get(EventRole::UopsIssued), get(EventRole::UopsRetiredSlots),
            get(EventRole::IdqUopsNotDelivered), get(EventRole::RecoveryCycles), get(EventRole::Cycles),
            recipe.slotsPerCycle, recipe.anyThread };
        c.level2 = recipeHasTmaLevel2(recipe);
        c.cycles0UopsDelivered = get(EventRole::Cycles0UopsDelivered);
        c.brMispRetired = get(EventRole::BrMispRetired);
        c.machineClears = get(EventRole::MachineClearsCount);
        c.stallsMemAny = get(EventRole::StallsMemAny);
        c.stallsTotal = get(EventRole::StallsTotal);
        c.boundOnStores = get(EventRole::BoundOnStores);
        c.onePortUtil = get(EventRole::OnePortUtil);
        c.twoPortsUtil = get(EventRole::TwoPortsUtil);
        c.idqMsUops = get(EventRole::IdqMsUops);
        b = tmaFromSkylake(c);
    } else {
        IcelakeTmaCounts c;
        c.slots = get(EventRole::Slots);
        c.retiring = get(EventRole::Retiring);
        c.badSpec = get(EventRole::BadSpec);
        c.feBound = get(EventRole::FeBound);
        c.beBound = get(EventRole::BeBound);
        c.level2 = recipe.tma == TmaModel::SapphireRapids;
        c.heavyOps = get(EventRole::HeavyOps);
        c.brMispredict = get(EventRole::BrMispredict);
        c.fetchLat = get(EventRole::FetchLat);
        c.memBound = get(EventRole::MemBound);
        b = tmaFromIcelake(c);
    }
    b.multiplexScale = scale;
    b.slots *= scale;
    return b;
}

} // namespace rdt::pmu
