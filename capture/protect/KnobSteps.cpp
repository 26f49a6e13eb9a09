// SPDX-License-Identifier: GPL-3.0-or-later
#include "KnobSteps.h"

namespace rdt::protect {

Knobs stepKnob(Knobs k, KnobResource resource, bool grow, const KnobLimits& limits)
{
    if (resource == KnobResource::Ways) {
        if (grow && k.beWays < limits.ways) ++k.beWays;
        if (!grow && k.beWays > limits.minBeWays) --k.beWays;
    } else if (limits.hasMba && k.beMba) {
        const unsigned v = *k.beMba;
        k.beMba = grow ? v + limits.mbaStep : (v > limits.mbaStep ? v - limits.mbaStep : 0);
    }
    return limits.clamp(k);
}

Knobs growBestEffort(const Knobs& k, const KnobLimits& limits)
{
    const Knobs ways = stepKnob(k, KnobResource::Ways, true, limits);
    return ways == k ? stepKnob(k, KnobResource::Mba, true, limits) : ways;
}

Knobs shrinkBestEffort(const Knobs& k, const KnobLimits& limits)
{
    const Knobs ways = stepKnob(k, KnobResource::Ways, false, limits);
    return ways == k ? stepKnob(k, KnobResource::Mba, false, limits) : ways;
}

} // namespace rdt::protect
