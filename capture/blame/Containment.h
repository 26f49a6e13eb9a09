// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Containing a culprit (`blame --contain`): one action moves it to a best-effort allocation, the ways the victim's
// need leaves over (its occupancy while the culprit was fenced, in ways, plus one), and for a bandwidth culprit the
// lowest MB value too; the victim is then re-measured. Unlike a probe the containment stays: its undo (the culprit's
// lines as they were) is kept and printed, and undoContainment() writes it back. Method: docs/BLAME.md "Contain".

#include "BlameTypes.h"
#include "engine/Engine.h"

#include <optional>
#include <string>
#include <vector>

namespace rdt::blame {

/// The best-effort allocation of `culprit`: `victimNeedBytes` of the cache (rounded up to ways, plus one) left to
/// the victim, the rest (at least min_cbm_bits ways, contiguous, SDM 20.19.4.2) to the culprit at the low end of the
/// mask; a bandwidth culprit also gets the lowest MB value (SDM 20.19.7).
Result<Containment> planContainment(const Capabilities& caps, const std::vector<engine::GroupState>& groups,
    const std::string& culprit, Resource resource, double victimNeedBytes);

/// Writes a containment's undo (one transaction) and reads it back.
engine::CommandResult undoContainment(engine::Engine& engine, const Containment& containment);

} // namespace rdt::blame
