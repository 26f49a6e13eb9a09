// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace rdt {

/// Whether a cache size resctrl gives (bytes per CBM bit x CBM length) describes the CPUID's cache of `cpuidBytes`:
/// the same, or a whole share of it (with SNC resctrl's size files give one node's share, resctrl.rst "Notes on
/// Sub-NUMA Cluster mode"). Not so when the resctrl tree is not this CPU's (a fixture tree read on a laptop).
inline bool resctrlSizeIsThisCache(std::uint64_t resctrlBytes, std::uint64_t cpuidBytes)
{
    for (std::uint64_t share = 1; share <= 8; ++share) // SNC-2, -3, -4, -6 (and a little room)
        if (resctrlBytes * share == cpuidBytes) return true;
    return false;
}

/// The size of the whole cache instance a recording controlled: the CPUID's where resctrl's describes it (SNC
/// included), resctrl's where the CPUID describes another cache, the CPUID's when resctrl gave none (0: unknown).
inline std::uint64_t wholeCacheBytes(std::uint64_t resctrlBytes, std::uint64_t cpuidBytes)
{
    return resctrlBytes == 0 || resctrlSizeIsThisCache(resctrlBytes, cpuidBytes) ? cpuidBytes : resctrlBytes;
}

} // namespace rdt
