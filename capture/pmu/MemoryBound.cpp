// SPDX-License-Identifier: GPL-3.0-or-later
#include "MemoryBound.h"

#include <algorithm>

namespace rdt::pmu {

namespace {

constexpr std::uint64_t kGroupRead
    = perf::ReadGroup | perf::ReadTotalTimeEnabled | perf::ReadTotalTimeRunning | perf::ReadId;

struct Want {
    const char* name;
    EventRole role;
};

Result<Recipe> countingGroup(
    const EventEncoder& enc, const RecipeOptions& opt, const char* name, std::initializer_list<Want> wants)
{
    Recipe r;
    r.name = name;
    r.counting = true;
    for (const auto& w : wants) {
        auto e = enc.encode(w.name, opt.user, opt.kernel);
        if (!e) return e.error();
        RecipeEvent ev { e->name, e->fstr, w.role, e->attr };
        ev.attr.samplePeriod = 0;
        ev.attr.readFormat = kGroupRead;
        ev.attr.setFlag(EventAttr::FlagDisabled, r.events.empty()); // the leader, enabled with its group
        r.events.push_back(std::move(ev));
    }
    return r;
}

/// The value of `role` in group `g`, scaled to the time the group was enabled (it may have been multiplexed).
double scaled(const Recipe& g, const ReadData& d, EventRole role)
{
    for (std::size_t i = 0; i < g.events.size() && i < d.values.size(); ++i)
        if (g.events[i].role == role) return scaleCount(d.values[i].value, d.timeEnabled, d.timeRunning);
    return 0;
}

} // namespace

Result<MemoryBoundRecipes> memoryBoundRecipes(const EventEncoder& enc, const RecipeOptions& opt)
{
    const PmuModel& m = enc.model();
    const bool skylake = m.pfmName == "skl" || m.pfmName == "skx" || m.pfmName == "clx";
    if (m.tma != TmaModel::SapphireRapids && m.tma != TmaModel::Icelake && !skylake)
        return makeError("the memory-bound share is not counted on this PMU ("
                + (m.pfmName.empty() ? std::string("no Intel core PMU detected") : m.pfmName) + ")",
            "unfinished: TMA Memory Bound is counted on Skylake, Ice Lake and Sapphire Rapids or later P-cores; "
            "IPC and MPKI are still counted");
    auto tma = tmaRecipe(enc, opt);
    if (!tma) return tma.error();
    MemoryBoundRecipes out;
    out.groups.push_back(std::move(*tma));
    if (m.tma == TmaModel::SapphireRapids) {
        out.description = "TMA Memory Bound from topdown-mem-bound (slots + PERF_METRICS level 2)";
        return out;
    }
    auto stalls = countingGroup(enc, opt, "tma-memory-stalls",
        { { "CYCLE_ACTIVITY:STALLS_MEM_ANY", EventRole::StallsMemAny },
            { "EXE_ACTIVITY:BOUND_ON_STORES", EventRole::BoundOnStores },
            { "CYCLE_ACTIVITY:STALLS_TOTAL", EventRole::StallsTotal } });
    if (!stalls) return stalls.error();
    auto ports = countingGroup(enc, opt, "tma-memory-ports",
        { { "EXE_ACTIVITY:1_PORTS_UTIL", EventRole::OnePortUtil },
            { "EXE_ACTIVITY:2_PORTS_UTIL", EventRole::TwoPortsUtil } });
    if (!ports) return ports.error();
    out.groups.push_back(std::move(*stalls));
    out.groups.push_back(std::move(*ports));
    out.description = std::string("TMA Memory Bound from CYCLE_ACTIVITY.STALLS_MEM_ANY, EXE_ACTIVITY.* and level 1 (")
        + (m.tma == TmaModel::Icelake ? "slots + PERF_METRICS" : "generic counters") + "), groups multiplexed";
    return out;
}

MemoryBoundShare memoryBoundShare(const MemoryBoundRecipes& r, const std::vector<ReadData>& deltas)
{
    MemoryBoundShare out;
    if (r.groups.empty() || deltas.size() != r.groups.size()) {
        out.note = "the memory-bound groups were not all read";
        return out;
    }
    const TmaBreakdown tma = tmaFromGroupRead(r.groups[0], deltas[0]);
    if (!tma.valid) {
        out.note = tma.note;
        return out;
    }
    if (tma.level2.present) {
        out.share = tma.level2.memoryBound;
        out.note = tma.note;
        return out;
    }
    if (r.groups.size() != 3) {
        out.note = "no level-2 memory events were counted";
        return out;
    }
    const Recipe& sg = r.groups[1];
    const Recipe& pg = r.groups[2];
    const double memAny = scaled(sg, deltas[1], EventRole::StallsMemAny);
    const double stores = scaled(sg, deltas[1], EventRole::BoundOnStores);
    const double stallsTotal = scaled(sg, deltas[1], EventRole::StallsTotal);
    const double onePort = scaled(pg, deltas[2], EventRole::OnePortUtil);
    const double twoPorts = scaled(pg, deltas[2], EventRole::TwoPortsUtil);
    const double backendCycles = stallsTotal + onePort + tma.level1.retiring * twoPorts + stores;
    if (backendCycles <= 0 || deltas[1].timeRunning == 0) {
        out.note = "no backend-bound cycles were counted in this interval";
        return out;
    }
    const double share
        = memoryBoundFractionOfBackend(memAny, stores, stallsTotal, onePort, twoPorts, tma.level1.retiring)
        * tma.level1.backendBound;
    if (share < 0 || share > 1)
        out.note = "the memory-bound share fell outside [0,1] (groups multiplexed) and was clamped";
    out.share = std::clamp(share, 0.0, 1.0);
    return out;
}

} // namespace rdt::pmu
