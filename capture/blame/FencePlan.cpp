// SPDX-License-Identifier: GPL-3.0-or-later
#include "FencePlan.h"

#include "rdt/GroupNames.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>

namespace rdt::blame {

namespace {

const engine::GroupState* findGroup(const std::vector<engine::GroupState>& groups, const std::string& path)
{
    const auto it = std::find_if(groups.begin(), groups.end(),
        [&](const engine::GroupState& g) { return g.info.path == path && g.info.isControl; });
    return it == groups.end() ? nullptr : &*it;
}

/// `bits` contiguous ways of `valid` that avoid `avoid` where such a run exists, lowest first; else the lowest run.
std::uint64_t fenceMask(std::uint64_t valid, std::uint64_t avoid, unsigned bits)
{
    bits = std::max(bits, 1u);
    const std::uint64_t run = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    std::uint64_t fallback = 0;
    for (unsigned shift = 0; shift + bits <= 64; ++shift) {
        const std::uint64_t m = run << shift;
        if ((m & valid) != m) continue;
        if (!fallback) fallback = m;
        if (!(m & avoid)) return m;
    }
    return fallback;
}

std::string hex(std::uint64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return buf;
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

Result<Fence> planFence(const Capabilities& caps, const std::vector<engine::GroupState>& groups,
    const std::string& group, const std::string& victim, Resource resource)
{
    const auto* g = findGroup(groups, group);
    if (!g) return errnoError(ENOENT, "no control group '" + displayGroup(group) + "' to fence");
    if (!g->schemataError.empty())
        return errnoError(EIO, displayGroup(group) + "'s schemata could not be read: " + g->schemataError);
    const auto* v = findGroup(groups, victim);
    Fence f;
    f.resource = resource;
    if (resource == Resource::Bandwidth) {
        const auto* mb = caps.resource("MB");
        if (!mb || mb->mbpsMode) {
            f.resource = Resource::Cache;
            f.note = mb ? "MB values are MiBps on this mount (mba_MBps): fenced by ways instead"
                        : "no MBA on this machine: fenced by ways instead";
        } else {
            const unsigned lowest = std::max(mb->minBandwidth, std::max(mb->bandwidthGran, 1u));
            for (const int d : mb->domains) {
                const auto now = g->schemata.value("MB", d);
                if (!now) continue;
                f.change.set("MB", d, std::to_string(lowest));
                f.original.set("MB", d, *now);
            }
        }
    }
    if (f.resource == Resource::Cache) {
        std::vector<std::string> names;
        if (caps.resource("L3"))
            names = { "L3" };
        else if (caps.resource("L3CODE") && caps.resource("L3DATA"))
            names = { "L3CODE", "L3DATA" };
        if (names.empty())
            return errnoError(EOPNOTSUPP, "no L3 cache allocation (CAT) on this machine: nothing to fence with");
        for (const auto& r : names) {
            const auto* rc = caps.resource(r);
            for (const int d : rc->domains) {
                const auto now = g->schemata.value(r, d);
                if (!now) continue;
                std::uint64_t avoid = 0;
                if (v)
                    if (const auto vm = v->schemata.value(r, d))
                        if (const auto parsed = parseMask(*vm)) avoid = *parsed;
                f.change.set(r, d, hex(fenceMask(rc->cbmMask, avoid, rc->minCbmBits)));
                f.original.set(r, d, *now);
            }
        }
    }
    if (f.change.empty()) return errnoError(ENOENT, displayGroup(group) + "'s schemata has no line to fence");
    f.text = oneLine(f.change);
    return f;
}

} // namespace rdt::blame
