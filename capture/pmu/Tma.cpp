// SPDX-License-Identifier: GPL-3.0-or-later
#include "Tma.h"

#include "PerfRecordBytes.h"

#include <algorithm>

namespace rdt::pmu {

namespace {
double clamp01(double v, bool& clamped)
{
    if (v < 0 || v > 1) clamped = true;
    return std::clamp(v, 0.0, 1.0);
}
double ratio(double num, double den)
{
    return den > 0 ? num / den : 0;
}

/// Skylake level 2 (formulas in Tma.h, SkylakeTmaCounts::level2): each measured node is capped by its parent and
/// the sibling is the remainder, so the two always add up to the level-1 category.
void skylakeLevel2(
    const SkylakeTmaCounts& c, double width, double slots, const TmaLevel1& l1, TmaLevel2& l2, bool& clamped)
{
    auto d = [](std::uint64_t v) { return static_cast<double>(v); };
    auto child = [&clamped](double v, double parent) {
        if (v < 0 || v > parent + 1e-9) clamped = true;
        return std::clamp(v, 0.0, parent);
    };
    l2.present = true;
    l2.fetchLatency = child(width * d(c.cycles0UopsDelivered) / slots, l1.frontendBound);
    l2.fetchBandwidth = l1.frontendBound - l2.fetchLatency;
    l2.branchMispredicts = child(
        ratio(d(c.brMispRetired), d(c.brMispRetired) + d(c.machineClears)) * l1.badSpeculation, l1.badSpeculation);
    l2.machineClears = l1.badSpeculation - l2.branchMispredicts;
    const double memFraction = memoryBoundFractionOfBackend(
        d(c.stallsMemAny), d(c.boundOnStores), d(c.stallsTotal), d(c.onePortUtil), d(c.twoPortsUtil), l1.retiring);
    l2.memoryBound = child(memFraction * l1.backendBound, l1.backendBound);
    l2.coreBound = l1.backendBound - l2.memoryBound;
    const double retireFraction = ratio(d(c.uopsRetiredSlots), d(c.uopsIssuedAny));
    l2.heavyOperations = child(retireFraction * d(c.idqMsUops) / slots, l1.retiring);
    l2.lightOperations = l1.retiring - l2.heavyOperations;
}
} // namespace

double memoryBoundFractionOfBackend(double stallsMemAny, double boundOnStores, double stallsTotal, double onePortUtil,
    double twoPortsUtil, double retiring)
{
    return ratio(stallsMemAny + boundOnStores, stallsTotal + onePortUtil + retiring * twoPortsUtil + boundOnStores);
}

TmaBreakdown tmaFromIcelake(const IcelakeTmaCounts& c)
{
    TmaBreakdown b;
    b.slots = static_cast<double>(c.slots);
    // perf normalises by the sum of the four level-1 metrics, not by slots: the 8-bit PERF_METRICS fractions sum to
    // 0xff, so after the kernel's slots*val/0xff each metric may be off by rounding ("add up to 0xff") [topdown].
    const double sum = static_cast<double>(c.retiring) + static_cast<double>(c.badSpec) + static_cast<double>(c.feBound)
        + static_cast<double>(c.beBound);
    if (sum <= 0) {
        b.note = "no slots were counted in this interval (idle, or the group was never scheduled)";
        return b;
    }
    b.valid = true;
    auto f = [sum](std::uint64_t v) { return static_cast<double>(v) / sum; };
    b.level1 = { f(c.retiring), f(c.badSpec), f(c.feBound), f(c.beBound) };
    if (c.level2) {
        bool clamped = false;
        auto& l2 = b.level2;
        l2.present = true;
        l2.heavyOperations = clamp01(f(c.heavyOps), clamped);
        l2.branchMispredicts = clamp01(f(c.brMispredict), clamped);
        l2.fetchLatency = clamp01(f(c.fetchLat), clamped);
        l2.memoryBound = clamp01(f(c.memBound), clamped);
        // Derived [topdown "TopDown level 2 events"]: each level-1 node minus its measured child.
        l2.lightOperations = std::max(0.0, b.level1.retiring - l2.heavyOperations);
        l2.machineClears = std::max(0.0, b.level1.badSpeculation - l2.branchMispredicts);
        l2.fetchBandwidth = std::max(0.0, b.level1.frontendBound - l2.fetchLatency);
        l2.coreBound = std::max(0.0, b.level1.backendBound - l2.memoryBound);
        if (clamped) b.note = "a level-2 metric exceeded its range and was clamped (8-bit PERF_METRICS rounding)";
    }
    return b;
}

TmaBreakdown tmaFromSkylake(const SkylakeTmaCounts& c)
{
    TmaBreakdown b;
    const double width = c.slotsPerCycle ? c.slotsPerCycle : 4.0;
    const double perThread = c.anyThread ? 0.5 : 1.0; // the thread's share of its core's cycles (SMT on)
    const double slots = width * static_cast<double>(c.clkUnhalted) * perThread;
    b.slots = slots;
    if (slots <= 0) {
        b.note = "no unhalted cycles in this interval";
        return b;
    }
    const double issued = static_cast<double>(c.uopsIssuedAny);
    const double retired = static_cast<double>(c.uopsRetiredSlots);
    const double recovery = width * static_cast<double>(c.recoveryCycles) * perThread;
    bool clamped = false;
    b.level1.frontendBound = clamp01(static_cast<double>(c.idqUopsNotDelivered) / slots, clamped);
    b.level1.badSpeculation = clamp01((issued - retired + recovery) / slots, clamped);
    b.level1.retiring = clamp01(retired / slots, clamped);
    b.level1.backendBound = clamp01(1.0 - b.level1.frontendBound - (issued + recovery) / slots, clamped);
    if (c.level2 && !c.anyThread) skylakeLevel2(c, width, slots, b.level1, b.level2, clamped);
    if (clamped)
        b.note = "a fraction fell outside [0,1] (counters multiplexed or sampled at different times) and was clamped";
    b.valid = true;
    return b;
}

TmaBreakdown tmaFromAtom(const AtomTmaCounts& c)
{
    TmaBreakdown b;
    const double slots = static_cast<double>(c.slotsPerCycle ? c.slotsPerCycle : 5) * static_cast<double>(c.coreClks);
    b.slots = slots;
    if (slots <= 0) {
        b.note = "no unhalted E-core cycles in this interval (the target did not run on E-cores)";
        return b;
    }
    const double fe = static_cast<double>(c.feBound), be = static_cast<double>(c.beBound),
                 ret = static_cast<double>(c.retiring);
    bool clamped = false;
    b.level1.frontendBound = clamp01(fe / slots, clamped);
    b.level1.backendBound = clamp01(be / slots, clamped);
    b.level1.retiring = clamp01(ret / slots, clamped);
    b.level1.badSpeculation = clamp01(
        c.badSpecMeasured ? static_cast<double>(c.badSpec) / slots : (slots - (fe + be + ret)) / slots, clamped);
    if (clamped)
        b.note = "a fraction fell outside [0,1] (counters multiplexed or sampled at different times) and was clamped";
    b.valid = true;
    return b;
}

unsigned tmaSlotsPerCycle(unsigned cpuid23Ecx, bool leaf23Present)
{
    const unsigned v = cpuid23Ecx & 0xffu;
    return leaf23Present && v != 0 ? v : 4u;
}

double scaleCount(std::uint64_t value, std::uint64_t enabled, std::uint64_t running)
{
    if (running == 0) return 0;
    if (running >= enabled) return static_cast<double>(value);
    return static_cast<double>(value) * (static_cast<double>(enabled) / static_cast<double>(running));
}

Result<ReadData> parseReadFormat(std::span<const std::byte> bytes, std::uint64_t fmt)
{
    ByteCursor c(bytes);
    ReadData out;
    auto fail = [] { return makeError("truncated read() of a perf counter group"); };
    const bool group = fmt & perf::ReadGroup;
    std::uint64_t nr = 1;
    if (group && !c.u64(nr)) return fail();
    if (!group) {
        ReadValue v;
        if (!c.u64(v.value)) return fail();
        out.values.push_back(v);
    }
    if ((fmt & perf::ReadTotalTimeEnabled) && !c.u64(out.timeEnabled)) return fail();
    if ((fmt & perf::ReadTotalTimeRunning) && !c.u64(out.timeRunning)) return fail();
    if (group) {
        if (nr > c.left() / 8) return fail();
        for (std::uint64_t i = 0; i < nr; ++i) {
            ReadValue v;
            if (!c.u64(v.value)) return fail();
            if ((fmt & perf::ReadId) && !c.u64(v.id)) return fail();
            if ((fmt & perf::ReadLost) && !c.u64(v.lost)) return fail();
            out.values.push_back(v);
        }
    } else {
        if ((fmt & perf::ReadId) && !c.u64(out.values[0].id)) return fail();
        if ((fmt & perf::ReadLost) && !c.u64(out.values[0].lost)) return fail();
    }
    return out;
}

TmaBreakdown TmaIntervals::total() const
{
    TmaBreakdown t;
    double w = 0;
    const auto sums = tmaFractions(t);
    for (const auto& i : m_history) {
        const TmaBreakdown& b = i.breakdown;
        if (!b.valid) continue;
        const double s = b.slots > 0 ? b.slots : 1;
        w += s;
        t.slots += b.slots;
        t.level2.present = b.level2.present;
        const auto values = tmaFractions(b);
        for (std::size_t k = 0; k < sums.size(); ++k)
            *sums[k] += *values[k] * s;
    }
    if (w <= 0) {
        t.note = "no valid interval";
        return t;
    }
    for (double* v : sums)
        *v /= w;
    t.valid = true;
    return t;
}

ReadData deltaRead(const ReadData& now, const ReadData& before)
{
    ReadData d = now;
    if (before.values.size() != now.values.size()) return d;
    d.timeEnabled = now.timeEnabled - before.timeEnabled;
    d.timeRunning = now.timeRunning - before.timeRunning;
    for (std::size_t i = 0; i < d.values.size(); ++i)
        d.values[i].value = now.values[i].value - before.values[i].value;
    return d;
}

} // namespace rdt::pmu
