// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationRules.h"
#include "rdt/GroupNames.h"

#include "core/Text.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <climits>

namespace rdt {

namespace {
AllocationProblem problem(const std::string& resource, int domain, std::string reason, std::string advice)
{
    return { resource, domain, std::move(reason), std::move(advice) };
}

template <typename T> std::string joined(const std::vector<T>& items, const char* sep, auto&& text)
{
    std::string s;
    for (const auto& x : items)
        s += (s.empty() ? "" : sep) + text(x);
    return s;
}
}

std::string AllocationProblem::where() const
{
    if (resource.empty()) return {};
    return domain < 0 ? resource : resource + ":" + std::to_string(domain);
}

Error AllocationProblem::toError() const
{
    const auto w = where();
    return errnoError(EINVAL, w.empty() ? reason : w + ": " + reason, advice);
}

std::string cdpPeer(const std::string& r)
{
    if (r.size() > 4 && (r.ends_with("CODE") || r.ends_with("DATA")))
        return r.substr(0, r.size() - 4) + (r.ends_with("CODE") ? "DATA" : "CODE");
    return {};
}

bool isContiguous(std::uint64_t m)
{
    if (m == 0) return true;
    const auto shifted = m >> std::countr_zero(m);
    return (shifted & (shifted + 1)) == 0;
}

std::optional<AllocationProblem> checkCacheMask(
    const ResourceCaps& r, int domain, std::uint64_t mask, bool selfExclusive, const std::vector<PeerMask>& peers)
{
    const auto& n = r.name;
    // cbm_validate: a zero mask (when min_cbm_bits > 0) and bits beyond cbm_mask are both "Mask out of range".
    if (mask == 0 && r.minCbmBits > 0)
        return problem(n, domain, "Mask out of range",
            "a mask needs at least " + std::to_string(r.minCbmBits) + " bit(s) (info/" + n + "/min_cbm_bits)");
    if ((mask & ~r.cbmMask) != 0)
        return problem(n, domain, "Mask out of range",
            hexDigits(mask) + " sets bits outside " + hexDigits(r.cbmMask) + " (info/" + n + "/cbm_mask)");
    if (!r.sparseMasks && !isContiguous(mask))
        return problem(n, domain, "The mask " + hexDigits(mask) + " has non-consecutive 1-bits",
            "this CPU needs contiguous masks (sparse_masks=0, SDM 20.19.4.2)");
    if (static_cast<unsigned>(std::popcount(mask)) < r.minCbmBits)
        return problem(n, domain, "Need at least " + std::to_string(r.minCbmBits) + " bits in the mask",
            "info/" + n + "/min_cbm_bits is " + std::to_string(r.minCbmBits));
    // rdtgroup_cbm_overlaps(exclusive=false) counts shareable_bits as used: an exclusive group may not hold them.
    if (selfExclusive && (mask & r.shareableBits) != 0)
        return problem(n, domain, "Overlaps with hardware-shared bits " + hexDigits(r.shareableBits),
            "an exclusive group may not use shareable_bits; drop those bits or make the group shareable");
    for (const auto& p : peers) {
        if ((p.mask & mask) == 0) continue;
        const std::string name = displayGroup(p.group);
        const std::string held = " (" + p.resource + " " + hexDigits(p.mask) + ")";
        if (p.exclusive)
            return problem(n, domain, "Overlaps with exclusive group '" + name + "'" + held,
                "pick bits outside " + hexDigits(p.mask) + " or make '" + name + "' shareable");
        if (selfExclusive)
            return problem(n, domain, "Overlaps with other group '" + name + "'" + held,
                "an exclusive group may not share bits with any other group");
    }
    return std::nullopt;
}

BandwidthVerdict checkBandwidth(const ResourceCaps& r, int domain, std::uint64_t v)
{
    BandwidthVerdict out;
    if (r.mbpsMode) {
        // mba_MBps: the value is a MiBps target the kernel's feedback loop keeps; any u32 is accepted.
        if (v > UINT32_MAX) out.problem = problem(r.name, domain, "MB value out of range (MiBps, 32 bits)", "");
        out.value = v;
        return out;
    }
    if (v < r.minBandwidth || v > r.maxBandwidth) {
        out.problem = problem(r.name, domain,
            r.name + " value " + std::to_string(v) + " out of range [" + std::to_string(r.minBandwidth) + ","
                + std::to_string(r.maxBandwidth) + "]",
            "info/" + r.name + "/min_bandwidth is " + std::to_string(r.minBandwidth) + " and the most is "
                + std::to_string(r.maxBandwidth));
        return out;
    }
    out.value = v;
    // bw_validate rounds up to the granularity after the range check: roundup(bw, bw_gran).
    if (r.bandwidthGran > 1 && v % r.bandwidthGran != 0) {
        out.value = (v + r.bandwidthGran - 1) / r.bandwidthGran * r.bandwidthGran;
        out.note = r.name + ":" + std::to_string(domain) + " " + std::to_string(v) + " rounded up to "
            + std::to_string(out.value) + " (bandwidth_gran " + std::to_string(r.bandwidthGran) + ")";
    }
    return out;
}

ReservationUse reservationUse(std::uint64_t budget, std::uint64_t reserved)
{
    return { budget, reserved, budget > reserved ? budget - reserved : 0 };
}

std::optional<AllocationProblem> checkReservation(
    const ResourceCaps& r, int domain, std::uint64_t requested, std::uint64_t held)
{
    if (r.budget == 0 || held + requested <= r.budget) return std::nullopt;
    const std::uint64_t room = reservationUse(r.budget, held).room;
    return problem(r.name, domain,
        std::to_string(requested) + " blocks is over the budget of " + std::to_string(r.budget) + " blocks ("
            + r.budgetSource + "): the other groups reserve " + std::to_string(held) + ", so at most "
            + std::to_string(room) + " fit",
        "lower another group's " + r.name
            + " first (a new group starts with the least, the default group holds the "
              "rest); the kernel refuses a sum over the budget with EINVAL");
}

std::optional<AllocationProblem> checkRegionTriples(
    const Capabilities& caps, const Schemata& merged, const Schemata& touched)
{
    using api::BandwidthRole;
    for (const auto& r : caps.resources) {
        if (r.role != BandwidthRole::RegionMin) continue;
        const auto optName = api::regionControlName(r.region, BandwidthRole::RegionOpt);
        const auto maxName = api::regionControlName(r.region, BandwidthRole::RegionMax);
        std::vector<int> domains;
        for (const auto& name : { r.name, optName, maxName })
            if (const auto* l = touched.line(name))
                for (const auto& [d, v] : l->values)
                    if (std::find(domains.begin(), domains.end(), d) == domains.end()) domains.push_back(d);
        for (int d : domains) {
            auto valueOf = [&](const std::string& name) -> std::optional<std::uint64_t> {
                const auto v = merged.value(name, d);
                if (!v) return std::nullopt;
                auto b = parseBandwidth(*v);
                return b ? std::optional<std::uint64_t>(*b) : std::nullopt;
            };
            const auto lo = valueOf(r.name), opt = valueOf(optName), hi = valueOf(maxName);
            const std::string triple = "region " + std::to_string(r.region) + " would be min "
                + (lo ? std::to_string(*lo) : "?") + ", opt " + (opt ? std::to_string(*opt) : "?") + ", max "
                + (hi ? std::to_string(*hi) : "?");
            auto bad = [&](const std::string& name) {
                return problem(name, d, triple + ": the bounds must keep min <= opt <= max",
                    "change " + r.name + ", " + optName + " and " + maxName + " together so that min <= opt <= max");
            };
            if (lo && opt && *lo > *opt) return bad(r.name);
            if (opt && hi && *opt > *hi) return bad(optName);
            if (lo && hi && *lo > *hi) return bad(r.name);
        }
    }
    return std::nullopt;
}

namespace {
/// What every peer reserves in `domain` of `resource` (MB_MIN blocks).
std::uint64_t heldByPeers(const std::vector<PeerGroup>& peers, const std::string& resource, int domain)
{
    std::uint64_t held = 0;
    for (const auto& g : peers)
        if (const auto v = g.schemata.value(resource, domain))
            if (auto b = parseBandwidth(*v)) held += *b;
    return held;
}

/// The masks every peer holds in `domain` for `resource` and for its CDP partner.
std::vector<PeerMask> peerMasks(const std::vector<PeerGroup>& peers, const std::string& resource, int domain)
{
    std::vector<PeerMask> out;
    for (const auto& g : peers) {
        for (const auto& res : { resource, cdpPeer(resource) }) {
            if (res.empty()) continue;
            const auto v = g.schemata.value(res, domain);
            if (!v) continue;
            if (auto m = parseMask(*v)) out.push_back({ g.path, res, *m, g.exclusive });
        }
    }
    return out;
}

std::optional<AllocationProblem> checkLine(const Capabilities& caps, const ResourceCaps*& r, const SchemataLine& line)
{
    r = caps.resource(line.resource);
    if (!r)
        return problem({}, -1, "Unknown or unsupported resource name '" + line.resource + "'",
            "this machine has: "
                + (caps.resources.empty() ? std::string("no allocation resources")
                                          : joined(caps.resources, ", ", [](const auto& x) { return x.name; })));
    if (r->domains.empty())
        return problem(r->name, -1, "no known domains",
            "the root group's schemata has no " + r->name + " line, so no domain id can be checked");
    for (const auto& [domain, text] : line.values) {
        if (std::find(r->domains.begin(), r->domains.end(), domain) == r->domains.end())
            return problem({}, -1, "Unknown domain " + r->name + ":" + std::to_string(domain),
                "domain ids of " + r->name
                    + " are cache ids: " + joined(r->domains, ",", [](int d) { return std::to_string(d); }));
    }
    return std::nullopt;
}
}

AllocationVerdict validateAllocation(const Capabilities& caps, const std::string& group, bool groupExclusive,
    const std::vector<PeerGroup>& peers, const Schemata& change, const Schemata* current)
{
    AllocationVerdict out;
    auto fail = [&](AllocationProblem p) {
        out.problem = std::move(p);
        out.normalised = {};
        out.notes.clear();
        return out;
    };
    if (group.find("mon_groups/") != std::string::npos)
        return fail(problem({}, -1, "'" + group + "' is a monitor group: it has no allocation of its own",
            "change its parent control group"));
    if (change.empty()) return fail(problem({}, -1, "nothing to change", "give a line such as L3:0=ff0"));
    for (const auto& line : change.lines()) {
        const ResourceCaps* r = nullptr;
        if (auto p = checkLine(caps, r, line)) return fail(std::move(*p));
        for (const auto& [domain, text] : line.values) {
            if (r->isCache()) {
                auto m = parseMask(text);
                if (!m) return fail(problem(r->name, domain, m.error().message, m.error().advice));
                if (auto p = checkCacheMask(*r, domain, *m, groupExclusive, peerMasks(peers, r->name, domain)))
                    return fail(std::move(*p));
                out.normalised.set(r->name, domain, hexDigits(*m));
            } else {
                auto b = parseBandwidth(text);
                if (!b) return fail(problem(r->name, domain, b.error().message, b.error().advice));
                auto verdict = checkBandwidth(*r, domain, *b);
                if (verdict.problem) return fail(std::move(*verdict.problem));
                if (r->role == api::BandwidthRole::Reserved)
                    if (auto p = checkReservation(*r, domain, verdict.value, heldByPeers(peers, r->name, domain)))
                        return fail(std::move(*p));
                if (!verdict.note.empty()) out.notes.push_back(verdict.note);
                out.normalised.set(r->name, domain, std::to_string(verdict.value));
            }
        }
    }
    Schemata merged = current ? *current : Schemata {};
    for (const auto& line : out.normalised.lines())
        for (const auto& [d, v] : line.values)
            merged.set(line.resource, d, v);
    if (auto p = checkRegionTriples(caps, merged, out.normalised)) return fail(std::move(*p));
    out.ok = true;
    return out;
}

} // namespace rdt
