// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Protecting a workload (`rdtscope-cli protect`): a closed loop through the engine (so on a local machine, on the
// simulator and on an agent with --connect) that reads the protected group's signal once per interval, lets a
// policy decide where the best-effort groups' ways and bandwidth go, and writes that transactionally within the
// safety limits: floors per knob, a write-rate limit, the start allocation written back when the signal is lost,
// on a stop (SIGINT/SIGTERM) and at the end. Every decision is kept with its reason. Method: docs/PROTECT.md.

#include "Knobs.h"
#include "Policy.h"
#include "Target.h"
#include "engine/Engine.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rdt::protect {

struct ProtectSettings {
    std::string lcGroup; ///< the protected (latency-critical) control group ("" = default group)
    /// Best-effort control groups; empty = every control group other than the protected one and the default group.
    std::vector<std::string> beGroups;
    Target target;
    std::string signalCommand; ///< an external signal's command (Target::kind External)
    std::string policy = "model";
    PolicyTuning tuning;
    std::uint64_t intervalNs = 100'000'000; ///< PARTIES' 100 ms
    std::uint64_t durationNs = 60'000'000'000; ///< 0: until stopped
    unsigned minBeWays = 1; ///< floor (raised to min_cbm_bits)
    std::optional<unsigned> mbaFloor; ///< floor in the machine's MB unit (unset: the machine's minimum)
    double maxWritesPerSecond = 10; ///< schemata writes per second of the source clock, at most
    unsigned signalLossIntervals = 3; ///< after this many unread intervals the start allocation is written back
    bool restoreAtEnd = true; ///< write the start allocation back when the run ends (a stop always does)
    bool paced = false; ///< wait in real time between intervals (real sources always do)
};

/// One decision of the controller (a policy's step, a revert, a deferral), as a session marker records it.
struct Decision {
    std::uint64_t offsetNs = 0; ///< since the start
    std::string action; ///< "write", "deferred", "revert", "restore", "refused"
    std::string knobs; ///< what the best-effort groups got ("ways 0-3 (4 of 11), MB 30 %")
    std::string reason;
    unsigned writes = 0;
};

/// One control interval.
struct IntervalRecord {
    std::uint64_t offsetNs = 0; ///< since the start, at the interval's end
    std::optional<double> signal; ///< the target's signal; none when it could not be read
    std::optional<double> slack;
    Knobs knobs; ///< in force during the interval
    std::optional<double> beThroughput; ///< best-effort instructions per second (or MBM bytes per second)
    std::optional<double> lcOccupancyBytes;
};

/// Intervals (and decisions) a result keeps at most: a day at 100 ms is 864000, so a run without end drops the
/// oldest instead of growing without bound.
inline constexpr std::size_t kKeptIntervals = 100'000;

struct ProtectResult {
    std::string policy;
    Target target;
    KnobLimits limits;
    std::vector<std::string> beGroups;
    std::vector<IntervalRecord> intervals; ///< the last kKeptIntervals
    bool intervalsDropped = false; ///< older intervals were dropped (a note says so)
    std::vector<Decision> decisions; ///< the last kKeptIntervals (every one is also passed to onDecision)
    std::vector<std::uint64_t> loadStepsNs; ///< offsets of the scenario's `note load step` lines
    std::string throughputUnit; ///< "instructions/s" or "memory bytes/s (no PMU counts)"
    std::vector<std::string> startAllocation; ///< the best-effort groups' lines found at the start
    std::vector<std::string> restoreLog;
    /// The best-effort groups' lines read after the run, in the order of startAllocation: equal to it when the start
    /// allocation came back.
    std::vector<std::string> endAllocation;
    unsigned writes = 0; ///< every schemata write (restores included)
    bool restored = true; ///< the start allocation reads back (when it was written back)
    bool stopped = false;
    bool simulated = false;
    std::string pmu; ///< how the protected group's counts were counted, or why not
    std::uint64_t elapsedNs = 0;
    std::optional<Error> error; ///< why the run ended early
    std::vector<std::string> notes;
};

struct ProtectHooks {
    std::function<bool()> stopRequested; ///< polled every interval: true restores and returns
    std::function<void(const engine::EngineEvent&)> onEvent;
    std::function<void(const RdtSampleBatch&)> onBatch;
    std::function<void(const Decision&, std::uint64_t timeNs)> onDecision;
    std::function<void(const IntervalRecord&)> onInterval;
};

/// Runs the controller. Fails before anything is written when a group is unknown, the source cannot be written
/// (the engine's writability says why), the machine has no L3 CAT, or the policy or target is unknown.
Result<ProtectResult> runProtect(
    engine::Engine& engine, const ProtectSettings& settings, const ProtectHooks& hooks = {});

/// The best-effort groups by default: every control group but `lcGroup` and the default group.
std::vector<std::string> defaultBestEffortGroups(engine::Engine& engine, const std::string& lcGroup);

} // namespace rdt::protect
