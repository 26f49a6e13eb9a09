// SPDX-License-Identifier: GPL-3.0-or-later
#include "BandwidthControl.h"
#include "ControlDescription.h"

#include <cstdint>
#include <limits>

namespace rdt::api {

BandwidthLimit bandwidthLimitOf(BandwidthUnit unit, std::uint64_t raw, std::uint64_t maxRaw)
{
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    switch (unit) {
    case BandwidthUnit::Percent:
        return { BandwidthLimit::Kind::ShareWithheld, raw >= 100 ? 0.0 : 1.0 - static_cast<double>(raw) / 100.0 };
    case BandwidthUnit::MiBps:
        // resctrl.rst "Memory bandwidth Allocation specified in MiBps": the default, no limit, is 2^32 - 1.
        if (raw >= UINT32_MAX) return { BandwidthLimit::Kind::Unlimited, kInfinity };
        return { BandwidthLimit::Kind::BytesPerSecond, static_cast<double>(raw) * 1048576.0 };
    case BandwidthUnit::EighthGBps:
        // resctrl.rst (AMD): the maximum value (bw_max) means unlimited.
        if (maxRaw > 0 && raw >= maxRaw) return { BandwidthLimit::Kind::Unlimited, kInfinity };
        return { BandwidthLimit::Kind::BytesPerSecond, static_cast<double>(raw) * 1e9 / 8.0 };
    case BandwidthUnit::ThrottleLevel:
        return { BandwidthLimit::Kind::ThrottleLevel, static_cast<double>(raw) };
    case BandwidthUnit::Blocks:
        return { BandwidthLimit::Kind::ReservedBlocks, static_cast<double>(raw) };
    case BandwidthUnit::Weight:
        return { BandwidthLimit::Kind::Weight, static_cast<double>(raw) };
    case BandwidthUnit::Described:
        // The factors are in the control's description, which this overload does not see.
        return { BandwidthLimit::Kind::Unknown, 0.0 };
    }
    return { BandwidthLimit::Kind::ShareWithheld, 0.0 };
}

} // namespace rdt::api

namespace rdt::api {

BandwidthLimit bandwidthLimitOf(const ControlDescription& d, std::uint64_t raw)
{
    const auto q = d.quantityOf(raw);
    if (!q) return { BandwidthLimit::Kind::Unknown, 0.0 };
    if (d.unit == "all") return { BandwidthLimit::Kind::ShareOfRegion, *q };
    // The RFC's absolute units; a GB is 10^9 bytes as in resctrl.rst's AMD section, an MB 10^6, a MiB 2^20.
    if (d.unit == "GBps") return { BandwidthLimit::Kind::BytesPerSecond, *q * 1e9 };
    if (d.unit == "MBps") return { BandwidthLimit::Kind::BytesPerSecond, *q * 1e6 };
    if (d.unit == "MiBps") return { BandwidthLimit::Kind::BytesPerSecond, *q * 1048576.0 };
    return { BandwidthLimit::Kind::Unknown, 0.0 };
}

BandwidthControlName bandwidthControlOf(std::string_view name)
{
    if (name == "MB_MIN") return { BandwidthRole::Reserved, -1 };
    if (name == "MB_WGHT") return { BandwidthRole::Weight, -1 };
    constexpr std::string_view prefix = "MB_REGION";
    if (name.substr(0, prefix.size()) != prefix) return {};
    std::string_view rest = name.substr(prefix.size());
    int region = 0;
    std::size_t digits = 0;
    while (digits < rest.size() && digits < 4 && rest[digits] >= '0' && rest[digits] <= '9')
        region = region * 10 + (rest[digits++] - '0');
    if (digits == 0) return {};
    rest = rest.substr(digits);
    if (rest == "_MIN") return { BandwidthRole::RegionMin, region };
    if (rest == "_OPT") return { BandwidthRole::RegionOpt, region };
    if (rest == "_MAX") return { BandwidthRole::RegionMax, region };
    return {};
}

std::string regionControlName(int region, BandwidthRole role)
{
    const char* bound = role == BandwidthRole::RegionMin ? "_MIN"
        : role == BandwidthRole::RegionOpt               ? "_OPT"
        : role == BandwidthRole::RegionMax               ? "_MAX"
                                                         : nullptr;
    if (!bound || region < 0) return {};
    return "MB_REGION" + std::to_string(region) + bound;
}

} // namespace rdt::api
