// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionReader.h"
#include "core/OutputTarget.h"
#include "rdt/SampleCsv.h"

#include <cstdio>
#include <string>
#include <vector>

namespace rdt::session {

using rdt::displayGroup;
using rdt::kSampleCsvHeader;

/// One CSV line (with newline) for a recorded sample (header kSampleCsvHeader); time in seconds since `originNs`.
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

/// The output rule (core/OutputTarget.h) of `export -o`: never the session itself (nor its -wal), and with
/// --force only an export of the same format (the CSV header, or "format": "rdtscope-session-export").
OutputRule exportOutputRule(bool json, bool force, const std::string& session);

} // namespace rdt::session
