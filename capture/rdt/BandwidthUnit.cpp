// SPDX-License-Identifier: GPL-3.0-or-later
#include "BandwidthUnit.h"
#include "RdtBackend.h"
#include "core/Text.h"

#include <climits>
#include <cmath>

namespace rdt {

const char* bandwidthUnitSymbol(BandwidthUnit unit)
{
    switch (unit) {
    case BandwidthUnit::Percent:
        return "%";
    case BandwidthUnit::MiBps:
        return "MiB/s";
    case BandwidthUnit::EighthGBps:
        return "GB/s";
    case BandwidthUnit::ThrottleLevel:
        return "level";
    case BandwidthUnit::Blocks:
        return "blocks";
    case BandwidthUnit::Weight:
        return "weight";
    case BandwidthUnit::Described:
        return "";
    }
    return "%";
}

namespace {
/// 16 -> "2", 1 -> "0.125", 20 -> "2.5": eighths of a GB/s without trailing zeros.
std::string eighths(std::uint64_t raw)
{
    std::string s = formatString("%llu", static_cast<unsigned long long>(raw / 8));
    static const char* const kFractions[8] = { "", ".125", ".25", ".375", ".5", ".625", ".75", ".875" };
    return s + kFractions[raw % 8];
}
}

std::string formatBandwidth(const ResourceCaps& r, std::uint64_t raw)
{
    switch (r.bandwidthUnit) {
    case BandwidthUnit::Percent:
        return std::to_string(raw) + " %";
    case BandwidthUnit::MiBps:
        return raw >= UINT32_MAX ? "unlimited" : std::to_string(raw) + " MiB/s";
    case BandwidthUnit::EighthGBps:
        return raw >= r.maxBandwidth && r.maxBandwidth > 0 ? "unlimited" : eighths(raw) + " GB/s";
    case BandwidthUnit::ThrottleLevel:
        return "level " + std::to_string(raw);
    case BandwidthUnit::Blocks:
        return std::to_string(raw) + " blocks";
    case BandwidthUnit::Weight:
        return raw == 0 ? "weight 0 (no share of unreserved bandwidth)" : "weight " + std::to_string(raw);
    case BandwidthUnit::Described: {
        const auto q = r.description ? r.description->quantityOf(raw) : std::nullopt;
        if (!q || r.description->unit.empty()) return std::to_string(raw) + " (meaning unknown)";
        if (r.description->unit == "all") return formatString("%.1f %%", *q * 100.0);
        return formatString("%g %s", *q, r.description->unit.c_str());
    }
    }
    return std::to_string(raw);
}

std::string describeBandwidthUnit(const ResourceCaps& r)
{
    switch (r.bandwidthUnit) {
    case BandwidthUnit::Percent:
        return formatString("percent of peak bandwidth, %s..100 in steps of %s",
            r.origins.show("min_bandwidth", std::to_string(r.minBandwidth)).c_str(),
            r.origins.show("bandwidth_gran", std::to_string(r.bandwidthGran ? r.bandwidthGran : 1)).c_str());
    case BandwidthUnit::MiBps:
        return "MiB/s target of the kernel's software controller (mounted with -o mba_MBps), 4294967295 = unlimited";
    case BandwidthUnit::EighthGBps:
        return formatString("multiples of 1/8 GB/s, %s..%u, %u = unlimited (AMD)",
            r.origins.show("min_bandwidth", std::to_string(r.minBandwidth)).c_str(), r.maxBandwidth, r.maxBandwidth);
    case BandwidthUnit::ThrottleLevel:
        return formatString("throttle level 0..%u (0 = unthrottled)", r.maxBandwidth);
    case BandwidthUnit::Blocks:
        return formatString("reserved bandwidth blocks, %s..%s per group, all groups together at most %s",
            r.origins.show("min_bandwidth", std::to_string(r.minBandwidth)).c_str(),
            r.origins.show("max_bandwidth", std::to_string(r.maxBandwidth)).c_str(),
            r.budget ? (std::to_string(r.budget) + " (" + r.budgetSource + ")").c_str()
                     : r.origins.show("budget", "").c_str());
    case BandwidthUnit::Weight:
        return formatString("weight in unreserved bandwidth, %s..%u (0 = none, %u = the most)",
            r.origins.show("min_bandwidth", std::to_string(r.minBandwidth)).c_str(), r.maxBandwidth, r.maxBandwidth);
    case BandwidthUnit::Described:
        return r.description ? "described by the kernel: " + r.description->summary()
                             : std::string("a control whose meaning is unknown");
    }
    return {};
}

Result<std::uint64_t> parseBandwidthInput(const ResourceCaps& r, std::string_view text)
{
    const auto t = trim(text);
    std::size_t used = 0;
    const auto number = parseFiniteDouble(t, &used);
    if (!number || *number < 0)
        return makeError("'" + std::string(t) + "' is not a bandwidth value", describeBandwidthUnit(r));
    std::string unit;
    for (char c : t.substr(used))
        if (!isAsciiSpace(c)) unit += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    const bool gb = unit == "gb/s" || unit == "gbps" || unit == "gb";
    const bool mib = unit == "mib/s" || unit == "mibps" || unit == "mb/s" || unit == "mbps";
    const bool pct = unit == "%";
    auto wrongUnit = [&] {
        return makeError(r.name + " values are " + describeBandwidthUnit(r) + ", not " + std::string(t.substr(used)),
            std::string("give the value in ") + bandwidthUnitSymbol(r.bandwidthUnit) + " or as the raw number");
    };
    double raw = *number;
    if (!unit.empty()) {
        switch (r.bandwidthUnit) {
        case BandwidthUnit::EighthGBps:
            if (!gb) return wrongUnit();
            raw = *number * 8;
            break;
        case BandwidthUnit::MiBps:
            if (!mib) return wrongUnit();
            break;
        case BandwidthUnit::Percent:
            if (!pct) return wrongUnit();
            break;
        case BandwidthUnit::ThrottleLevel:
        case BandwidthUnit::Weight:
            return wrongUnit();
        case BandwidthUnit::Blocks:
            if (unit != "blocks" && unit != "block") return wrongUnit();
            break;
        case BandwidthUnit::Described:
            // "50%" of a control of unit "all": the raw value that stands for it, v = share x resolution / scale.
            if (!(pct && r.description && r.description->unit == "all" && r.description->resolution
                    && r.description->scale && *r.description->scale > 0))
                return wrongUnit();
            raw = std::round(*number / 100.0 * static_cast<double>(*r.description->resolution)
                / static_cast<double>(*r.description->scale));
            break;
        }
    }
    if (raw != std::floor(raw) || raw > 4294967295.0)
        return makeError(
            "'" + std::string(t) + "' is not a whole number of " + r.name + " steps", describeBandwidthUnit(r));
    return static_cast<std::uint64_t>(raw);
}

} // namespace rdt
