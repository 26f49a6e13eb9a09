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

Result<Containment> planContainment(const Capabilities& caps, const std::vector<engine::GroupState>& groups,
    const std::string& culprit, Resource resource, double victimNeedBytes)
{
    const auto g = std::find_if(groups.begin(), groups.end(),
        [&](const engine::GroupState& x) { return x.info.path == culprit && x.info.isControl; });
    if (g == groups.end()) return errnoError(ENOENT, "no control group '" + displayGroup(culprit) + "' to contain");
    Containment c;
    c.group = culprit;
    c.resource = resource;
    std::vector<std::string> names;
    if (caps.resource("L3"))
        names = { "L3" };
    else if (caps.resource("L3CODE") && caps.resource("L3DATA"))
        names = { "L3CODE", "L3DATA" };
    for (const auto& r : names) {
        const auto* rc = caps.resource(r);
        if (!rc->bytesPerBit)
            return errnoError(
                EOPNOTSUPP, "the way size of " + r + " is unknown: the victim's need cannot be put in ways");
        const unsigned need
            = static_cast<unsigned>(std::ceil(victimNeedBytes / static_cast<double>(rc->bytesPerBit))) + 1;
        const unsigned culpritWays = rc->cbmBits > need ? std::max(rc->cbmBits - need, rc->minCbmBits) : rc->minCbmBits;
        c.victimWays = rc->cbmBits - std::min(culpritWays, rc->cbmBits);
        char mask[24];
        std::snprintf(mask, sizeof mask, "%llx", static_cast<unsigned long long>(lowRun(rc->cbmMask, culpritWays)));
        for (const int d : rc->domains)
            if (const auto now = g->schemata.value(r, d)) {
                c.change.set(r, d, mask);
                c.undo.set(r, d, *now);
            }
    }
    if (resource == Resource::Bandwidth)
        if (const auto* mb = caps.resource("MB"); mb && !mb->mbpsMode) {
            const unsigned lowest = std::max(mb->minBandwidth, std::max(mb->bandwidthGran, 1u));
            for (const int d : mb->domains)
                if (const auto now = g->schemata.value("MB", d)) {
                    c.change.set("MB", d, std::to_string(lowest));
                    c.undo.set("MB", d, *now);
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
