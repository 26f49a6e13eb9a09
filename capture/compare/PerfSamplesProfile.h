// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The PMU side of a Profile from perf records, whether read from a perf.data file (PerfDataProfile.cpp) or from the
// records an import stored in a session (SessionProfile.cpp): one rule for both, so the same records compare equal.

#include "Profile.h"

#include "perfdata/PerfDataImport.h"
#include "pmu/LoadLatency.h"

#include <array>
#include <functional>
#include <memory>

namespace rdt::compare {

/// What the import aggregates do not hold, counted from the same samples: load latency per data source and per
/// memory region, and the instructions the samples stand for.
struct PerfSampleCounts {
    std::array<pmu::LatencyStats, static_cast<std::size_t>(pmu::MemLevel::Count)> bySource;
    std::array<pmu::LatencyStats, pmu::DataSource::kRegions> byRegion; ///< index: mem_region value
    std::uint64_t rng = 0x9e3779b97f4a7c15ull;
    double instructions = 0;
    bool countsInstructions = false;

    /// One record already known to be inside the window.
    void add(const pmu::DecodedRecord& rec);
};

/// The import pass of a Profile: every function that matters (so both sides align by name), binaries looked up in
/// `symfs`, samples `keep` lets through aggregated and counted into `counts` (which must outlive the pass).
perfdata::ImportOptions profileImportOptions(
    const std::vector<std::string>& symfs, std::function<bool(const pmu::Sample&)> keep, PerfSampleCounts& counts);

/// How the events sampled ("freq 4000 Hz", "period 100003"), each distinct setting once: what makes two files'
/// counts comparable, whatever the events are called ("cycles:u" and "cycles:ppp" sample alike).
std::string samplingText(const perfdata::HeaderInfo& header);

/// HEADER_CPUID is "GenuineIntel,6,85,4" on x86 (vendor, family, model, stepping; perf's get_cpuid()): sets the
/// Profile's family and model when it parses.
void parseCpuId(const std::string& cpuId, Profile& p);

/// Fills the Profile's PMU figures (instructions, LBR edges, load latency) and its notes from an import pass.
void fillPmuSide(const perfdata::ImportResult& imported, const PerfSampleCounts& counts, Profile& p);

} // namespace rdt::compare
