// SPDX-License-Identifier: GPL-3.0-or-later
#include "LayoutText.h"

#include "core/Text.h"
#include "core/Units.h"

namespace rdt::cli {
namespace {

std::string cacheLine(const api::CacheLayout& c)
{
    std::string t = "  " + c.resource + ": " + std::to_string(c.cbmLength) + "-bit masks, ";
    if (c.cacheBytes > 0) {
        t += formatBytes(static_cast<double>(c.cacheBytes)) + " (" + formatBytes(static_cast<double>(c.bytesPerBit()))
            + " per bit";
        if (c.sncNodes > 1)
            t += ", " + formatBytes(static_cast<double>(c.bytesPerBit() / c.sncNodes)) + " per node of "
                + std::to_string(c.sncNodes);
        t += ")";
    } else {
        t += "size unknown (" + c.cacheBytesUnknown + ")";
    }
    if (c.ways > 0)
        t += ", " + std::to_string(c.ways) + " ways (" + c.waysLeaf + ")";
    else
        t += ", ways unknown (" + c.waysUnknown + ")";
    return t + "\n";
}

std::string bandwidthLine(const api::BandwidthLayout& b)
{
    std::string t = "  " + b.resource + ": ";
    switch (b.unit) {
    case api::BandwidthUnit::Percent:
        t += formatString("percent %u..%u in steps of %u", b.minValue, b.maxValue, b.granularity);
        if (!b.linear) t += ", non-linear (powers of two)";
        if (b.roundsUp) t += " (rounded up)";
        break;
    case api::BandwidthUnit::MiBps:
        t += "MiB/s (mba_MBps), 4294967295 = unlimited";
        break;
    case api::BandwidthUnit::EighthGBps:
        t += formatString("1/8 GB/s %u..%u, %u = unlimited", b.minValue, b.maxValue, b.maxValue);
        break;
    case api::BandwidthUnit::ThrottleLevel:
        t += formatString("throttle level %u..%u, 0 = unthrottled", b.minValue, b.maxValue);
        break;
    case api::BandwidthUnit::Blocks:
        t += formatString("reserved blocks %u..%u", b.minValue, b.maxValue);
        t += b.budget ? formatString(", at most %llu over all groups (%s)", static_cast<unsigned long long>(b.budget),
                 b.budgetSource.c_str())
                      : std::string(", budget unknown");
        break;
    case api::BandwidthUnit::Weight:
        t += formatString("weight %u..%u of unreserved bandwidth, 0 = none", b.minValue, b.maxValue);
        break;
    case api::BandwidthUnit::Described:
        t += b.description ? "as described: " + b.description->summary() : std::string("meaning unknown");
        break;
    }
    if (b.region >= 0) t += formatString("; region %d bound, kept as min <= opt <= max", b.region);
    return t + "\n";
}

} // namespace

std::string formatLayoutLines(const api::AllocationLayout& layout)
{
    std::string t = "layout:\n";
    for (const auto& c : layout.caches)
        t += cacheLine(c);
    for (const auto& b : layout.bandwidths)
        t += bandwidthLine(b);
    if (layout.caches.empty() && layout.bandwidths.empty()) t += "  no allocation resources\n";
    return t;
}

} // namespace rdt::cli
