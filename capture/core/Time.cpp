// SPDX-License-Identifier: GPL-3.0-or-later
#include "Time.h"

#include <ctime>

namespace rdt {
namespace {
std::uint64_t readClock(clockid_t id)
{
    timespec ts {};
    clock_gettime(id, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}
}
std::uint64_t monotonicNs()
{
    return readClock(CLOCK_MONOTONIC);
}
std::uint64_t wallClockNs()
{
    return readClock(CLOCK_REALTIME);
}
} // namespace rdt
