// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One step of a knob, up or down, within the limits: what the stepping policies (slack, fsm, model) share.

#include "Knobs.h"

namespace rdt::protect {

enum class KnobResource { Ways, Mba };

/// The knobs with `resource` one step more (grow) or less for the best-effort groups; unchanged at a limit.
Knobs stepKnob(Knobs k, KnobResource resource, bool grow, const KnobLimits& limits);
/// One step of best-effort growth: ways first, then bandwidth. Unchanged when both are at their maximum.
Knobs growBestEffort(const Knobs& k, const KnobLimits& limits);
/// One step of best-effort shrinking: ways first, then bandwidth. Unchanged when both are at their floor.
Knobs shrinkBestEffort(const Knobs& k, const KnobLimits& limits);

} // namespace rdt::protect
