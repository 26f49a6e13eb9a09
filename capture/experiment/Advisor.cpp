// SPDX-License-Identifier: GPL-3.0-or-later
#include "Advisor.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>

namespace rdt::experiment {

namespace {

/// The curve's value at `ways`: the measured step, or the nearest one when that step is missing.
const SweepStep* stepAt(const GroupCurve& c, unsigned ways)
{
    const SweepStep* best = nullptr;
    for (const auto& s : c.steps) {
        if (!s.disturbed.empty()) continue;
        const auto d = [ways](const SweepStep& x) { return std::llabs(static_cast<long long>(x.value) - ways); };
        if (!best || d(s) < d(*best)) best = &s;
    }
    return best;
}

/// Misses (memory traffic, times the group's weight) from `from` to `to` ways, with utility below the noise
/// tolerance removed: a flat curve is constant, and a curve past its knee stays at its best.
std::vector<double> missCurve(const GroupCurve& c, unsigned from, unsigned to, double weight, double tolerance)
{
    std::vector<double> y;
    for (unsigned w = from; w <= to; ++w) {
        const auto* s = stepAt(c, w);
        y.push_back(s ? s->totalBps * weight : 0.0);
    }
    if (y.empty()) return y;
    const auto [lo, hi] = std::minmax_element(y.begin(), y.end());
    const double best = *lo, range = *hi - *lo;
    if (range <= tolerance * std::max(std::fabs(*hi), std::fabs(*lo))) return std::vector<double>(y.size(), best);
    for (auto& v : y)
        if (v - best <= tolerance * range) v = best;
    // Misses never rise with more ways in this model: later noise must not read as negative utility.
    for (std::size_t k = 1; k < y.size(); ++k)
        y[k] = std::min(y[k], y[k - 1]);
    return y;
}

} // namespace

const char* objectiveName(Objective o)
{
    switch (o) {
    case Objective::Misses:
        return "misses";
    case Objective::Weighted:
        return "weighted";
    case Objective::Protect:
        return "protect";
    }
    return "?";
}

Result<Objective> parseObjective(const std::string& text)
{
    for (const auto o : { Objective::Misses, Objective::Weighted, Objective::Protect })
        if (text == objectiveName(o)) return o;
    return errnoError(EINVAL, "unknown objective '" + text + "'", "use misses, weighted or protect");
}

Status checkObjective(const AdviceSettings& settings, const std::vector<std::string>& groups)
{
    const auto named = [&](const std::string& g) { return std::find(groups.begin(), groups.end(), g) != groups.end(); };
    const auto shown = [](const std::string& g) { return displayGroup(g); };
    if (settings.objective == Objective::Protect && !named(settings.protect))
        return errnoError(EINVAL, "the protected group '" + shown(settings.protect) + "' is not one of the groups",
            "name one of the groups advised on");
    if (settings.objective == Objective::Weighted)
        for (const auto& [g, w] : settings.weights)
            if (!named(g))
                return errnoError(EINVAL, "a weight is given for '" + shown(g) + "', which is not one of the groups",
                    "weight only the groups advised on (the others weigh 1)");
    return {};
}

std::vector<GroupWrite> Advice::writes() const
{
    std::vector<GroupWrite> out;
    for (const auto& g : groups)
        out.push_back({ g.group, g.change });
    return out;
}

std::vector<unsigned> lookahead(const std::vector<std::vector<double>>& misses, const std::vector<unsigned>& minWays,
    unsigned totalWays, std::vector<std::string>* notes)
{
    const std::size_t n = misses.size();
    std::vector<unsigned> alloc(minWays);
    unsigned used = 0;
    for (const auto m : alloc)
        used += m;
    unsigned balance = totalWays > used ? totalWays - used : 0;
    // Qureshi & Patt's get_max_mu: for each application the largest utility per way over every possible further
    // allocation (not only the next way, so a curve that gains only after several ways is not starved), then the
    // best of those wins its ways.
    while (balance > 0) {
        double bestMu = 0;
        std::size_t bestI = n;
        unsigned bestK = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned cur = alloc[i] - minWays[i];
            for (unsigned k = 1; k <= balance && cur + k < misses[i].size(); ++k) {
                const double mu = (misses[i][cur] - misses[i][cur + k]) / k;
                if (mu > bestMu) {
                    bestMu = mu;
                    bestI = i;
                    bestK = k;
                }
            }
        }
        if (bestI == n) break;
        alloc[bestI] += bestK;
        balance -= bestK;
    }
    if (balance > 0 && n > 0) {
        // Ways nobody gains from measurably: to the group with the most to lose (the largest total utility), as far
        // as its curve goes, then the next.
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i)
            order[i] = i;
        auto gain = [&](std::size_t i) { return misses[i].empty() ? 0.0 : misses[i].front() - misses[i].back(); };
        std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return gain(a) > gain(b); });
        for (const auto i : order) {
            const unsigned room = static_cast<unsigned>(misses[i].size()) - 1 - (alloc[i] - minWays[i]);
            const unsigned add = std::min(room, balance);
            alloc[i] += add;
            balance -= add;
            if (add && notes)
                notes->push_back(std::to_string(add)
                    + " way(s) that no group measurably gains from went to the most "
                      "cache-sensitive group");
        }
    }
    return alloc;
}

Result<Advice> proposeAllocation(const Capabilities& caps, const std::vector<engine::GroupState>& groups,
    const std::vector<GroupCurve>& curves, const AdviceSettings& settings)
{
    const auto resources = wayResources(caps);
    if (resources.empty()) return errnoError(EOPNOTSUPP, "no L3 cache allocation (CAT) on this machine");
    const ResourceCaps& rc = *caps.resource(resources.front());
    const unsigned n = static_cast<unsigned>(curves.size());
    const unsigned minBits = std::max(1u, rc.minCbmBits);
    if (n == 0) return errnoError(EINVAL, "no groups to advise on");
    if (caps.maxControlGroups && n > caps.maxControlGroups)
        return errnoError(EINVAL,
            std::to_string(n) + " groups but the hardware has " + std::to_string(caps.maxControlGroups) + " CLOS");
    if (n * minBits > rc.cbmBits)
        return errnoError(EINVAL,
            std::to_string(n) + " groups of at least " + std::to_string(minBits)
                + " way(s) (min_cbm_bits) do not fit in " + std::to_string(rc.cbmBits) + " ways",
            "advise on fewer groups");
    Advice advice;
    std::vector<unsigned> minWays(n, minBits);
    const unsigned maxWays = rc.cbmBits - (n - 1) * minBits;
    std::vector<std::vector<double>> misses;
    for (unsigned i = 0; i < n; ++i) {
        const auto& c = curves[i];
        if (!stepAt(c, minBits)) return errnoError(EINVAL, "no measured curve for " + c.group);
        double weight = 1;
        if (settings.objective == Objective::Weighted) {
            const auto it = settings.weights.find(c.group);
            weight = it == settings.weights.end() ? 1.0 : it->second;
        }
        if (settings.objective == Objective::Protect && c.group == settings.protect) {
            // Its knee first (bounded by what the others' minimum leaves), before anyone else is served.
            minWays[i] = std::clamp(static_cast<unsigned>(std::lround(c.knee.x)), minBits, maxWays);
            advice.notes.push_back(displayGroup(c.group) + " is protected: it gets its knee, "
                + std::to_string(minWays[i]) + " ways, first");
        }
        misses.push_back(missCurve(c, minWays[i], maxWays, weight, settings.tolerance));
    }
    std::vector<std::string> names;
    for (const auto& c : curves)
        names.push_back(c.group);
    if (auto ok = checkObjective(settings, names); !ok) return ok.error();
    const auto ways = lookahead(misses, minWays, rc.cbmBits, &advice.notes);

    // Layout: contiguous runs side by side, the most cache-sensitive group at the end without shareable bits (ways
    // that I/O also fills), the least sensitive over them.
    const unsigned half = rc.cbmBits / 2;
    const bool cleanLow = std::popcount(wayRun(rc.cbmMask, half, false) & rc.shareableBits)
        <= std::popcount(wayRun(rc.cbmMask, half, true) & rc.shareableBits);
    std::vector<unsigned> order(n);
    for (unsigned i = 0; i < n; ++i)
        order[i] = i;
    auto gain = [&](unsigned i) { return misses[i].front() - misses[i].back(); };
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return gain(a) > gain(b); });
    advice.groups.resize(n);
    std::uint64_t free = rc.cbmMask;
    for (const auto i : order) {
        const std::uint64_t mask = wayRun(free, ways[i], !cleanLow);
        free &= ~mask;
        auto& g = advice.groups[i];
        g.group = curves[i].group;
        g.ways = ways[i];
        g.mask = mask;
        for (const auto& r : resources)
            for (const int d : caps.resource(r)->domains)
                g.change.set(r, d, hexDigits(mask));
        const auto* s = stepAt(curves[i], ways[i]);
        g.expectedOccupancyBytes = s->occupancyBytes;
        g.expectedTotalBps = s->totalBps;
    }
    if (rc.shareableBits)
        advice.notes.push_back("shareable bits " + hexDigits(rc.shareableBits)
            + " are given to the least cache-sensitive " + "group where possible");
    if (resources.size() > 1) advice.notes.push_back("CDP: each group's code and data share its ways (same mask)");
    if (auto ok = checkWrites(caps, groups, advice.writes()); !ok) return ok.error();
    return advice;
}

} // namespace rdt::experiment
