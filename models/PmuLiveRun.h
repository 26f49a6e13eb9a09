// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Live capture for the GUI through the capture service (engine/Engine.h), the same front door the CLI's `pmu`
// commands use: the engine opens the recipes (perf_event_open per recipe and core PMU, or the software cpu-clock
// recipe), names the functions (records' mmaps, /proc/PID/maps, kallsyms) and hands out batches with the decoded
// samples and those names (PmuRequest::keepSamples). Each step here appends the batches to PmuData. The engine
// may be local or an agent's (remote/RemoteEngine.h); nothing here opens a perf event itself.

#include "PmuData.h"
#include "PmuLive.h"
#include "core/Result.h"
#include "engine/Engine.h"
#include "pmu/PerfSession.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rdt::pmu {

/// The engine's capture kind for a recipe of the GUI's menu.
engine::PmuCaptureKind captureKindOf(PmuRecipeKind kind);

/// Appends one engine batch to `data`: the engine's names first (so the samples resolve to them), then the samples,
/// the lost count and the TMA intervals, each part's rows in the series `seriesOfPart` gives.
void appendBatch(PmuData& data, const engine::PmuBatch& batch, const std::vector<std::uint32_t>& seriesOfPart);

class PmuLiveRun {
public:
    /// Starts `kind` on `target` through `engine`; fails with the engine's reason and advice.
    static Result<std::unique_ptr<PmuLiveRun>> start(
        std::shared_ptr<engine::Engine> engine, PmuRecipeKind kind, const PerfTarget& target);
    /// Stops the capture (a launched command keeps running).
    ~PmuLiveRun();
    PmuLiveRun(const PmuLiveRun&) = delete;
    PmuLiveRun& operator=(const PmuLiveRun&) = delete;

    /// Drains the capture, reads its TMA groups (one interval per counting part) and appends what came.
    void step(PmuData& data);
    /// Stops the capture and appends what the stop drained.
    void stop(PmuData& data);
    /// A fresh PmuData labelled live: notes of the capture, TMA series named by core PMU on hybrid parts.
    PmuData makeData(const std::string& what) const;
    /// True once a launched command has exited (nothing more will come).
    bool finished() const { return m_finished; }
    const engine::PmuCaptureInfo& info() const { return m_info; }

private:
    PmuLiveRun() = default;
    void take(PmuData& data);

    std::shared_ptr<engine::Engine> m_engine;
    engine::PmuCaptureInfo m_info;
    bool m_callStack = false;
    std::vector<std::string> m_tmaSeries; ///< PmuData::tmaSeries
    std::vector<std::uint32_t> m_seriesOfPart; ///< for each part of the capture, its TMA series (0 for sampling)
    bool m_finished = false;
    bool m_stopped = false;
};

} // namespace rdt::pmu
