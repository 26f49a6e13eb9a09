// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace rdt {

/// The result of differencing two raw MBM counter reads.
struct CounterDelta {
    std::uint64_t units = 0; ///< counter units moved between the reads (wrap-corrected)
    std::uint32_t flags = 0; ///< SampleWrapped / SampleMaybeMultiWrap / SampleCounterReset
};

/// How long a counter of `widthBits` is guaranteed not to wrap more than once. SDM 20.18.8: a 24-bit MBM
/// counter read at 1 Hz or faster rolls over at most once per period; every extra bit doubles that.
std::uint64_t singleWrapPeriodNs(unsigned widthBits);

/// The fastest poll interval the sampler may use for `widthBits` (1 s for 24-bit counters).
std::uint64_t maxPollIntervalNs(unsigned widthBits);

/// Wrap-safe delta of an MBM counter of the enumerated width (SDM 20.18.5.2, 20.18.8):
///  - cur >= prev: plain difference, unless `overflowSeen` (IA32_QM_CTR bit 61, set on overflow and reset on
///    read) says a whole wrap also happened, then + 2^width and SampleWrapped;
///  - cur < prev: one wrap, delta = 2^width - prev + cur, SampleWrapped. With 64-bit (kernel-extended) values
///    a decrease cannot be a wrap: it is a reset (group re-created) and the delta restarts from cur;
///  - the wrap-corrected rate above `plausibleMaxUnitsPerSec` (when non-zero) is also taken as a reset;
///  - elapsed > singleWrapPeriodNs(width) sets SampleMaybeMultiWrap: more wraps may hide in the gap, so the
///    delta (and rate) is a lower bound.
CounterDelta counterDelta(std::uint64_t prev, std::uint64_t cur, unsigned widthBits, bool overflowSeen,
    std::uint64_t elapsedNs, double plausibleMaxUnitsPerSec = 0.0);

} // namespace rdt
