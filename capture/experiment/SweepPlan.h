// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The steps of a sweep, worked out and checked before anything is written: which value each step writes to which
// groups, and what every touched group held before (what the restore writes back). Every step is checked with the
// allocation rules (rdt/AllocationRules.h) against the state it would leave, so a sweep the hardware would refuse
// half-way is refused before it starts, with the rule's own reason.

#include "Sweep.h"
#include "rdt/RdtBackend.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rdt::experiment {

/// One change of one group.
struct GroupWrite {
    std::string group;
    Schemata change;
};

struct PlannedStep {
    std::uint64_t value = 0; ///< ways or MB value
    std::vector<GroupWrite> writes; ///< the swept group first, then the isolated groups
};

struct SweepPlan {
    std::string resourceText; ///< "L3", "L3CODE+L3DATA", "MB"
    std::vector<PlannedStep> steps;
    std::vector<GroupWrite> original; ///< every touched group's lines of the swept resources, as they were
    std::vector<std::string> notes;
};

/// The steps of `settings` on a machine with `caps` whose groups are `groups`.
Result<SweepPlan> planSweep(
    const Capabilities& caps, const std::vector<engine::GroupState>& groups, const SweepSettings& settings);

/// The cache resources a way sweep writes: {"L3"}, or {"L3CODE", "L3DATA"} with CDP (both get the same mask, so
/// code and data share the ways); empty when there is no L3 CAT.
std::vector<std::string> wayResources(const Capabilities& caps);

/// A contiguous run of `ways` bits inside `within` (itself contiguous), at its high end or its low end.
std::uint64_t wayRun(std::uint64_t within, unsigned ways, bool highEnd);

/// Checks the state `writes` leave against the allocation rules, every written group against all others as they
/// would then be; the first refusal, in the rules' words. `groups` is the state before.
Status checkWrites(
    const Capabilities& caps, const std::vector<engine::GroupState>& groups, const std::vector<GroupWrite>& writes);

} // namespace rdt::experiment
