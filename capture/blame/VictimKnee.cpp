// SPDX-License-Identifier: GPL-3.0-or-later
#include "VictimKnee.h"

#include "rdt/GroupNames.h"

#include <cerrno>
#include <cmath>
#include <cstdio>

namespace rdt::blame {

Result<VictimKnee> measureVictimKnee(
    engine::Engine& engine, const VictimKneeSettings& s, const experiment::SweepHooks& hooks)
{
    experiment::SweepSettings sweep;
    sweep.kind = experiment::SweepKind::Ways;
    sweep.group = s.victim;
    sweep.isolate = { s.culprit };
    sweep.fromFull = true; // what the victim would use of the whole cache, not only of its current mask
    sweep.settleNs = s.settleNs;
    sweep.measureNs = s.measureNs;
    sweep.pollNs = s.pollNs;
    sweep.paced = s.paced;
    sweep.holdScenario = false; // the blame run holds the scenario's steps for its whole length
    auto run = experiment::runSweep(engine, sweep, hooks);
    if (!run) return run.error();
    const auto& r = *run;
    if (r.stopped) return errnoError(EINTR, "the victim's way sweep was stopped");
    if (r.error) return *r.error;
    const auto& knee = r.knees.bandwidth;
    if (!knee.found || knee.zero || r.steps.empty())
        return errnoError(ENODATA,
            "the victim's way sweep measured no memory traffic: its misses say nothing about the ways it needs");
    VictimKnee k;
    k.ways = static_cast<unsigned>(std::lround(knee.x));
    k.steps = static_cast<unsigned>(r.steps.size());
    k.restored = r.restored;
    const auto &fewest = r.steps.back(), most = r.steps.front();
    char buf[320];
    std::snprintf(buf, sizeof buf,
        "%s's knee: %u way(s) (its memory traffic %.0f MB/s with %llu way(s), %.0f MB/s with %llu, %s isolated; %s)",
        displayGroup(s.victim).c_str(), k.ways, fewest.totalBps / 1e6, static_cast<unsigned long long>(fewest.value),
        most.totalBps / 1e6, static_cast<unsigned long long>(most.value), displayGroup(s.culprit).c_str(),
        knee.explain("ways").c_str());
    k.text = buf;
    return k;
}

} // namespace rdt::blame
