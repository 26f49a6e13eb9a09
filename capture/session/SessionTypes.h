// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace rdt::session {

/// Who recorded what, where (table `meta`). Times: wall clock for people, monotonic for the sample axis.
struct SessionMeta {
    std::uint64_t startWallNs = 0; ///< CLOCK_REALTIME at start (for "recorded on ...")
    std::uint64_t startMonoNs = 0; ///< time axis origin: sample times minus this = seconds into the session
    std::string host;
    std::string kernel; ///< uname -r -v
    std::string source; ///< "sim:noisy-neighbour", "resctrl", "msr", "perf", ...
    bool simulated = false; ///< true for anything the simulator produced: shown wherever the data appears
    std::string toolVersion;
    std::string commandLine;
    std::string scenario; ///< simulator scenario name, empty for hardware
    std::uint64_t intervalNs = 0; ///< sampling interval asked for
    bool timeIsSimulated = false; ///< sample times are simulated time (the recorder ran faster than real time)
};

/// What the machine looked like (table `machine`): the platform's CPUID JSON snapshot and topology text.
struct MachineInfo {
    std::string cpuidJson;
    std::string topology;
    std::string description; ///< one line, e.g. "Simulated Xeon Gold 6338 (2 L3 domains, 16 CLOS, 128 RMID)"
};

/// Tasks and CPUs of one group at one time (table `group_membership`): the state from then on.
struct MembershipSnapshot {
    std::uint64_t timeNs = 0;
    std::string group;
    std::string tasks; ///< resctrl `tasks` style: PIDs separated by spaces/newlines, or a label ("stream x4")
    std::string cpus; ///< cpus_list style "0-3,8"
};

struct Marker {
    std::uint64_t timeNs = 0;
    std::string kind; ///< "note", "scenario", "phase", ...
    std::string text;
};

/// One measured step of a sweep (table `sweep_steps`, docs/EXPERIMENTS.md "Recording"): the allocation written,
/// then what the group (and a victim) did over the measured time. Each step also has a marker at its start.
struct SweepStepRow {
    std::uint32_t sweep = 1; ///< which sweep of the session (1, 2, ...)
    std::uint32_t step = 0;
    std::string kind; ///< "ways" or "mba"
    std::string group;
    std::uint64_t value = 0; ///< ways, or the MB value
    std::string written; ///< "L3:0=3ff"
    std::uint64_t startNs = 0; ///< when the step was written
    std::uint64_t endNs = 0; ///< end of its measurement
    double occupancyBytes = 0;
    double totalBps = 0;
    double localBps = 0;
    std::string victim; ///< "" when none was watched
    double victimOccupancyBytes = 0;
    double victimTotalBps = 0;
    std::string disturbed; ///< what another writer changed during the step ("" when nothing)
    // The group's PMU figures over the measurement (table `sweep_pmu`); none when not measured.
    std::optional<double> ipc;
    std::optional<double> mpki; ///< LLC misses per thousand instructions
    std::optional<double> memoryBound; ///< share of cycles waiting on memory, 0..1
    /// How the figures were counted, or why there are none ("" in files written before `sweep_pmu` existed).
    std::string pmuSource;
};

/// One top-down (TMA) interval value: one row per metric per interval (table `tma_intervals`).
struct TmaInterval {
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::string scope; ///< "system", "pid:1234", "cpu:3", "group:p0"
    int level = 1;
    std::string metric; ///< "retiring", "bad_speculation", "frontend_bound", "backend_bound", ...
    double value = 0; ///< fraction of slots
};

/// A batch of high-rate PMU samples (table `pmu_batches`), stored zstd-compressed. The payload format belongs
/// to `kind` ("lbr", "load-latency", "perf-records"...); the session only stores and returns its bytes.
struct PmuBatch {
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::string kind;
    std::uint64_t count = 0; ///< samples inside
    std::vector<std::uint8_t> payload; ///< uncompressed bytes
};

/// An executable mapping seen by the PMU side (table `address_maps`).
struct AddressMap {
    std::uint64_t timeNs = 0;
    std::int64_t pid = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint64_t pgoff = 0;
    std::string path;
    std::string buildId;
};

/// A resolved symbol (table `symbols`), keyed by the file it lives in.
struct Symbol {
    std::string path; ///< or build id
    std::uint64_t address = 0; ///< file-relative
    std::uint64_t size = 0;
    std::string name;
};

/// A group known to the session (table `groups`).
struct SessionGroup {
    std::int64_t id = 0;
    std::string path; ///< "" = default group
    std::uint64_t firstNs = 0;
    std::uint64_t lastNs = 0;
    std::uint64_t samples = 0;
};

/// One bucket of the multi-resolution summary (table `rdt_summary`).
/// A figure the file holds as NULL: nothing valid was measured. NaN, which every consumer shows as unknown.
inline constexpr double kUnknownFigure = std::numeric_limits<double>::quiet_NaN();

/// One summary bucket (table `rdt_summary`); a figure without a valid sample is kUnknownFigure.
struct SummaryBucket {
    int resolutionS = 1; ///< 1 or 60
    std::uint64_t bucket = 0; ///< monotonic time / resolution
    std::string group;
    int domain = 0;
    std::uint64_t count = 0;
    double occMin = 0, occMax = 0, occMean = 0;
    double totalMin = 0, totalMax = 0, totalMean = 0;
    double localMin = 0, localMax = 0, localMean = 0;
};

} // namespace rdt::session
