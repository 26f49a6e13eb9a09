// SPDX-License-Identifier: GPL-3.0-or-later
#include "rdt/CounterMath.h"
#include "rdt/Sample.h"

#include <gtest/gtest.h>

using namespace rdt;

namespace {
struct WrapCase {
    const char* what;
    unsigned width;
    std::uint64_t prev, cur;
    bool overflow;
    std::uint64_t elapsedNs;
    std::uint64_t units;
    std::uint32_t flags;
};
constexpr std::uint64_t k24 = 1ULL << 24;
constexpr std::uint64_t k32 = 1ULL << 32;
constexpr std::uint64_t kSec = 1'000'000'000ULL;
}

TEST(CounterMath, WrapTable)
{
    const WrapCase cases[] = {
        { "24-bit no wrap", 24, 100, 600, false, kSec / 10, 500, 0 },
        { "24-bit zero delta", 24, 777, 777, false, kSec / 10, 0, 0 },
        { "24-bit one wrap", 24, k24 - 10, 5, false, kSec / 10, 15, SampleWrapped },
        { "24-bit wrap to exactly zero", 24, k24 - 1, 0, false, kSec / 10, 1, SampleWrapped },
        { "32-bit no wrap", 32, 1000, k32 - 1, false, kSec, k32 - 1001, 0 },
        { "32-bit one wrap", 32, k32 - 100, 50, false, kSec, 150, SampleWrapped },
        { "overflow bit: full turn although value rose", 24, 10, 20, true, kSec / 2, k24 + 10, SampleWrapped },
        { "24-bit gap of 3 s may hide wraps", 24, 100, 200, false, 3 * kSec, 100, SampleMaybeMultiWrap },
        { "24-bit 1 s is still safe", 24, 100, 200, false, kSec, 100, 0 },
        { "32-bit 3 s is safe (256 s period)", 32, 100, 200, false, 3 * kSec, 100, 0 },
        { "64-bit (resctrl) reset", 64, 5'000'000, 1'000, false, kSec / 10, 1'000, SampleCounterReset },
        { "64-bit zero delta", 64, 5'000'000, 5'000'000, false, kSec / 10, 0, 0 },
        { "64-bit large", 64, 0, 1ULL << 40, false, 2 * kSec, 1ULL << 40, 0 },
    };
    for (const auto& c : cases) {
        const auto d = counterDelta(c.prev, c.cur, c.width, c.overflow, c.elapsedNs);
        EXPECT_EQ(d.units, c.units) << c.what;
        EXPECT_EQ(d.flags, c.flags) << c.what;
    }
}

TEST(CounterMath, ImplausibleWrapIsACounterReset)
{
    // 24-bit counter, 1 ms apart, 1000 -> 50: as a wrap that is 2^24 - 950 units in 1 ms (1.7e10 units/s); with
    // a bound of 1e9 units/s it is taken as a reset (group re-created) and the delta restarts at the new value.
    const auto d = counterDelta(1000, 50, 24, false, 1'000'000, 1e9);
    EXPECT_EQ(d.flags, SampleCounterReset);
    EXPECT_EQ(d.units, 50u);
    // The same values 100 ms apart are a plausible wrap (1.7e8 units/s).
    const auto ok = counterDelta(1000, 50, 24, false, 100'000'000, 1e9);
    EXPECT_EQ(ok.flags, SampleWrapped);
    EXPECT_EQ(ok.units, k24 - 950);
}

TEST(CounterMath, PollIntervalBound)
{
    EXPECT_EQ(maxPollIntervalNs(24), kSec);
    EXPECT_EQ(maxPollIntervalNs(25), 2 * kSec);
    EXPECT_EQ(maxPollIntervalNs(32), 256 * kSec);
    EXPECT_EQ(maxPollIntervalNs(64), UINT64_MAX);
}

TEST(CounterMath, HighBitsAboveWidthAreIgnored)
{
    // Values above the enumerated width (e.g. a stray bit 61) must not leak into the delta.
    const auto d = counterDelta((1ULL << 61) | 10, 20, 24, false, kSec / 10);
    EXPECT_EQ(d.units, 10u);
}
