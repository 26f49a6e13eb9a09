// SPDX-License-Identifier: GPL-3.0-or-later
#include "Knobs.h"

#include <algorithm>

namespace rdt::protect {

Knobs KnobLimits::unlimited() const
{
    Knobs k;
    k.beWays = ways;
    if (hasMba) k.beMba = mbaMax;
    return k;
}

Knobs KnobLimits::floorKnobs() const
{
    Knobs k;
    k.beWays = minBeWays;
    if (hasMba) k.beMba = mbaMin;
    return k;
}

Knobs KnobLimits::clamp(Knobs k) const
{
    k.beWays = std::clamp(k.beWays, std::min(minBeWays, ways), ways);
    if (!hasMba)
        k.beMba.reset();
    else
        k.beMba = std::clamp(k.beMba.value_or(mbaMax), mbaMin, mbaMax);
    return k;
}

std::string describeKnobs(const Knobs& k, const KnobLimits& limits)
{
    std::string t = k.beWays >= limits.ways ? "all " + std::to_string(limits.ways) + " ways"
                                            : "ways 0-" + std::to_string(k.beWays - 1) + " (" + std::to_string(k.beWays)
            + " of " + std::to_string(limits.ways) + ")";
    if (k.beMba) t += ", MB " + std::to_string(*k.beMba) + " " + limits.mbaUnit;
    return t;
}

} // namespace rdt::protect
