// SPDX-License-Identifier: GPL-3.0-or-later
#include "SuspectRanking.h"

#include "Windows.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace rdt::blame {

namespace {

/// Share of `group`'s ways the victim may also fill on `domain` (SDM 20.19.2): its fills land only in its own
/// ways, so only that share of them can evict the victim's lines. 1 without CAT; none when a mask is missing.
std::optional<double> overlapOf(const Observation& o, const std::string& group, int domain)
{
    if (!o.cat) return 1.0;
    const auto g = o.masks.find({ group, domain }), v = o.masks.find({ o.victim, domain });
    if (g == o.masks.end() || v == o.masks.end() || g->second == 0) return std::nullopt;
    return static_cast<double>(std::popcount(g->second & v->second)) / std::popcount(g->second);
}

std::string percent(double share)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f %%", share * 100);
    return buf;
}

std::string sentenceOf(const Suspect& s, const std::string& victim)
{
    const std::string who = displayGroup(s.group), v = displayGroup(victim);
    char buf[512];
    if (s.resource == Resource::Bandwidth) {
        std::snprintf(buf, sizeof buf,
            "%s takes %s (+- %s) of the memory traffic on L3 domain %d (%.0f MB/s), and %s's memory stalls per miss "
            "rise with that traffic: it likely slows %s through memory bandwidth",
            who.c_str(), percent(s.effect).c_str(), percent(s.uncertainty).c_str(), s.domain, s.fillBps / 1e6,
            v.c_str(), v.c_str());
    } else if (s.effect < kPassiveCulpritShare || !passivelyBlamed(s)) {
        const char* why = s.fillBps < 1e6  ? "it reads almost nothing from memory"
            : s.overlap && *s.overlap == 0 ? "its ways do not overlap the victim's"
                                           : "few of its fills land in the victim's ways";
        std::snprintf(buf, sizeof buf,
            "%s causes %s (+- %s) of the fills into %s's ways on L3 domain %d: %s; unlikely to hurt it", who.c_str(),
            percent(s.effect).c_str(), percent(s.uncertainty).c_str(), v.c_str(), s.domain, why);
    } else {
        std::snprintf(buf, sizeof buf,
            "%s causes %s (+- %s) of the line fills into the ways %s may use on L3 domain %d (%.0f MB/s from "
            "memory%s): "
            "each fill can evict one of %s's lines",
            who.c_str(), percent(s.effect).c_str(), percent(s.uncertainty).c_str(), v.c_str(), s.domain,
            s.fillBps / 1e6,
            s.overlap && *s.overlap < 1 ? (", " + percent(*s.overlap) + " of its ways shared").c_str() : "", v.c_str());
    }
    return buf;
}

} // namespace

bool passivelyBlamed(const Suspect& s)
{
    return s.effect >= kPassiveCulpritShare && s.effect - s.uncertainty > 0;
}

std::vector<Suspect> rankSuspects(const Observation& o, const VictimHarm& harm)
{
    std::vector<Suspect> best(o.suspects.size());
    for (std::size_t i = 0; i < o.suspects.size(); ++i) {
        best[i].group = o.suspects[i];
        best[i].domain = harm.domains.empty() ? 0 : harm.domains.front().domain;
        best[i].overlap = overlapOf(o, o.suspects[i], best[i].domain);
    }
    const auto windows = slidingWindows(0, o.passiveEnd, o.windowPolls);
    for (const auto& dh : harm.domains) {
        const int d = dh.domain;
        std::vector<std::optional<double>> overlaps;
        for (const auto& g : o.suspects)
            overlaps.push_back(overlapOf(o, g, d));
        // Per suspect: its share of the fills into the victim's ways, of the others' traffic, its fills, per window.
        std::vector<std::vector<double>> cacheShare(o.suspects.size()), trafficShare(o.suspects.size()),
            fills(o.suspects.size()), occupancy(o.suspects.size());
        std::vector<std::vector<double>> pressure(o.suspects.size()), loss(o.suspects.size());
        std::vector<double> traffic, stallPerMiss;
        for (const auto& w : windows) {
            const auto victim = spanOf(o.polls, { o.victim, d }, w.begin, w.end);
            if (!victim) continue;
            std::vector<std::optional<SpanReading>> spans;
            double intoVictimWays = victim->fillBps, others = 0;
            for (std::size_t i = 0; i < o.suspects.size(); ++i) {
                spans.push_back(spanOf(o.polls, { o.suspects[i], d }, w.begin, w.end));
                if (!spans.back()) continue;
                intoVictimWays += spans.back()->fillBps * overlaps[i].value_or(1.0);
                others += spans.back()->fillBps;
            }
            for (std::size_t i = 0; i < o.suspects.size(); ++i) {
                if (!spans[i]) continue;
                const double p = spans[i]->fillBps * overlaps[i].value_or(1.0);
                cacheShare[i].push_back(intoVictimWays > 0 ? p / intoVictimWays : 0);
                trafficShare[i].push_back(others > 0 ? spans[i]->fillBps / others : 0);
                fills[i].push_back(spans[i]->fillBps);
                occupancy[i].push_back(spans[i]->occupancyBytes);
                pressure[i].push_back(p);
                loss[i].push_back(-victim->occupancyBytes);
            }
            const auto pmu = pmuSpanOf(o.polls, w.begin, w.end);
            if (pmu && pmu->stallCyclesPerMiss) {
                traffic.push_back(others + victim->fillBps);
                stallPerMiss.push_back(*pmu->stallCyclesPerMiss);
            }
        }
        // Bandwidth harm needs the victim's stalls per miss to move with the domain's traffic: without a PMU, or
        // when they hold still, no share of traffic is counted as harm.
        const double saturation = std::max(0.0, correlation(traffic, stallPerMiss).value_or(0.0));
        for (std::size_t i = 0; i < o.suspects.size(); ++i) {
            if (cacheShare[i].empty()) continue;
            Suspect s;
            s.group = o.suspects[i];
            s.domain = d;
            s.overlap = overlaps[i];
            s.windows = static_cast<unsigned>(cacheShare[i].size());
            s.fillBps = meanInterval(fills[i]).mean;
            s.occupancyBytes = meanInterval(occupancy[i]).mean;
            s.correlation = correlation(pressure[i], loss[i]);
            const auto cache = meanInterval(cacheShare[i]);
            const auto bw = meanInterval(trafficShare[i]);
            if (saturation * bw.mean > cache.mean) {
                s.resource = Resource::Bandwidth;
                s.effect = saturation * bw.mean;
                s.uncertainty = saturation * bw.twoStdErrors;
            } else {
                s.effect = cache.mean;
                s.uncertainty = cache.twoStdErrors;
            }
            if (best[i].windows == 0 || s.effect > best[i].effect) best[i] = s;
        }
    }
    std::stable_sort(best.begin(), best.end(), [](const Suspect& a, const Suspect& b) { return a.effect > b.effect; });
    for (auto& s : best)
        s.sentence = s.windows
            ? sentenceOf(s, o.victim)
            : displayGroup(s.group) + ": no readings on the victim's domains (unknown, not innocent)";
    return best;
}

} // namespace rdt::blame
