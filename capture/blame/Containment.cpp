// SPDX-License-Identifier: GPL-3.0-or-later
#include "Containment.h"

#include "rdt/GroupNames.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>

namespace rdt::blame {

namespace {

std::string oneLine(const Schemata& s)
{
    std::string t = s.format();
    while (!t.empty() && t.back() == '\n')
        t.pop_back();
    std::replace(t.begin(), t.end(), '\n', ' ');
    return t;
}

/// The lowest `ways` contiguous bits of `valid`.
std::uint64_t lowRun(std::uint64_t valid, unsigned ways)
{
    std::uint64_t m = 0;
    for (unsigned bit = 0, taken = 0; bit < 64 && taken < ways; ++bit)
        if (valid & (1ull << bit)) {
            m |= 1ull << bit;
            ++taken;
        }
    return m;
}

} // namespace

unsigned waysForBytes(double bytes, std::uint64_t bytesPerWay)
{
    if (bytesPerWay == 0) return 0;
    return static_cast<unsigned>(std::ceil(std::max(bytes, 0.0) / static_cast<double>(bytesPerWay))) + 1;
}

Result<std::pair<unsigned, std::string>> bandwidthCap(const api::BandwidthLayout& mb, double culpritBps, double effect)
{
    const double keep = std::clamp(1.0 - effect, 0.0, 1.0);
    const double lowest = std::max<double>(mb.minValue, 1);
    double v = 0;
    std::string unit;
    switch (mb.unit) {
    case api::BandwidthUnit::Percent: {
        // Percent of peak: the throttle withholds the effect's share; at the hardware's steps (bandwidth_gran).
        const double gran = std::max<double>(mb.granularity, 1);
        v = std::floor(100.0 * keep / gran) * gran;
        v = std::max(v, std::max(lowest, gran));
        unit = "%";
        break;
    }
    case api::BandwidthUnit::EighthGBps:
        // AMD: absolute bandwidth in 1/8 GB/s (resctrl.rst "on AMD systems").
        v = std::max(std::floor(culpritBps * keep / 125e6), lowest);
        unit = "/8 GB/s";
        break;
    case api::BandwidthUnit::MiBps:
        // mba_MBps: a MiB/s target per domain (resctrl.rst "Memory bandwidth Allocation specified in MiBps").
        v = std::max(std::floor(culpritBps * keep / 1048576.0), lowest);
        unit = " MiBps";
        break;
    default:
        return errnoError(EOPNOTSUPP,
            "the MB values of " + mb.resource + " are not a bandwidth cap (" + bandwidthUnitKey(mb.unit)
                + "): the bandwidth culprit is contained by ways only");
    }
    v = std::min(v, static_cast<double>(mb.maxValue));
    const auto value = static_cast<unsigned>(v);
    char buf[200];
    std::snprintf(buf, sizeof buf, "MB capped at %u%s (its %.0f MB/s less the %.0f %% its effect says harms)", value,
        unit.c_str(), culpritBps / 1e6, (1 - keep) * 100);
    return std::pair { value, std::string(buf) };
}

Result<Containment> planContainment(const Capabilities& caps, const api::AllocationLayout& layout,
    const std::vector<engine::GroupState>& groups, const std::string& culprit, Resource resource,
    const ContainmentNeed& need)
{
    const auto g = std::find_if(groups.begin(), groups.end(),
        [&](const engine::GroupState& x) { return x.info.path == culprit && x.info.isControl; });
    if (g == groups.end()) return errnoError(ENOENT, "no control group '" + displayGroup(culprit) + "' to contain");
    Containment c;
    c.group = culprit;
    c.resource = resource;
    c.waysText = need.waysText;
    std::vector<std::string> names;
    if (caps.resource("L3"))
        names = { "L3" };
    else if (caps.resource("L3CODE") && caps.resource("L3DATA"))
        names = { "L3CODE", "L3DATA" };
    for (const auto& r : names) {
        const auto* rc = caps.resource(r);
        const unsigned victimWays = std::max(need.victimWays, 1u);
        const unsigned culpritWays
            = rc->cbmBits > victimWays ? std::max(rc->cbmBits - victimWays, rc->minCbmBits) : rc->minCbmBits;
        c.victimWays = rc->cbmBits - std::min(culpritWays, rc->cbmBits);
        char mask[24];
        std::snprintf(mask, sizeof mask, "%llx", static_cast<unsigned long long>(lowRun(rc->cbmMask, culpritWays)));
        for (const int d : rc->domains)
            if (const auto now = g->schemata.value(r, d)) {
                c.change.set(r, d, mask);
                c.undo.set(r, d, *now);
            }
    }
    if (resource == Resource::Bandwidth) {
        const auto* mb = layout.bandwidth("MB");
        if (!mb) {
            c.bandwidthText = "no MBA on this machine: the bandwidth culprit is contained by ways only";
        } else if (auto cap = bandwidthCap(*mb, need.culpritBps, need.effect); !cap) {
            c.bandwidthText = cap.error().message;
        } else {
            c.bandwidthText = cap->second;
            for (const int d : mb->domains)
                if (const auto now = g->schemata.value("MB", d)) {
                    c.change.set("MB", d, std::to_string(cap->first));
                    c.undo.set("MB", d, *now);
                }
        }
    }
    if (c.change.empty())
        return errnoError(EOPNOTSUPP, "no L3 CAT or MBA line of " + displayGroup(culprit) + " to change");
    c.text = oneLine(c.change);
    c.undoText = oneLine(c.undo);
    return c;
}

engine::CommandResult undoContainment(engine::Engine& engine, const Containment& c)
{
    const auto out = engine.applyAllocation(c.group, c.undo);
    if (!out.result.ok) return out.result;
    for (const auto& g : engine.snapshot().groups) {
        if (g.info.path != c.group || !g.info.isControl) continue;
        for (const auto& line : c.undo.lines())
            for (const auto& [d, v] : line.values)
                if (g.schemata.value(line.resource, d) != v)
                    return engine::CommandResult::failure(errnoError(EIO,
                        displayGroup(c.group) + " " + line.resource + ":" + std::to_string(d) + " reads back "
                            + g.schemata.value(line.resource, d).value_or("nothing") + ", not " + v));
    }
    return engine::CommandResult::success();
}

} // namespace rdt::blame
