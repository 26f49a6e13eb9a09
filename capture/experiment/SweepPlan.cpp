// SPDX-License-Identifier: GPL-3.0-or-later
#include "SweepPlan.h"

#include "rdt/AllocationRules.h"

#include <algorithm>
#include <bit>
#include <cerrno>

namespace rdt::experiment {

namespace {

/// A curve needs three points to have a shape; fewer would make a knee of noise.
constexpr std::size_t kMinSteps = 3;

const engine::GroupState* findGroup(const std::vector<engine::GroupState>& groups, const std::string& path)
{
    for (const auto& g : groups)
        if (g.info.path == path) return &g;
    return nullptr;
}

std::string shown(const std::string& path)
{
    return path.empty() ? "the default group" : path;
}

Result<const engine::GroupState*> controlGroup(const std::vector<engine::GroupState>& groups, const std::string& path)
{
    const auto* g = findGroup(groups, path);
    // EINVAL, not ENOENT: a name the user typed wrong is bad input, not a missing interface.
    if (!g) return errnoError(EINVAL, "no group " + shown(path), "list them with `rdtscope-cli groups list`");
    if (!g->info.isControl)
        return errnoError(EINVAL, shown(path) + " is a monitor group: it has no allocation of its own",
            "sweep its parent control group " + shown(g->info.parent));
    if (!g->schemataError.empty())
        return errnoError(EIO, "cannot read the schemata of " + shown(path) + ": " + g->schemataError);
    return g;
}

Result<SweepPlan> planWays(
    const Capabilities& caps, const std::vector<engine::GroupState>& groups, const SweepSettings& s)
{
    const auto resources = wayResources(caps);
    if (resources.empty())
        return errnoError(EOPNOTSUPP, "no L3 cache allocation (CAT) on this machine", "a way sweep needs L3 CAT");
    const ResourceCaps& rc = *caps.resource(resources.front());
    auto self = controlGroup(groups, s.group);
    if (!self) return self.error();
    SweepPlan plan;
    plan.resourceText = resources.size() == 1 ? resources[0] : resources[0] + "+" + resources[1];
    const unsigned minBits = std::max(1u, rc.minCbmBits);
    const bool fromFull = s.fromFull || !s.isolate.empty();
    std::uint64_t start = rc.cbmMask;
    if (!fromFull) {
        const auto text = (*self)->schemata.value(resources.front(), rc.domains.empty() ? 0 : rc.domains.front());
        auto mask = text ? parseMask(*text) : Result<std::uint64_t>(makeError("no " + resources.front() + " line"));
        if (!mask) return errnoError(EIO, shown(s.group) + ": " + mask.error().message);
        if (!isContiguous(*mask))
            return errnoError(EINVAL, shown(s.group) + "'s mask " + hexDigits(*mask) + " is not one run of ways",
                "sweep from the full mask (--from-full)");
        start = *mask;
    }
    const unsigned isolated = static_cast<unsigned>(s.isolate.size());
    const unsigned startBits = static_cast<unsigned>(std::popcount(start));
    const unsigned maxBits
        = isolated ? std::min(startBits, rc.cbmBits - std::min(rc.cbmBits, isolated * minBits)) : startBits;
    const std::size_t count = maxBits >= minBits ? maxBits - minBits + 1 : 0;
    if (count < kMinSteps) {
        std::string why = shown(s.group) + "'s mask " + hexDigits(start) + " has " + std::to_string(startBits)
            + " way(s) and min_cbm_bits is " + std::to_string(minBits);
        if (isolated)
            why += ", and " + std::to_string(isolated) + " isolated group(s) need " + std::to_string(minBits) + " each";
        return errnoError(EINVAL,
            why + ": a sweep down to the minimum would have " + std::to_string(count)
                + " step(s), a curve needs at least " + std::to_string(kMinSteps),
            fromFull ? "this cache has too few ways for a curve" : "sweep from the full mask (--from-full)");
    }
    // Shrink towards the end of the run with fewer shareable bits (ways I/O also fills, SDM 20.19.4.2), so the
    // smallest steps measure the group's own ways.
    const std::uint64_t smallHigh = wayRun(start, minBits, true), smallLow = wayRun(start, minBits, false);
    const bool highEnd = std::popcount(smallHigh & rc.shareableBits) <= std::popcount(smallLow & rc.shareableBits);
    if (rc.shareableBits)
        plan.notes.push_back("shareable bits " + hexDigits(rc.shareableBits) + ": the masks shrink towards the "
            + (highEnd ? "high" : "low") + " ways, away from them where possible");
    if (rc.sparseMasks) plan.notes.push_back("sparse masks are allowed here; the sweep uses contiguous ones");

    std::vector<std::string> touched { s.group };
    for (const auto& g : s.isolate) {
        auto other = controlGroup(groups, g);
        if (!other) return other.error();
        if (g == s.group) return errnoError(EINVAL, "the swept group cannot isolate itself");
        touched.push_back(g);
    }
    for (const auto& g : touched) {
        GroupWrite original { g, {} };
        const auto& sch = findGroup(groups, g)->schemata;
        for (const auto& r : resources)
            if (const auto* line = sch.line(r))
                for (const auto& [d, v] : line->values)
                    original.change.set(r, d, v);
        plan.original.push_back(std::move(original));
    }
    for (unsigned ways = maxBits; ways + 1 > minBits; --ways) {
        PlannedStep step;
        step.value = ways;
        const std::uint64_t mask = wayRun(start, ways, highEnd);
        const std::uint64_t rest = rc.cbmMask & ~mask;
        step.writes.push_back({ s.group, {} });
        for (const auto& g : s.isolate)
            step.writes.push_back({ g, {} });
        for (const auto& r : resources)
            for (const int d : caps.resource(r)->domains) {
                step.writes[0].change.set(r, d, hexDigits(mask));
                for (std::size_t i = 1; i < step.writes.size(); ++i)
                    step.writes[i].change.set(r, d, hexDigits(rest));
            }
        if (auto ok = checkWrites(caps, groups, step.writes); !ok)
            return Error { ok.error().code,
                "step " + std::to_string(plan.steps.size() + 1) + " (" + std::to_string(ways)
                    + " ways) would be refused: " + ok.error().message,
                ok.error().advice };
        plan.steps.push_back(std::move(step));
    }
    return plan;
}

Result<SweepPlan> planBandwidth(
    const Capabilities& caps, const std::vector<engine::GroupState>& groups, const SweepSettings& s)
{
    const ResourceCaps* rc = caps.resource("MB");
    if (!rc) return errnoError(EOPNOTSUPP, "no memory bandwidth allocation (MBA) on this machine");
    if (rc->mbpsMode)
        return errnoError(EOPNOTSUPP, "resctrl is mounted with mba_MBps: MB values are MiBps, not throttle levels",
            "remount without -o mba_MBps to sweep the throttle percentage");
    auto self = controlGroup(groups, s.group);
    if (!self) return self.error();
    if (!s.victim.empty() && !findGroup(groups, s.victim))
        return errnoError(EINVAL, "no victim group " + s.victim, "list them with `rdtscope-cli groups list`");
    SweepPlan plan;
    plan.resourceText = "MB";
    const unsigned gran = std::max(1u, rc->bandwidthGran);
    const unsigned lowest = std::max(rc->minBandwidth, gran);
    GroupWrite original { s.group, {} };
    if (const auto* line = (*self)->schemata.line("MB"))
        for (const auto& [d, v] : line->values)
            original.change.set("MB", d, v);
    plan.original.push_back(std::move(original));
    for (unsigned v = rc->maxBandwidth; v >= lowest; v -= std::min(v, gran)) {
        PlannedStep step;
        step.value = v;
        step.writes.push_back({ s.group, {} });
        for (const int d : rc->domains)
            step.writes[0].change.set("MB", d, std::to_string(v));
        if (auto ok = checkWrites(caps, groups, step.writes); !ok)
            return Error { ok.error().code, "MB " + std::to_string(v) + " would be refused: " + ok.error().message,
                ok.error().advice };
        plan.steps.push_back(std::move(step));
    }
    if (plan.steps.size() < kMinSteps)
        return errnoError(EINVAL,
            "MB from " + std::to_string(rc->maxBandwidth) + " down to " + std::to_string(lowest) + " in steps of "
                + std::to_string(gran) + " is " + std::to_string(plan.steps.size())
                + " step(s); a curve needs at least " + std::to_string(kMinSteps));
    if (!rc->delayLinear)
        plan.notes.push_back("MBA delays are not linear here: the steps are not evenly spaced in effect");
    return plan;
}

} // namespace

Result<SweepPlan> planSweep(
    const Capabilities& caps, const std::vector<engine::GroupState>& groups, const SweepSettings& settings)
{
    return settings.kind == SweepKind::Ways ? planWays(caps, groups, settings) : planBandwidth(caps, groups, settings);
}

std::vector<std::string> wayResources(const Capabilities& caps)
{
    if (caps.resource("L3")) return { "L3" };
    if (caps.resource("L3CODE") && caps.resource("L3DATA")) return { "L3CODE", "L3DATA" };
    return {};
}

std::uint64_t wayRun(std::uint64_t within, unsigned ways, bool highEnd)
{
    if (within == 0 || ways == 0) return 0;
    const unsigned low = static_cast<unsigned>(std::countr_zero(within));
    const unsigned high = 63u - static_cast<unsigned>(std::countl_zero(within));
    const std::uint64_t run = ways >= 64 ? ~0ull : (1ull << ways) - 1;
    return highEnd ? (run << (high + 1 - std::min(ways, high + 1))) & within : (run << low) & within;
}

Status checkWrites(
    const Capabilities& caps, const std::vector<engine::GroupState>& groups, const std::vector<GroupWrite>& writes)
{
    // The state after every write of the step: each group's schemata with its change applied.
    std::vector<PeerGroup> after;
    for (const auto& g : groups) {
        if (!g.info.isControl) continue;
        PeerGroup p { g.info.path, g.info.mode == "exclusive", g.schemata };
        for (const auto& w : writes)
            if (w.group == g.info.path)
                for (const auto& line : w.change.lines())
                    for (const auto& [d, v] : line.values)
                        p.schemata.set(line.resource, d, v);
        after.push_back(std::move(p));
    }
    for (const auto& w : writes) {
        std::vector<PeerGroup> peers;
        bool exclusive = false;
        for (const auto& p : after) {
            if (p.path == w.group)
                exclusive = p.exclusive;
            else
                peers.push_back(p);
        }
        const auto verdict = validateAllocation(caps, w.group, exclusive, peers, w.change);
        if (!verdict.ok) {
            Error e = verdict.problem.toError();
            e.message = shown(w.group) + ": " + e.message;
            return e;
        }
    }
    return {};
}

} // namespace rdt::experiment
