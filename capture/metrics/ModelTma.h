// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// TMA level-1 slots of a group on the simulated machine, derived from its model's counts (SimulationControl::
// taskCounts through Engine::countGroupPmu): the model has cycles, instructions and memory-stall cycles but no
// instruction fetch and no branches, so two of the four categories are a fixed share, not a measurement.
// Simulated by construction; the agent logs it so (--metrics-tma on a simulated source).

#include "MetricsState.h"
#include "engine/EngineTypes.h"

namespace rdt::metrics {

/// Slots = 4 per cycle (Pipeline_Width when CPUID.23H gives none, SDM 22.2.9.6); retiring = one slot per
/// instruction (at most the slots); backend bound = 4 slots per memory-stall cycle plus the core-bound share of the
/// rest; the rest (neither retired nor memory-stalled) is split frontend 0.2 : bad speculation 0.32 : core 0.3, the
/// per-iteration stall cycles of the simulated PMU's default function (simpmu/SimProgram.h: feStallPerIter,
/// loopMispredict x 16-cycle penalty, coreStallPerIter).
TmaSlots tmaFromModelCounts(const engine::GroupPmuCounts& counts);

} // namespace rdt::metrics
