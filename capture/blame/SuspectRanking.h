// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The passive ranking: every control group other than the victim scored, per domain the victim is on, over sliding
// windows. Cache: its share of the line fills that land in ways the victim may use (each fill evicts a line of
// those ways, SDM 20.19: a mask limits where a group fills, not what it evicts). Bandwidth: its share of the
// domain's memory traffic, counted only where the victim's memory-stall cycles per miss rise with that traffic.
// Method and its limits: docs/BLAME.md "Passive ranking".

#include "BlameTypes.h"
#include "Observation.h"

#include <vector>

namespace rdt::blame {

/// Most likely culprit first (by effect); one entry per suspect, on the victim's domain where its effect is largest.
std::vector<Suspect> rankSuspects(const Observation& observation, const VictimHarm& harm);

/// A suspect counted as a culprit by its passive evidence alone: an effect of at least this share whose interval
/// excludes zero (docs/BLAME.md).
inline constexpr double kPassiveCulpritShare = 0.10;
bool passivelyBlamed(const Suspect& s);

} // namespace rdt::blame
