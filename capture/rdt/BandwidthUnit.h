// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace rdt {

struct ResourceCaps;

/// What a memory-bandwidth schemata value means. The kernel does not say it in one file: Intel MBA takes a
/// percentage, the same resource mounted with `-o mba_MBps` a MiB/s target, AMD MBA and SMBA multiples of
/// 1/8 GB/s (kernel Documentation/filesystems/resctrl.rst "Reading/writing the schemata file (on AMD systems)"),
/// and the MSR backend's CBA a throttle level. The one place that knows; CLI and GUI format through it.
enum class BandwidthUnit : std::uint8_t { Percent, MiBps, EighthGBps, ThrottleLevel };

/// "%", "MiB/s", "GB/s", "level".
const char* bandwidthUnitSymbol(BandwidthUnit unit);
/// "percent", "mibps", "gbps8", "level": the stable spelling of sessions, JSON and the protocol (inline: the
/// protocol codec uses it without linking the backends).
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

/// A raw schemata value in the resource's unit: "50 %", "2 GB/s", "0.125 GB/s", "1024 MiB/s", "level 3",
/// "unlimited" for the value that means no limit (MiBps 4294967295, AMD's maximum).
std::string formatBandwidth(const ResourceCaps& r, std::uint64_t raw);
/// One line on what values mean, e.g. "multiples of 1/8 GB/s, 0..2048, 2048 = unlimited (AMD)".
std::string describeBandwidthUnit(const ResourceCaps& r);
/// A user's value for this resource -> the raw schemata value. Accepts the raw number ("16") or the number with
/// the resource's unit ("2GB/s", "2.5 GB/s", "50%", "1024 MiB/s"); a unit of another vendor is refused with advice
/// (a percentage on AMD is the mistake koordinator-sh/koordinator#1162 describes).
Result<std::uint64_t> parseBandwidthInput(const ResourceCaps& r, std::string_view text);

} // namespace rdt
