// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A policy decides, once per control interval, where the best-effort groups' knobs go from what the interval
// measured. It never writes: the controller clamps its answer to the floors, limits the write rate and writes it
// transactionally (capture/protect/Protect.h). Each policy and its published source: docs/PROTECT.md.

#include "Knobs.h"
#include "core/Result.h"
#include "core/Text.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdt::protect {

/// What one control interval measured, as a policy sees it.
struct IntervalView {
    unsigned index = 0; ///< intervals since the start
    std::optional<double> slack; ///< none when the signal could not be read
    std::optional<double> lcOccupancyBytes; ///< the protected group's L3 occupancy (summed over domains)
    double beMissBps = 0; ///< the best-effort groups' memory traffic (MBM total)
    Knobs knobs; ///< in force during the interval
};

/// "slack 0.042": how a policy's reason names the slack it acted on.
inline std::string slackText(double slack)
{
    return formatString("slack %.3f", slack);
}

/// A policy's answer: the knobs wanted and why ("" reason: nothing to do).
struct PolicyDecision {
    Knobs knobs;
    std::string reason;
};

class Policy {
public:
    virtual ~Policy() = default;
    virtual std::string name() const = 0;
    /// The knobs to start from, given those the start allocation amounts to (the controller writes them before
    /// the first interval when they differ).
    virtual Knobs initial(const KnobLimits& limits, const Knobs& start) = 0;
    virtual PolicyDecision decide(const IntervalView& now, const KnobLimits& limits) = 0;
    /// The controller reverted to the start allocation (the signal was lost): forget what was being judged.
    virtual void reset() { }
};

/// Published constants, scaled where the paper's period is longer than a simulated scenario (docs/PROTECT.md).
struct PolicyTuning {
    double staticWayShare = 0.3; ///< koordinator resctrlQOS BE class: ways 0-30 %
    unsigned staticMbaPercent = 100; ///< its MBA percent for the BE class (100: no cap)
    unsigned slackPeriodIntervals = 10; ///< Heracles' top-level period (15 s in the paper), in intervals
    unsigned slackCooldownIntervals = 50; ///< no best-effort growth this long after a violation
    unsigned judgeIntervals = 5; ///< PARTIES: each action judged over 5 intervals
    unsigned waitIntervals = 100; ///< PARTIES: 10 s at 100 ms after a revert
};

/// "static", "slack", "fsm", "model"
std::vector<std::string> policyNames();
/// The policy of that name; an error naming the four otherwise.
Result<std::unique_ptr<Policy>> makePolicy(const std::string& name, const PolicyTuning& tuning);

} // namespace rdt::protect
