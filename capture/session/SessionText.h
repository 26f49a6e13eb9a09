// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionReader.h"

#include <cstdio>
#include <string>

namespace rdt::session {

/// The CSV header `monitor --csv`, `replay --csv` and `export --csv` share.
inline constexpr const char* kSampleCsvHeader = "time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps";

/// How a group path appears in CSV and tables, as `monitor` prints it: the default group ("") is "default".
std::string displayGroup(const std::string& path);
/// One CSV line (with newline) for a sample; time in seconds since `originNs`.
std::string sampleCsvLine(const RdtSample& s, std::uint64_t originNs);
/// One human-readable line, as `monitor` prints: time, group, domain, occupancy, total/local/remote bandwidth.
std::string sampleTableLine(const RdtSample& s, std::uint64_t originNs);
std::string sampleTableHeader();

/// `rdtscope-cli summary`: machine, source, simulated or not, duration, groups, sample counts, allocation changes,
/// markers, PMU data, and every problem found while reading.
std::string formatSummary(SessionReader& reader);

/// Streams samples in [fromNs, toNs) as CSV. Returns the read error (rows before it were written).
Status exportCsv(SessionReader& reader, std::uint64_t fromNs, std::uint64_t toNs, std::FILE* out);
/// Streams the session as one JSON document: meta, machine, groups, allocations, memberships, markers, samples
/// (and TMA rows) in [fromNs, toNs). Always well-formed, even when reading stops at damage ("issues" lists it).
Status exportJson(SessionReader& reader, std::uint64_t fromNs, std::uint64_t toNs, std::FILE* out);

} // namespace rdt::session
