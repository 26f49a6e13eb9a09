// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "core/Result.h"

#include <cerrno>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdt {

/// Something the scenario did or said (a lesson note, or a timed command and its outcome).
struct SimulationEvent {
    std::uint64_t timeNs = 0; ///< simulated time
    std::string text;
    bool ok = true; ///< false: a scenario command failed (text holds the kernel's or the SDM's reason)
    bool note = false; ///< a lesson note rather than a command
};

/// What the simulated machine's model counted for a set of its threads, cumulative since each started (the
/// simulated PMU of a resctrl group's tasks; the instruction and stall rules are capture/sim ThreadStats').
struct SimulatedTaskCounts {
    std::size_t threads = 0; ///< simulated threads among the PIDs asked for
    double cycles = 0;
    double instructions = 0;
    double llcMisses = 0; ///< accesses served by memory (local or remote)
    double memoryStallCycles = 0;
};

/// The handle on a simulated machine that a `sim` / `sim-msr` source exposes. The sampler (and the GUI's frame
/// pump) advance simulated time through it; everything it produces is simulated and labelled so.
/// Implementations serialise advance() against the backend's reads and writes (they share one lock).
class SimulationControl {
public:
    virtual ~SimulationControl() = default;
    /// Current simulated time in ns since the scenario started.
    virtual std::uint64_t nowNs() const = 0;
    /// Runs the simulated machine (workloads, caches, counters, the scenario's timed steps) up to `timeNs`.
    virtual void advanceTo(std::uint64_t timeNs) = 0;
    virtual std::string scenarioName() const = 0;
    /// One line for status bars: "simulated Xeon Gold 6154, scenario noisy-neighbour".
    virtual std::string describe() const = 0;
    /// Events since the last call (each is returned once). Sources without a scenario script return none.
    virtual std::vector<SimulationEvent> takeEvents() { return {}; }
    /// The simulated CPU's CPUID answers as rdtscope's JSON snapshot (platform/CpuidDump.h), so a recorded
    /// session describes the simulated machine as it would a real one. Empty when unknown.
    virtual std::string cpuidJson() const { return {}; }
    /// Holds (true) or releases the scenario's timed steps: an experiment measuring the allocation it set must not
    /// see a lesson step rewrite it meanwhile. Steps due while held run at the first advance after the release.
    /// False when the source has no steps to hold.
    virtual bool holdTimedSteps(bool hold)
    {
        (void)hold;
        return false;
    }
    /// The model's counts for the simulated threads whose PIDs are listed. None when the source has no such model.
    virtual std::optional<SimulatedTaskCounts> taskCounts(const std::vector<unsigned>& pids) const
    {
        (void)pids;
        return std::nullopt;
    }
    /// Remounts the simulated resctrl with L3 CDP on or off (the kernel enables CDP only at mount time,
    /// Documentation/filesystems/resctrl.rst) and opens a backend over the new mount. The groups are re-made with
    /// their tasks and CPUs, their allocations at the defaults. Fails before anything changed; on success the old
    /// mount is gone, so the caller must stop using every backend it holds over it (and drop it) at once.
    virtual Result<std::unique_ptr<RdtBackend>> remountWithCdp(bool cdp)
    {
        (void)cdp;
        return errnoError(ENOTSUP, "this simulated source has no resctrl mount to remount with or without CDP",
            "run the lesson or scenario on the `sim` source (the resctrl emulation)");
    }
};

} // namespace rdt
