// SPDX-License-Identifier: GPL-3.0-or-later
#include "Units.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace rdt {
namespace {
std::string scaled(double v, double base, const std::array<const char*, 5>& units, const char* fmt0, const char* fmt)
{
    const bool negative = v < 0;
    double a = std::fabs(v);
    std::size_t i = 0;
    while (a >= base && i + 1 < units.size()) {
        a /= base;
        ++i;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, i == 0 ? fmt0 : fmt, negative ? -a : a, units[i]);
    return buf;
}
}

std::string formatBytes(double bytes)
{
    return scaled(bytes, 1024.0, { "B", "KiB", "MiB", "GiB", "TiB" }, "%.0f %s", "%.2f %s");
}

std::string formatBandwidth(double bps)
{
    return scaled(bps, 1000.0, { "B/s", "kB/s", "MB/s", "GB/s", "TB/s" }, "%.0f %s", "%.2f %s");
}

std::string formatCount(double count)
{
    std::string s = scaled(count, 1000.0, { "", "K", "M", "G", "T" }, "%.0f%s", "%.2f %s");
    return s;
}

std::string formatPercent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100.0);
    return buf;
}

} // namespace rdt
