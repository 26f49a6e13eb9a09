// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a memory-bandwidth control's values mean, as a type every front end reads instead of comparing unit strings.
// The kernel does not say it in one file: Intel MBA takes a percentage, the same resource mounted with `-o mba_MBps`
// a MiB/s target, AMD MBA and SMBA multiples of 1/8 GB/s (kernel Documentation/filesystems/resctrl.rst
// "Reading/writing the schemata file (on AMD systems)"), and the MSR backend's CBA a throttle level (SDM 20.19.8).
// The engine decides which applies (rdt/BandwidthUnit.h formats and parses); this says what a value is.

#include <cstdint>
#include <string>
#include <string_view>

namespace rdt::api {

/// Blocks: RISC-V CBQRI reserved bandwidth blocks (MB_MIN), a share of a controller-wide budget; Weight: CBQRI's
/// MB_WGHT, 0..255, a group's weight in the bandwidth nobody reserved; Described: the control says what its values
/// mean in info/<RES>/resource_schemata/<CTRL>/ (ControlDescription.h: v x scale / resolution of its unit).
enum class BandwidthUnit : std::uint8_t { Percent, MiBps, EighthGBps, ThrottleLevel, Blocks, Weight, Described };

/// "percent", "mibps", "gbps8", "level", "blocks", "weight", "described": the stable spelling of sessions, JSON and
/// the protocol.
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
    case BandwidthUnit::Blocks:
        return "blocks";
    case BandwidthUnit::Weight:
        return "weight";
    case BandwidthUnit::Described:
        return "described";
    }
    return "percent";
}
/// Inverse of bandwidthUnitKey; Percent for anything unknown.
constexpr BandwidthUnit bandwidthUnitFromKey(std::string_view key)
{
    for (auto u : { BandwidthUnit::MiBps, BandwidthUnit::EighthGBps, BandwidthUnit::ThrottleLevel,
             BandwidthUnit::Blocks, BandwidthUnit::Weight, BandwidthUnit::Described })
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
        ReservedBlocks, ///< CBQRI MB_MIN: `value` is the number of bandwidth blocks reserved for the group
        Weight, ///< CBQRI MB_WGHT: `value` is the weight 0..255 (0 = no share of unreserved bandwidth)
        ShareOfRegion, ///< a described control of unit "all" (MB_REGIONn_*): `value` is the share 0..1 it names
        Unknown, ///< a described control whose scale, resolution or unit is unknown: there is nothing to export
    };
    Kind kind = Kind::ShareWithheld;
    double value = 0;
};

/// What `raw` limits for a control of `unit` whose largest value is `maxRaw` (AMD's maximum means unlimited).
/// A GB here is 10^9 bytes and a MiB 2^20, as the kernel's documentation writes the units.
BandwidthLimit bandwidthLimitOf(BandwidthUnit unit, std::uint64_t raw, std::uint64_t maxRaw);

struct ControlDescription;
/// What `raw` means for a control that describes itself (ControlDescription.h): unit "all" -> ShareOfRegion with the
/// share raw x scale / resolution, GBps / MBps / MiBps -> BytesPerSecond, anything not known -> Unknown.
BandwidthLimit bandwidthLimitOf(const ControlDescription& description, std::uint64_t raw);

/// What a bandwidth control does to its group, from the schemata name resctrl documents for it: a cap ("MB",
/// "SMBA", "CBA"), blocks reserved from a budget all groups share (CBQRI "MB_MIN"), a weight in the unreserved rest
/// (CBQRI "MB_WGHT"), or one bound of a region's min <= opt <= max triple ("MB_REGION<n>_MIN/_OPT/_MAX", the region
/// aware bandwidth controls of the 2026 resource_schemata RFC).
enum class BandwidthRole : std::uint8_t { Limit, Reserved, Weight, RegionMin, RegionOpt, RegionMax };
struct BandwidthControlName {
    BandwidthRole role = BandwidthRole::Limit;
    int region = -1; ///< n of MB_REGION<n>_*, else -1
};
BandwidthControlName bandwidthControlOf(std::string_view schemataName);
/// "MB_REGION2_OPT" for (2, RegionOpt); "" for roles that are no region bound.
std::string regionControlName(int region, BandwidthRole role);

} // namespace rdt::api
