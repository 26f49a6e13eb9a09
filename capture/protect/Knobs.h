// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The two resources the controller moves, for every best-effort group at once: how many L3 ways they may fill
// (the lowest ways of the mask, contiguous as SDM 20.19.4.2 requires everywhere) and their memory bandwidth value
// (MBA, SDM 20.19.7, in the machine's own unit from the AllocationLayout). The protected group's mask is never
// written: it keeps what it had, so every way the best-effort groups leave is a way only it fills.

#include <optional>
#include <string>

namespace rdt::protect {

struct Knobs {
    unsigned beWays = 0; ///< ways the best-effort groups may fill (the lowest ones)
    std::optional<unsigned> beMba; ///< their MB value; none on a machine without MBA
    bool operator==(const Knobs&) const = default;
};

/// What the knobs may be on this machine: the floors are the safety limits no policy goes below.
struct KnobLimits {
    unsigned ways = 0; ///< bits of the L3 mask
    unsigned minBeWays = 1; ///< floor: never fewer (at least min_cbm_bits)
    bool hasMba = false;
    unsigned mbaMin = 0; ///< floor, in the layout's unit (at least the machine's minimum)
    unsigned mbaMax = 100;
    unsigned mbaStep = 10; ///< one step of a policy (bandwidth_gran, at least 10 % of the range's percent)
    std::string mbaUnit; ///< "%", "MiBps"
    double bytesPerWay = 0; ///< 0 when the way size is unknown

    Knobs unlimited() const;
    Knobs floorKnobs() const;
    Knobs clamp(Knobs k) const;
};

/// "ways 0-3 (4 of 11), MB 30 %"
std::string describeKnobs(const Knobs& k, const KnobLimits& limits);

} // namespace rdt::protect
