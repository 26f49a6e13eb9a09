// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A PMU capture of the GUI, live or simulated, through the capture service (engine/Engine.h), the same front door the
// CLI's `pmu` commands use: the engine opens the recipes (perf_event_open per recipe and core PMU, the software
// cpu-clock recipe, or one simulated core per recipe), names the functions (records' mmaps, /proc/PID/maps,
// kallsyms, the simulated program's table) and hands out batches with the decoded samples and those names
// (PmuRequest::keepSamples). Each step here appends the batches to PmuData. The engine may be local or an agent's
// (remote/RemoteEngine.h); nothing here opens a perf event or runs the simulator itself.

#include "PmuData.h"
#include "PmuRecipeKind.h"
#include "core/Result.h"
#include "engine/Engine.h"
#include "pmu/PerfSession.h"
#include "simpmu/SimPmuModel.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rdt::pmu {

/// The engine's capture kind for a recipe of the GUI's menu.
engine::PmuCaptureKind captureKindOf(PmuRecipeKind kind);

/// What the GUI's simulated PMU runs.
struct PmuSimOptions {
    PmuRecipeKind kind = PmuRecipeKind::All; ///< not CpuClock: the simulator models the hardware recipes
    double memoryScale = 1.0;
    /// The synthetic program (SimProgram::named): "" = the request server, "frontend" (an interpreter), "backend"
    /// (a hash join), as a lesson's `pmu` action names them.
    std::string program;
    SimPmuModel model; ///< the simulated CPU's PMU generation (simulatedPmuModel of the machine's CPUID)
    /// The simulated machine's control group the program runs in (its L3 mask is the program's L3: PmuRequest::
    /// catGroup, on the engine's own machine); "" = the PMU's own caches.
    std::string catGroup;
};

/// A live capture of `kind` on `target`, with every sample kept (the GUI re-aggregates any time range).
engine::PmuRequest liveRequest(PmuRecipeKind kind, const PerfTarget& target);
/// The simulated PMU running `cyclesPerStep` cycles every `intervalMs`: its clock is set to that rate, so the records'
/// timestamps advance with the wall clock (not by 20 ms per second).
engine::PmuRequest simulatedRequest(const PmuSimOptions& options, int intervalMs, std::uint64_t cyclesPerStep);

/// Appends one engine batch to `data`: the engine's names first (so the samples resolve to them), then the samples,
/// the lost count and the TMA intervals, each part's rows in the series `seriesOfPart` gives.
void appendBatch(PmuData& data, const engine::PmuBatch& batch, const std::vector<std::uint32_t>& seriesOfPart);

class PmuCaptureRun {
public:
    /// Starts `request` through `engine`; fails with the engine's reason and advice.
    static Result<std::unique_ptr<PmuCaptureRun>> start(
        std::shared_ptr<engine::Engine> engine, const engine::PmuRequest& request);
    /// Shows a capture someone else started and steps (a lesson's, lesson/LessonRun.h): step() only takes its
    /// batches, and neither stop() nor the destructor stops it; its owner does.
    static std::unique_ptr<PmuCaptureRun> follow(
        std::shared_ptr<engine::Engine> engine, const engine::PmuCaptureInfo& info, engine::PmuCaptureKind kind);
    /// Stops the capture (a launched command keeps running) unless it is followed.
    ~PmuCaptureRun();
    PmuCaptureRun(const PmuCaptureRun&) = delete;
    PmuCaptureRun& operator=(const PmuCaptureRun&) = delete;

    /// Drains the capture, reads its TMA groups (one interval per counting part) and appends what came.
    void step(PmuData& data);
    /// Stops the capture and appends what the stop drained.
    void stop(PmuData& data);
    /// A fresh PmuData labelled live (named `what`) or simulated: notes of the capture, TMA series named by core PMU
    /// on hybrid parts.
    PmuData makeData(const std::string& what) const;
    bool simulated() const { return m_info.simulated; }
    bool following() const { return m_following; }
    /// True once a launched command has exited (nothing more will come).
    bool finished() const { return m_finished; }
    const engine::PmuCaptureInfo& info() const { return m_info; }

private:
    PmuCaptureRun() = default;
    void take(PmuData& data);
    /// The TMA series of each counting part (labelled on hybrid parts or when there are several).
    void nameSeries();

    std::shared_ptr<engine::Engine> m_engine;
    engine::PmuCaptureInfo m_info;
    bool m_callStack = false;
    std::vector<std::string> m_tmaSeries; ///< PmuData::tmaSeries
    std::vector<std::uint32_t> m_seriesOfPart; ///< for each part of the capture, its TMA series (0 for sampling)
    bool m_finished = false;
    bool m_stopped = false;
    bool m_following = false;
};

} // namespace rdt::pmu
