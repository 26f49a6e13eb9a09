// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a lesson's simulated PMU capture measured, as expression values (docs/LESSONS.md "Expressions"): TMA
// categories, LBR branches and calls, PEBS load sources and latency, all read from the capture's report.

#include "engine/PmuTypes.h"

#include <optional>
#include <string>
#include <vector>

namespace rdt::lesson {

/// True for the functions a PMU capture's report answers (tma, mispredicts, loads, ...).
bool isPmuFunction(const std::string& function);

/// The value of one of them; nullopt with the reason when the report has no such data (a TMA value of an LBR
/// capture, a function the samples never saw).
std::optional<double> pmuMetric(const engine::PmuReport& report, const std::string& function,
    const std::vector<std::string>& args, std::string& why);

/// The TMA of the slots a capture counted after `before` (an earlier total of the same capture): the slot-weighted
/// difference of the two totals, so a step whose capture ran before it measures its own run (a mask changed at the
/// step's action shows at once, not diluted by the slots before it). `now` when `before` counted nothing.
pmu::TmaBreakdown tmaSince(const pmu::TmaBreakdown& now, const pmu::TmaBreakdown& before);

/// What the capture measured, in a few lines (the Lessons panel shows it once a PMU step has run, `--check` prints
/// it): TMA shares, the top call edges and loops with their mispredictions, load sources and latencies.
std::vector<std::string> describePmuReport(const engine::PmuReport& report);

} // namespace rdt::lesson
