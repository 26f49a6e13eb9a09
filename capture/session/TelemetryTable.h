// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionFile.h"
#include "rdt/Sample.h"

#include <cstdint>
#include <vector>

namespace rdt::session {

/// The PERF_PKG_MON telemetry of a session (table `telemetry_samples`): optional like `sweep_steps`, because files
/// written before the table existed do not have it and are not damaged.
class TelemetryTable {
public:
    explicit TelemetryTable(SessionFile& file);
    Result<std::vector<TelemetrySample>> telemetry(std::uint64_t fromNs, std::uint64_t toNs);

private:
    SessionFile& m_file;
};

} // namespace rdt::session
