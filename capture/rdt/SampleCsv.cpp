// SPDX-License-Identifier: GPL-3.0-or-later
#include "SampleCsv.h"

#include "Telemetry.h"
#include "core/Csv.h"
#include "core/Text.h"

#include <cinttypes>
#include <cmath>

namespace rdt {

std::string sampleCsvLine(const SampleCsvRow& row)
{
    std::string where = row.domain ? std::to_string(*row.domain) : std::string();
    if (row.node) where += "," + std::to_string(*row.node);
    // An unknown value is an empty field, never a 0 (a flagged reading in the GUI's timelines).
    const auto rate = [](double bps) { return std::isnan(bps) ? std::string() : formatString("%.0f", bps); };
    const std::string occupancy = row.occupancyBytes ? std::to_string(*row.occupancyBytes) : std::string();
    return formatString("%.3f,%s,%s,%s,%s,%s\n", row.timeS, csvField(displayGroup(row.group)).c_str(), where.c_str(),
        occupancy.c_str(), rate(row.mbmTotalBps).c_str(), rate(row.mbmLocalBps).c_str());
}

std::string telemetryCsvLine(const TelemetryCsvRow& row)
{
    // %.6f: the kernel's own precision for fixed-point events; integer events print with zero fraction digits.
    const auto info = telemetryEventInfo(row.event);
    const char* fmt = info.unit.empty() ? "%.3f,%s,%d,%s,%.0f,%s,%.3f\n" : "%.3f,%s,%d,%s,%.6f,%s,%.6f\n";
    return formatString(fmt, row.timeS, csvField(displayGroup(row.group)).c_str(), row.package,
        csvField(row.event).c_str(), row.value, info.unit.c_str(), row.perSecond);
}

} // namespace rdt
