// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace rdt {

/// Nanoseconds on CLOCK_MONOTONIC: the engine's single time base (perf uses the same clock with use_clockid).
std::uint64_t monotonicNs();
/// Nanoseconds since the Unix epoch (CLOCK_REALTIME), for session metadata only.
std::uint64_t wallClockNs();

inline double nsToSeconds(std::uint64_t ns)
{
    return static_cast<double>(ns) * 1e-9;
}
inline std::uint64_t secondsToNs(double s)
{
    return static_cast<std::uint64_t>(s * 1e9);
}

} // namespace rdt
