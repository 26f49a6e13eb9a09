// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Containing a culprit (`blame --contain`): one action moves it to a best-effort allocation, the ways the victim's
// knee leaves over (blame/VictimKnee.h; without a knee, its occupancy while the culprit was fenced, in ways, plus
// one), and for a bandwidth culprit an MBA cap in the machine's own unit too; the victim is then re-measured. Unlike a
// probe the containment stays: its undo (the culprit's lines as they were) is kept and printed, and undoContainment()
// writes it back. Method: docs/BLAME.md "Contain".

#include "BlameTypes.h"
#include "api/AllocationLayout.h"
#include "engine/Engine.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rdt::blame {

/// What the victim needs and what the culprit takes, as the containment sizes them.
struct ContainmentNeed {
    unsigned victimWays = 0; ///< ways the victim keeps for itself (its knee)
    std::string waysText; ///< how they were chosen ("victim's knee: 4 way(s) ...")
    double culpritBps = 0; ///< the culprit's memory traffic on the victim's domain (MBM total)
    double effect = 0; ///< the culprit's passive effect (its share of the harm), 0..1
};

/// The ways a victim holding `bytes` needs without a knee: its occupancy in ways, plus one.
unsigned waysForBytes(double bytes, std::uint64_t bytesPerWay);

/// The MB value that caps a bandwidth culprit, in the layout's own unit: its traffic less the share its effect says
/// harms the victim, so `culpritBps x (1 - effect)`; a percent of peak bandwidth withholds the effect's share
/// (resctrl.rst "Memory bandwidth Allocation"), AMD's 1/8 GB/s steps and mba_MBps' MiB/s cap the bytes. Rounded
/// down to a value the resource takes, never below its minimum. None (with why) where the unit is not a cap.
Result<std::pair<unsigned, std::string>> bandwidthCap(const api::BandwidthLayout& mb, double culpritBps, double effect);

/// The best-effort allocation of `culprit`: the victim keeps `need.victimWays`, the rest (at least min_cbm_bits
/// ways, contiguous, SDM 20.19.4.2) goes to the culprit at the low end of the mask; a bandwidth culprit also gets
/// the MB cap of bandwidthCap (SDM 20.19.7).
Result<Containment> planContainment(const Capabilities& caps, const api::AllocationLayout& layout,
    const std::vector<engine::GroupState>& groups, const std::string& culprit, Resource resource,
    const ContainmentNeed& need);

/// Writes a containment's undo (one transaction) and reads it back.
engine::CommandResult undoContainment(engine::Engine& engine, const Containment& containment);

} // namespace rdt::blame
