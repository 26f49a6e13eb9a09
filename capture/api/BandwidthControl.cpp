// SPDX-License-Identifier: GPL-3.0-or-later
#include "BandwidthControl.h"

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
    }
    return { BandwidthLimit::Kind::ShareWithheld, 0.0 };
}

} // namespace rdt::api
