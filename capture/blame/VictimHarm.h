// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the victim is hurt, per L3 domain, from what the engine could read over the passive observation: its
// occupancy against what its mask allows, its memory traffic (its misses), and where a PMU is offered its IPC,
// MPKI and memory-bound share. What could not be read is named, never shown as 0 (docs/BLAME.md "Harm").

#include "BlameTypes.h"
#include "Observation.h"

namespace rdt::blame {

VictimHarm victimHarmOf(const Observation& observation);

} // namespace rdt::blame
