// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a memory-bandwidth control's values mean, as a type every front end reads instead of comparing unit strings.
// The kernel does not say it in one file: Intel MBA takes a percentage, the same resource mounted with `-o mba_MBps`
// a MiB/s target, AMD MBA and SMBA multiples of 1/8 GB/s (kernel Documentation/filesystems/resctrl.rst
// "Reading/writing the schemata file (on AMD systems)"), and the MSR backend's CBA a throttle level (SDM 20.19.8).
// The engine decides which applies (rdt/BandwidthUnit.h formats and parses); this says what a value is.

#include <cstdint>
#include <string_view>

namespace rdt::api {

enum class BandwidthUnit : std::uint8_t { Percent, MiBps, EighthGBps, ThrottleLevel };

/// "percent", "mibps", "gbps8", "level": the stable spelling of sessions, JSON and the protocol.
constexpr const char* bandwidthUnitKey(BandwidthUnit unit)
{
    switch (unit) {
    case BandwidthUnit::Percent:
        return "percent";
    case BandwidthUnit::MiBps:
        return "mibps";
    case BandwidthUnit::EighthGBps:
        return "gbps8";
    case BandwidthUnit::ThrottleLevel:
        return "level";
    }
    return "percent";
}
/// Inverse of bandwidthUnitKey; Percent for anything unknown.
constexpr BandwidthUnit bandwidthUnitFromKey(std::string_view key)
{
    for (auto u : { BandwidthUnit::MiBps, BandwidthUnit::EighthGBps, BandwidthUnit::ThrottleLevel })
        if (key == bandwidthUnitKey(u)) return u;
    return BandwidthUnit::Percent;
}

/// One bandwidth value as the quantity it limits, comparable across machines (the metrics exporter, JSON).
struct BandwidthLimit {
    enum class Kind : std::uint8_t {
        ShareWithheld, ///< Intel MBA: `value` is the share of peak bandwidth withheld, 1 - percent / 100
        BytesPerSecond, ///< an absolute cap (AMD 1/8 GB/s, mba_MBps MiB/s): `value` in bytes per second
        Unlimited, ///< the value that means no cap (AMD's maximum, mba_MBps 4294967295): `value` is +infinity
        ThrottleLevel, ///< CBA: `value` is the level, 0 unthrottled
    };
    Kind kind = Kind::ShareWithheld;
    double value = 0;
};

/// What `raw` limits for a control of `unit` whose largest value is `maxRaw` (AMD's maximum means unlimited).
/// A GB here is 10^9 bytes and a MiB 2^20, as the kernel's documentation writes the units.
BandwidthLimit bandwidthLimitOf(BandwidthUnit unit, std::uint64_t raw, std::uint64_t maxRaw);

} // namespace rdt::api
