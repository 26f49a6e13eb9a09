// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The three forms of a comparison, shared by `rdtscope-cli diff` and the GUI's "Export diff as CSV":
//  - text: a readable report, one block per section, largest change first (what changed for each group);
//  - CSV: one header line (kCsvHeader), one line per DiffRow; mismatches are not rows (the CLI prints them on
//    stderr), missing values are empty fields;
//  - JSON: {"format":"rdtscope-diff","version":1, "normalize", "a":{...}, "b":{...}, "mismatches":[...],
//    "only_in_a":[...], "only_in_b":[...], "rows":[...]}, missing values null.
// The README's "Compare two recordings" section documents the columns.

#include "Compare.h"
#include "core/OutputTarget.h"

#include <cstddef>
#include <string>

namespace rdt::compare {

inline constexpr const char* kCsvHeader
    = "section,item,group,domain,metric,unit,a,b,delta,ratio,count_a,count_b,text_a,text_b";

/// Rows of the first `top` items of every section (0 = all). An item is a group and domain, a function, ...
std::vector<DiffRow> topItems(const std::vector<DiffRow>& rows, std::size_t top);

std::string formatText(const Comparison& c, std::size_t top = 10);
std::string formatCsv(const Comparison& c, std::size_t top = 0);
std::string formatJson(const Comparison& c, std::size_t top = 0);

enum class DiffForm { Text, Csv, Json };
/// The output rule (core/OutputTarget.h) of `diff -o`: never one of the compared files (nor a session's -wal),
/// and with --force only a comparison of the same form (its first line "A: ...", the CSV header, or
/// "format": "rdtscope-diff").
OutputRule diffOutputRule(DiffForm form, bool force, const std::string& a, const std::string& b);

/// Display helpers shared with the GUI: a value in its unit ("3.81 MiB", "23.27 GB/s", "12.5 %"), a ratio ("x4.20")
/// and a signed difference ("+12.21 MiB", "-3.4 pts").
std::string formatValue(double v, const std::string& unit);
std::string formatDelta(double v, const std::string& unit);
std::string formatRatio(std::optional<double> ratio);
/// A row's metric as a reader says it ("Occupancy, mean", "Total bandwidth, p95", "TMA level 1 share"); the
/// identifier (`metric`) stays what CSV and JSON carry for scripts.
std::string metricLabel(const DiffRow& row);

} // namespace rdt::compare
