// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/GroupNames.h"

#include <cstdint>
#include <optional>
#include <string>

namespace rdt {

/// The header of every per-group monitoring CSV: `monitor --csv`, `replay --csv`, `export --csv` and the GUI's
/// timeline export. Bandwidths are bytes per second over the interval that ends at time_s.
inline constexpr const char* kSampleCsvHeader = "time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps";

/// One row of that CSV. `domain` empty means "summed over every cache domain" (the GUI's timelines).
struct SampleCsvRow {
    double timeS = 0;
    std::string group; ///< the resctrl path; "" is the default group
    std::optional<int> domain;
    std::optional<std::uint64_t> occupancyBytes; ///< none: unknown (an empty field)
    double mbmTotalBps = 0; ///< NaN: unknown (an empty field)
    double mbmLocalBps = 0;
    std::optional<int> node; ///< set: a kNodeSampleCsvHeader row (the SNC node after the domain)
};

/// `monitor --csv --nodes` on an Intel SNC machine: one row per sub-NUMA node of each L3 domain (the kernel's
/// mon_L3_XX/mon_sub_L3_YY), the node after the domain; the other columns as kSampleCsvHeader's.
inline constexpr const char* kNodeSampleCsvHeader
    = "time_s,group,domain,node,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps";

/// The header of the per-group telemetry CSV (`monitor --csv --telemetry`, `replay --csv --telemetry`): one row per
/// PERF_PKG_MON event per group per package; value is cumulative in `unit` (J, F, or empty for counts), per_second
/// its rate over the interval that ends at time_s (watts for core_energy).
inline constexpr const char* kTelemetryCsvHeader = "time_s,group,package,event,value,unit,per_second";

struct TelemetryCsvRow {
    double timeS = 0;
    std::string group;
    int package = 0;
    std::string event;
    double value = 0;
    double perSecond = 0;
};
std::string telemetryCsvLine(const TelemetryCsvRow& row);

/// The row as one line with its newline: time with millisecond precision, the group quoted as CSV needs, whole
/// bytes and bytes per second; with a node, in kNodeSampleCsvHeader's columns.
std::string sampleCsvLine(const SampleCsvRow& row);

} // namespace rdt
