// SPDX-License-Identifier: GPL-3.0-or-later
#include "ModelTma.h"

#include <algorithm>

namespace rdt::metrics {

TmaSlots tmaFromModelCounts(const engine::GroupPmuCounts& counts)
{
    constexpr double kWidth = 4; // SDM 22.2.9.6: 4 slots per cycle before CPUID.23H enumerates a width
    constexpr double kFrontend = 0.2, kBadSpeculation = 0.02 * 16, kCore = 0.3;
    const double slots = kWidth * std::max(0.0, counts.cycles);
    TmaSlots out;
    out.retiring = std::clamp(counts.instructions, 0.0, slots);
    const double memory = std::clamp(kWidth * counts.memoryStallCycles.value_or(0), 0.0, slots - out.retiring);
    const double rest = slots - out.retiring - memory;
    const double shares = kFrontend + kBadSpeculation + kCore;
    out.frontendBound = rest * kFrontend / shares;
    out.badSpeculation = rest * kBadSpeculation / shares;
    out.backendBound = memory + rest * kCore / shares;
    return out;
}

} // namespace rdt::metrics
