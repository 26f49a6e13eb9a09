// SPDX-License-Identifier: GPL-3.0-or-later
#include "StaticPolicy.h"

#include <cmath>

namespace rdt::protect {

Knobs StaticPolicy::initial(const KnobLimits& limits, const Knobs&)
{
    Knobs k;
    // The class range's end, rounded up to a whole way: ways 0..ceil(30 % of the mask) - 1.
    k.beWays = static_cast<unsigned>(std::ceil(m_tuning.staticWayShare * limits.ways));
    if (limits.hasMba) {
        // The class's percent of the machine's range (a MiBps mount: that share of its maximum), rounded up to a step.
        const double want = limits.mbaMax * (m_tuning.staticMbaPercent / 100.0);
        const unsigned step = limits.mbaStep ? limits.mbaStep : 1;
        k.beMba = static_cast<unsigned>(std::ceil(want / step)) * step;
    }
    return limits.clamp(k);
}

PolicyDecision StaticPolicy::decide(const IntervalView& now, const KnobLimits&)
{
    return { now.knobs, {} };
}

} // namespace rdt::protect
