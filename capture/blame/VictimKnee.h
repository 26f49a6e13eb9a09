// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How many ways the victim needs, for a containment: a way sweep of the victim (experiment/Sweep.h) with the culprit
// isolated onto the ways the victim does not hold at each step, so the victim's miss curve is the one a partition
// against that culprit gives it; its knee (experiment/Knee.h) is the fewest ways within the tolerance of its fewest
// misses. The sweep restores both groups, as every sweep does. Method: docs/BLAME.md "Contain".

#include "engine/Engine.h"
#include "experiment/Sweep.h"

#include <cstdint>
#include <string>

namespace rdt::blame {

struct VictimKnee {
    unsigned ways = 0; ///< the knee of the victim's misses against its ways
    std::string text; ///< "victim's knee: 4 ways (misses 812 -> 95 MB/s from 1 to 11 ways; ...)"
    unsigned steps = 0; ///< sweep steps measured
    bool restored = false; ///< the sweep's groups read back as before it
};

struct VictimKneeSettings {
    std::string victim, culprit;
    std::uint64_t settleNs = 1'000'000'000;
    std::uint64_t measureNs = 2'000'000'000;
    std::uint64_t pollNs = 250'000'000;
    bool paced = false;
};

/// Sweeps the victim's ways with the culprit isolated and returns the knee of its misses. Fails (nothing left
/// changed) when the sweep cannot run or its curve says nothing (every step read 0, or the sweep was stopped).
Result<VictimKnee> measureVictimKnee(
    engine::Engine& engine, const VictimKneeSettings& settings, const experiment::SweepHooks& hooks);

} // namespace rdt::blame
