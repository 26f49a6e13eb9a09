// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Plain-text tables of the PMU aggregates, as `rdtscope-cli pmu` prints them (kept here, not in the CLI, so tests
// and other front ends can use them).

#include "BranchGraph.h"
#include "LoadLatency.h"
#include "Tma.h"

#include <string>

namespace rdt::pmu {

/// Header line of the TMA table (level 2 columns when `level2`).
std::string tmaHeader(bool level2);
/// One row: "    1.00 s   41.2%   3.1% ..." with the multiplexing scale; invalid intervals print their note.
std::string tmaRow(double seconds, const TmaBreakdown& b);
/// The same with a label ("total") in the interval column.
std::string tmaRow(const std::string& label, const TmaBreakdown& b);

/// Top call edges (and, for any-branch data, the hottest branches inside functions) and top functions.
std::string branchGraphText(const BranchGraphReport& r, bool anyBranchMode, std::size_t topN);

/// Latency histogram stacked by data source, then the top functions and top 64-byte lines.
std::string loadLatencyText(const LoadLatencyReport& r, std::size_t topN);

} // namespace rdt::pmu
