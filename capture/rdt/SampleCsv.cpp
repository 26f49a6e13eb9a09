// SPDX-License-Identifier: GPL-3.0-or-later
#include "SampleCsv.h"

#include "core/Csv.h"
#include "core/Text.h"

#include <cinttypes>

namespace rdt {

std::string displayGroup(const std::string& path)
{
    return path.empty() ? "default" : path;
}

std::string sampleCsvLine(const SampleCsvRow& row)
{
    const std::string domain = row.domain ? std::to_string(*row.domain) : std::string();
    return formatString("%.3f,%s,%s,%" PRIu64 ",%.0f,%.0f\n", row.timeS, csvField(displayGroup(row.group)).c_str(),
        domain.c_str(), row.occupancyBytes, row.mbmTotalBps, row.mbmLocalBps);
}

} // namespace rdt
