// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The advisor: from each group's way curve (measured alone, capture/experiment/Sweep.h with isolation), masks for all
// of them that maximise a stated objective, found with the lookahead algorithm of utility-based cache partitioning
// (M. K. Qureshi and Y. N. Patt, "Utility-Based Cache Partitioning", MICRO 2006, section 4.1) and laid out under the
// hardware's rules (contiguous runs, shareable ways, CLOS count, CDP). The proposal is a staged edit: the changes,
// and the occupancy and bandwidth each group is expected to have. docs/EXPERIMENTS.md "The advisor".

#include "Sweep.h"
#include "SweepPlan.h"

#include <map>
#include <string>
#include <vector>

namespace rdt::experiment {

enum class Objective {
    Misses, ///< fewest misses in total (the most hits): every group's memory traffic counts the same
    Weighted, ///< a weighted sum: each group's traffic times its weight
    Protect, ///< one group first gets its knee, the others share the rest by misses
};
const char* objectiveName(Objective o);
Result<Objective> parseObjective(const std::string& text);

/// One group's curve: ways -> measured step (ways ascending or descending, any order).
struct GroupCurve {
    std::string group;
    std::vector<SweepStep> steps;
    Knee knee; ///< of its bandwidth curve
};

struct AdviceSettings {
    Objective objective = Objective::Misses;
    std::map<std::string, double> weights; ///< Weighted: per group (missing = 1)
    std::string protect; ///< Protect: the group served first
    double tolerance = kDefaultKneeTolerance; ///< utilities below this share of a curve's range count as none
};

/// The objective against the groups asked for, before anything is swept (the CLI and the GUI both ask this): the
/// protected group must be one of them, and every weight must name one of them (a weight for a group not advised
/// on is a typing mistake, not an instruction to ignore). `groups` are paths, as `settings` holds them.
Status checkObjective(const AdviceSettings& settings, const std::vector<std::string>& groups);

struct GroupAdvice {
    std::string group;
    unsigned ways = 0;
    std::uint64_t mask = 0;
    Schemata change; ///< what applying writes
    double expectedOccupancyBytes = 0; ///< the curve's value at `ways`
    double expectedTotalBps = 0;
};

struct Advice {
    std::vector<GroupAdvice> groups; ///< in the order asked
    std::vector<GroupWrite> writes() const;
    std::vector<std::string> notes; ///< how leftover ways were placed, the layout, CDP, ...
};

/// The lookahead allocation alone: ways per curve (index as given), curve i at least `minWays[i]`, summing to
/// `totalWays` when the curves reach that far. `misses[i][k]` is curve i's (weighted) misses with `minWays[i] + k`
/// ways. Ways no curve gains from go to the curve with the largest total gain. Pure.
std::vector<unsigned> lookahead(const std::vector<std::vector<double>>& misses, const std::vector<unsigned>& minWays,
    unsigned totalWays, std::vector<std::string>* notes = nullptr);

/// Masks for `curves` on a machine with `caps` whose groups are `groups` (checked with the allocation rules, as a
/// sweep's steps are). Fails with the reason when the groups cannot share the cache (too few ways for their minimum,
/// more groups than CLOS, an exclusive group in the way).
Result<Advice> proposeAllocation(const Capabilities& caps, const std::vector<engine::GroupState>& groups,
    const std::vector<GroupCurve>& curves, const AdviceSettings& settings);

} // namespace rdt::experiment
