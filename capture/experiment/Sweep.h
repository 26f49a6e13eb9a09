// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An experiment on one control group: a way sweep (its L3 mask from the start mask down to the minimum, one way per
// step) or a bandwidth sweep (its MB value from 100 % down to the minimum at the hardware's granularity), each step
// applied as one transaction of the allocation engine, held for a settle time and then measured. The groups'
// original allocations always come back: at the end, on an error, and when the caller asks to stop (SIGINT/SIGTERM
// in the CLI, the Stop button in the GUI). Method and defaults: docs/EXPERIMENTS.md.

#include "Knee.h"
#include "engine/Engine.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rdt::experiment {

enum class SweepKind { Ways, Bandwidth };

struct SweepSettings {
    SweepKind kind = SweepKind::Ways;
    std::string group; ///< control group path ("" = default group)
    /// Bandwidth sweeps: a second group watched at every step (the neighbour the cap is meant to protect).
    std::string victim;
    /// Way sweeps: groups moved onto the ways the swept group does not hold at each step, so its curve is the
    /// curve it would have alone (what a partition gives it, and what the advisor needs).
    std::vector<std::string> isolate;
    bool fromFull = false; ///< way sweeps: start from the full mask rather than the group's current one
    std::uint64_t settleNs = 1'000'000'000; ///< after each change, before measuring (occupancy lags, SDM 20.19)
    std::uint64_t measureNs = 2'000'000'000;
    std::uint64_t pollNs = 250'000'000; ///< polls during measure (clamped by the counter width, SDM 20.18.8)
    /// Wait in real time between polls. Real sources always do; simulated ones run as fast as they can unless set.
    bool paced = false;
    /// Hold a simulated scenario's timed steps during the sweep (off when the caller holds them for longer).
    bool holdScenario = true;
    double tolerance = kDefaultKneeTolerance;
};

/// What one step measured, summed over the monitoring domains.
struct SweepStep {
    unsigned index = 0;
    std::uint64_t value = 0; ///< ways (popcount of the mask) or the MB value written
    std::string written; ///< "L3:0=7f0" (what the transaction applied, normalised)
    std::uint64_t timeNs = 0; ///< source clock at the end of the measurement
    double occupancyBytes = 0; ///< mean over the measurement's polls
    double totalBps = 0; ///< MBM total over the measurement
    double localBps = 0;
    double victimOccupancyBytes = 0; ///< bandwidth sweeps with a victim
    double victimTotalBps = 0;
    std::string disturbed; ///< another writer changed an allocation during this step ("" when none did)
    // The swept group's PMU figures over the measurement (none when the PMU is unavailable: SweepResult::pmu says
    // why, or when its tasks ran no cycles).
    std::optional<double> ipc; ///< instructions per cycle
    std::optional<double> mpki; ///< LLC misses per thousand instructions
    std::optional<double> memoryBound; ///< share of cycles waiting on memory (TMA Memory Bound), 0..1
    std::string pmuSource; ///< how they were counted, or why there are none (SweepPmu's method or reason)
};

/// Where the per-step PMU figures come from, or why there are none.
struct SweepPmu {
    bool available = false;
    std::string method; ///< how they were counted ("simulated: ...")
    std::string unavailable; ///< why not (reason and advice)
};

/// The knees of a finished sweep, per curve.
struct SweepKnees {
    /// Memory traffic. Ways: the group's misses (lower is better), the cache's utility curve. MB: the group's own
    /// throughput (higher is better): the knee is the tightest cap that costs it nothing.
    Knee bandwidth;
    Knee occupancy; ///< what fits (higher is better)
    /// Bandwidth sweeps with a victim: the largest cap on the group at which the victim's occupancy is within the
    /// tolerance of its best.
    Knee victimOccupancy;
};

struct SweepResult {
    SweepSettings settings;
    std::string resourceText; ///< "L3" or "L3CODE+L3DATA" or "MB"
    std::vector<SweepStep> steps;
    SweepKnees knees;
    bool completed = false; ///< every planned step ran
    bool stopped = false; ///< the caller asked to stop
    std::optional<Error> error; ///< why the sweep ended early (not a stop)
    bool restored = false; ///< every touched group reads back as before the sweep
    std::vector<std::string> restoreLog; ///< what the restore wrote and read back
    std::vector<std::string> notes; ///< scenario steps held, contiguous masks used, ...
    bool simulated = false;
    SweepPmu pmu;
};

/// What the sweep reports while it runs (the CLI prints rows, the GUI draws the curve and the progress bar).
struct SweepHooks {
    std::function<bool()> stopRequested; ///< polled between polls; true: restore and return
    std::function<void(const SweepStep&, unsigned planned)> onStep;
    /// Progress within the whole sweep: elapsed and planned source-clock time.
    std::function<void(std::uint64_t elapsedNs, std::uint64_t totalNs)> onProgress;
    std::function<void(const engine::EngineEvent&)> onEvent; ///< events drained meanwhile (scenario lines, ...)
    std::function<void(const RdtSampleBatch&)> onBatch; ///< every poll's samples
    /// A step's allocation was written (before its settle time): its number, value and what was written.
    std::function<void(unsigned index, std::uint64_t value, const std::string& written, std::uint64_t timeNs)>
        onStepStart;
};

/// Plans, runs and restores one sweep on `engine`. A sweep that cannot start (unknown group, no CAT, too few
/// steps for a curve, a step the allocation rules refuse) fails before anything is written, saying why.
Result<SweepResult> runSweep(engine::Engine& engine, const SweepSettings& settings, const SweepHooks& hooks = {});

/// The knees of the steps measured so far (also what runSweep stores in the result).
SweepKnees kneesOf(const SweepSettings& settings, const std::vector<SweepStep>& steps);

} // namespace rdt::experiment
