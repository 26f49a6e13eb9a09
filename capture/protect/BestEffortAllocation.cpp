// SPDX-License-Identifier: GPL-3.0-or-later
#include "BestEffortAllocation.h"

#include "rdt/GroupNames.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>

namespace rdt::protect {

namespace {

std::string hexMask(std::uint64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return buf;
}

/// The lowest `n` set bits of `full` (its ways from the low end, contiguous when `full` is).
std::uint64_t lowestWays(std::uint64_t full, unsigned n)
{
    std::uint64_t m = 0;
    for (unsigned bit = 0; bit < 64 && n > 0; ++bit)
        if (full & (std::uint64_t { 1 } << bit)) {
            m |= std::uint64_t { 1 } << bit;
            --n;
        }
    return m;
}

std::string oneLine(const Schemata& s)
{
    std::string t = s.format();
    while (!t.empty() && t.back() == '\n')
        t.pop_back();
    std::replace(t.begin(), t.end(), '\n', ' ');
    return t;
}

} // namespace

Result<BestEffortAllocation> BestEffortAllocation::open(engine::Engine& engine, const std::vector<std::string>& groups,
    unsigned minBeWays, std::optional<unsigned> mbaFloor)
{
    auto machine = engine.machine();
    if (!machine) return machine.error();
    const Capabilities& caps = machine->capabilities;
    auto layout = engine.allocationLayout();
    if (!layout) return layout.error();
    BestEffortAllocation a(engine);
    a.m_groups = groups;
    if (caps.resource("L3"))
        a.m_cacheResources = { "L3" };
    else if (caps.resource("L3CODE") && caps.resource("L3DATA"))
        a.m_cacheResources = { "L3CODE", "L3DATA" };
    else
        return errnoError(ENOTSUP, "this machine has no L3 cache allocation (CAT, SDM 20.19.2) to move",
            "protect needs L3 CAT; rdtscope-cli info shows what the machine offers");
    const auto* l3 = caps.resource(a.m_cacheResources.front());
    a.m_fullMask = l3->cbmMask;
    a.m_cacheDomains = l3->domains;
    a.m_limits.ways = static_cast<unsigned>(std::popcount(l3->cbmMask));
    a.m_limits.minBeWays = std::clamp(std::max(minBeWays, l3->minCbmBits), 1u, a.m_limits.ways);
    if (const auto* cl = layout->cache(a.m_cacheResources.front()))
        a.m_limits.bytesPerWay = static_cast<double>(cl->bytesPerBit());
    const auto* mbCaps = caps.resource("MB");
    const auto* mb = layout->bandwidth("MB");
    if (mbCaps && mb && mb->role == api::BandwidthRole::Limit && !mb->higherThrottles) {
        a.m_limits.hasMba = true;
        a.m_mbaDomains = mbCaps->domains;
        a.m_limits.mbaMax = mb->maxValue;
        a.m_limits.mbaMin = std::clamp(std::max(mb->minValue, mbaFloor.value_or(0)), mb->minValue, mb->maxValue);
        a.m_limits.mbaUnit = mb->unit == api::BandwidthUnit::Percent ? "%" : api::bandwidthUnitKey(mb->unit);
        // A policy's step: the hardware's granularity, at least a tenth of the range (a 1 % step moves nothing).
        a.m_limits.mbaStep = std::max(mb->granularity, (mb->maxValue - mb->minValue) / 10);
        if (mb->granularity > 1)
            a.m_limits.mbaStep = (a.m_limits.mbaStep + mb->granularity - 1) / mb->granularity * mb->granularity;
    }
    const auto snap = engine.snapshot();
    if (!snap.result.ok) return snap.result.error();
    a.m_startKnobs.beWays = 0;
    for (const auto& g : groups) {
        const auto it = std::find_if(
            snap.groups.begin(), snap.groups.end(), [&](const engine::GroupState& s) { return s.info.path == g; });
        if (it == snap.groups.end())
            return errnoError(ENOENT, "no group '" + displayGroup(g) + "'", "rdtscope-cli groups lists them");
        if (!it->info.isControl)
            return errnoError(EINVAL, "'" + displayGroup(g) + "' is a monitor group: it has no allocation to move",
                "name its control group");
        if (!it->schemataError.empty())
            return errnoError(EIO, "the schemata of '" + displayGroup(g) + "' cannot be read: " + it->schemataError);
        Schemata start;
        for (const auto& r : a.m_cacheResources)
            for (int d : a.m_cacheDomains)
                if (const auto v = it->schemata.value(r, d)) {
                    start.set(r, d, *v);
                    if (const auto m = parseMask(*v))
                        a.m_startKnobs.beWays
                            = std::max(a.m_startKnobs.beWays, static_cast<unsigned>(std::popcount(*m)));
                }
        if (a.m_limits.hasMba)
            for (int d : a.m_mbaDomains)
                if (const auto v = it->schemata.value("MB", d)) {
                    start.set("MB", d, *v);
                    const unsigned value = static_cast<unsigned>(std::strtoul(v->c_str(), nullptr, 10));
                    a.m_startKnobs.beMba = std::max(a.m_startKnobs.beMba.value_or(0), value);
                }
        a.m_start[g] = std::move(start);
    }
    if (a.m_startKnobs.beWays == 0) a.m_startKnobs.beWays = a.m_limits.ways;
    a.m_startKnobs = a.m_limits.clamp(a.m_startKnobs);
    return a;
}

Schemata BestEffortAllocation::schemataOf(const Knobs& knobs) const
{
    Schemata s;
    const std::string mask = hexMask(lowestWays(m_fullMask, knobs.beWays));
    for (const auto& r : m_cacheResources)
        for (int d : m_cacheDomains)
            s.set(r, d, mask);
    if (m_limits.hasMba && knobs.beMba)
        for (int d : m_mbaDomains)
            s.set("MB", d, std::to_string(*knobs.beMba));
    return s;
}

bool BestEffortAllocation::readsBack(const std::string& group, const Schemata& expected, std::string& why)
{
    const auto snap = m_engine->snapshot();
    if (!snap.result.ok) {
        why = snap.result.toString();
        return false;
    }
    for (const auto& g : snap.groups) {
        if (g.info.path != group || !g.info.isControl) continue;
        for (const auto& line : expected.lines())
            for (const auto& [d, v] : line.values) {
                const auto now = g.schemata.value(line.resource, d);
                // Masks compare as numbers (the kernel may print leading zeros).
                bool same = now && *now == v;
                if (now && !same) {
                    const auto a = parseMask(*now);
                    const auto b = parseMask(v);
                    same = a && b && *a == *b;
                }
                if (!same) {
                    why = displayGroup(group) + " " + line.resource + ":" + std::to_string(d) + " reads back "
                        + now.value_or("nothing") + ", not " + v;
                    return false;
                }
            }
        return true;
    }
    why = "group " + displayGroup(group) + " is gone";
    return false;
}

unsigned BestEffortAllocation::write(const Knobs& knobs, const Knobs& previous, std::string& error)
{
    unsigned writes = 0;
    const Schemata change = schemataOf(knobs);
    std::vector<std::string> done;
    for (const auto& g : m_groups) {
        const auto out = m_engine->applyAllocation(g, change);
        ++writes;
        std::string why;
        if (!out.result.ok || !readsBack(g, change, why)) {
            error = displayGroup(g) + ": " + (out.result.ok ? why : out.result.toString());
            // The engine's transaction restored this group; the groups changed before it go back too.
            const Schemata back = schemataOf(previous);
            for (const auto& w : done) {
                (void)m_engine->applyAllocation(w, back);
                ++writes;
            }
            return writes;
        }
        done.push_back(g);
    }
    error.clear();
    return writes;
}

bool BestEffortAllocation::restoreStart(unsigned& writes, std::vector<std::string>& log)
{
    bool ok = true;
    for (const auto& g : m_groups) {
        const Schemata& start = m_start[g];
        if (start.empty()) continue;
        std::string unused;
        if (readsBack(g, start, unused)) {
            log.push_back(displayGroup(g) + ": " + oneLine(start) + " unchanged, not written");
            continue;
        }
        const auto out = m_engine->applyAllocation(g, start);
        ++writes;
        std::string why;
        const bool back = out.result.ok && readsBack(g, start, why);
        log.push_back(displayGroup(g) + ": restore " + oneLine(start) + " "
            + (back ? "reads back" : "FAILED: " + (out.result.ok ? why : out.result.toString())));
        ok = ok && back;
    }
    return ok;
}

std::vector<std::string> BestEffortAllocation::describeNow()
{
    std::vector<std::string> out;
    const auto snap = m_engine->snapshot();
    for (const auto& g : m_groups)
        for (const auto& s : snap.groups)
            if (s.info.path == g && s.info.isControl) {
                Schemata mine;
                for (const auto& line : s.schemata.lines())
                    if (line.resource.rfind("L3", 0) == 0 || line.resource == "MB")
                        for (const auto& [d, v] : line.values)
                            mine.set(line.resource, d, v);
                out.push_back(displayGroup(g) + ": " + oneLine(mine));
            }
    return out;
}

} // namespace rdt::protect
