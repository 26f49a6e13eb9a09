// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One side of a comparison: what a session file or a perf.data file says about a window of time, reduced to the
// figures that are compared (issue #20). RDT figures come from sessions, PMU figures from perf.data files (and
// the TMA intervals a session holds). Every problem met while reading is kept in `notes`, never hidden.

#include "core/PercentileSketch.h"
#include "core/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rdt::compare {

/// Which part of a recording to compare. Seconds are relative to the recording's start (a session's time axis
/// origin, or a perf.data file's first sample).
struct Window {
    /// BeforeMarker / AfterMarker (--around-marker): the span measured before a change and the one after it. Before:
    /// from the marker preceding `fromMarker`'s marker (or the start) to it. After: from the marker following it to
    /// the next one (or the end), so what lies between the change and the next marker (a settle time) is left out.
    enum class Kind { Whole, Range, Markers, BeforeMarker, AfterMarker };
    Kind kind = Kind::Whole;
    std::optional<double> fromS, toS; ///< Range: either end may be open
    /// Markers: matched against marker text (case-insensitive substring); BeforeMarker/AfterMarker use fromMarker.
    std::string fromMarker, toMarker;
    std::string describe() const;
};

/// `FROM..TO` in seconds (`10..20`, `..20`, `10..`); the CLI's --window value after the `A:`/`B:` prefix.
Result<Window> parseWindowRange(const std::string& text);
/// `M1,M2` (--between-markers).
Result<Window> parseMarkerWindow(const std::string& text);
/// `M` (--around-marker): the windows before and after the first marker containing M, as a pair (A, B).
Result<std::pair<Window, Window>> parseAroundMarker(const std::string& text);

struct SeriesStats {
    std::uint64_t count = 0;
    double mean = 0;
    double p95 = 0;
    static SeriesStats of(const PercentileSketch& s) { return { s.count(), s.mean(), s.percentile(0.95) }; }
};

/// One RDT group in one L3 domain over the window.
struct RdtSeries {
    std::string group; ///< "" = default group (shown as "default", rdt/GroupNames.h)
    int domain = 0;
    SeriesStats occupancy; ///< bytes
    SeriesStats totalBw, localBw; ///< bytes per second
    std::uint64_t flaggedSamples = 0; ///< samples with an error/unavailable flag (left out of the statistics)
};

/// The allocation in force at the window's end, per group, resource and domain.
struct AllocationValue {
    std::string group, resource;
    int domain = 0;
    std::string value; ///< schemata text: "7ff", "30"
};

/// An allocation change inside the window (initial values excluded).
struct AllocationChange {
    double timeS = 0; ///< seconds since the recording's start
    std::string who, group, resource;
    int domain = 0;
    std::string oldValue, newValue;
    bool ok = true;
    std::string message;
};

/// Slot-weighted mean of one TMA metric over the window (fraction of slots).
struct TmaValue {
    int level = 1;
    std::string metric;
    double fraction = 0;
};

/// A function-level LBR edge: an edge between functions (`kind` "call", "return", "jump", "trap", "unknown":
/// pmu::edgeKindName) or a hot branch inside a function ("branch": a jump with from == to).
struct BranchEdge {
    std::string from, to, kind; ///< kind: "call", "return", "jump", "trap", "unknown", "branch"
    std::uint64_t count = 0;
};

/// Load-latency figures of one data source, memory region or function.
struct LatencyFigures {
    std::string key; ///< data source name ("L1", "Local DRAM", ...), memory region (pmu::memRegionName) or function
    std::string module;
    std::uint64_t count = 0;
    double mean = 0; ///< cycles (the PEBS weight)
    double p99 = 0;
};

struct Profile {
    std::string path;
    std::string kind; ///< "session" or "perf.data"
    std::string source; ///< session meta source ("sim:noisy-neighbour", "resctrl") or "perf.data"
    bool simulated = false;
    std::string machine; ///< one line: session machine description or perf.data cpudesc
    std::optional<unsigned> family, model; ///< CPUID DisplayFamily/DisplayModel when known
    std::string interval; ///< sampling interval as text ("100 ms", "period 4000", "freq 4000 Hz"), "" unknown
    double recordingS = 0; ///< length of the whole recording
    double fromS = 0, toS = 0; ///< the window, resolved (seconds since the start)
    double durationS() const { return toS > fromS ? toS - fromS : 0; }
    std::string windowText; ///< how the window was chosen, for the header

    std::vector<RdtSeries> rdt; ///< sorted by group, domain
    std::uint64_t bytesPerWay = 0; ///< L3 bytes per CBM bit (0 unknown)
    std::vector<AllocationValue> allocation; ///< at the window's end
    std::vector<AllocationChange> changes;

    std::vector<TmaValue> tma;

    bool hasLbr = false;
    std::uint64_t lbrSamples = 0, branches = 0;
    std::vector<BranchEdge> edges; ///< by count, descending
    bool hasMem = false;
    std::vector<LatencyFigures> latencyBySource, latencyByFunction;
    /// By perf_mem_data_src mem_region (Linux 7.0; Diamond Rapids): empty unless some sample had it filled, as in
    /// `report --mem`; then every region seen, "N/A" included.
    std::vector<LatencyFigures> latencyByRegion;
    std::uint64_t loadSamples = 0;
    std::optional<double> instructions; ///< instructions retired in the window, when an event counted them

    std::vector<std::string> notes; ///< problems met while reading (damaged file, missing binaries, ...)
};

struct LoadOptions {
    Window window;
    std::vector<std::string> symfs; ///< where perf.data binaries are looked up (--symfs)
    /// Whole minutes of a session from its minute sketches (docs/SESSION-FORMAT.md "Minute sketches"); false reads
    /// every row (the tests compare the two).
    bool useSketches = true;
};

/// Reads `path` (a session or a perf.data file, told apart by their magic bytes) over `options.window`.
Result<Profile> loadProfile(const std::string& path, const LoadOptions& options = {});
Result<Profile> loadSessionProfile(const std::string& path, const LoadOptions& options);
Result<Profile> loadPerfDataProfile(const std::string& path, const LoadOptions& options);

} // namespace rdt::compare
