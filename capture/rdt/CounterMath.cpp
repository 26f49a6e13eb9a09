// SPDX-License-Identifier: GPL-3.0-or-later
#include "CounterMath.h"

#include "Sample.h"

namespace rdt {

std::uint64_t singleWrapPeriodNs(unsigned widthBits)
{
    if (widthBits >= 62) return UINT64_MAX; // a 62/64-bit counter does not wrap in any realistic run
    if (widthBits <= 24) return 1'000'000'000ULL;
    const unsigned extra = widthBits - 24;
    if (extra >= 34) return UINT64_MAX;
    return 1'000'000'000ULL << extra;
}

std::uint64_t maxPollIntervalNs(unsigned widthBits)
{
    return singleWrapPeriodNs(widthBits);
}

CounterDelta counterDelta(std::uint64_t prev, std::uint64_t cur, unsigned widthBits, bool overflowSeen,
    std::uint64_t elapsedNs, double plausibleMaxUnitsPerSec)
{
    CounterDelta d;
    const bool narrow = widthBits < 64;
    const std::uint64_t modulus = narrow ? (1ULL << widthBits) : 0; // 0 stands for 2^64
    const std::uint64_t mask = narrow ? modulus - 1 : UINT64_MAX;
    prev &= mask;
    cur &= mask;
    if (cur >= prev) {
        d.units = cur - prev;
        if (overflowSeen && narrow) {
            // Bit 61 says the counter overflowed since the last read although the value did not go down:
            // a full turn happened in between.
            d.units += modulus;
            d.flags |= SampleWrapped;
        }
    } else if (widthBits >= 62) {
        // The kernel (or a 62-bit counter) never wraps in practice: going down means the group was re-created.
        d.units = cur;
        d.flags |= SampleCounterReset;
        return d;
    } else {
        d.units = (modulus - prev) + cur;
        d.flags |= SampleWrapped;
    }
    if (plausibleMaxUnitsPerSec > 0 && elapsedNs > 0 && (d.flags & SampleWrapped)) {
        const double rate = static_cast<double>(d.units) / (static_cast<double>(elapsedNs) * 1e-9);
        if (rate > plausibleMaxUnitsPerSec) {
            d.units = cur;
            d.flags = SampleCounterReset;
            return d;
        }
    }
    if (elapsedNs > singleWrapPeriodNs(widthBits)) d.flags |= SampleMaybeMultiWrap;
    return d;
}

} // namespace rdt
