// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sweeps and advisor runs recorded into a session file (docs/EXPERIMENTS.md "Recording"): every poll's samples, the
// allocation events, the groups as they were at the start, a `sweep` marker at each step's start, one row per
// measured step in `sweep_steps` (and `sweep_pmu`), and what the caller says in markers (a sweep's end, the
// advisor's proposal). Only the session's existing tables and markers: docs/SESSION-FORMAT.md. Shared by
// `rdtscope-cli sweep/advise --record` and the GUI's Experiments page ("Record into"). The file, its samples and
// events are the one recorder's (engine/EngineRecorder.h); this adds what a sweep says of itself.

#include "engine/EngineRecorder.h"
#include "experiment/Sweep.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace rdt::experiment {

/// Who made a session (engine/EngineRecorder.h).
using SessionOrigin = engine::SessionOrigin;

class SweepRecording {
public:
    /// A new session at `file` (engine::EngineRecorder: the engine's description, the groups' state now, every
    /// event from now on) that says it was sampled every `pollNs`.
    Status open(
        engine::Engine& engine, const std::string& file, std::uint64_t pollNs, bool force, const SessionOrigin& origin);
    bool isOpen() const { return m_recorder != nullptr; }
    /// Samples, allocation changes and scenario lines reach the file through the engine's tap; after each batch
    /// the hook also records the group state no event reported (a scenario's write, tasks moving). The hooks the
    /// caller set still run first; both run on the thread that drives the engine.
    void hookEvents(
        std::function<void(const RdtSampleBatch&)>& onBatch, std::function<void(const engine::EngineEvent&)>& onEvent);
    /// The steps of sweep number `number` of the session (1, 2, ...): markers at their start, rows when measured.
    void hookSweep(SweepHooks& hooks, const SweepSettings& settings, unsigned number);
    /// A step of sweep `number` was written: its `sweep` marker ("sweep victim ways step 3 (8): L3:0=ff").
    void stepStarted(unsigned number, const SweepSettings& settings, unsigned index, std::uint64_t value,
        const std::string& written, std::uint64_t timeNs);
    /// A step of sweep `number` was measured: its row of `sweep_steps`.
    void stepMeasured(unsigned number, const SweepSettings& settings, const SweepStep& step);
    void marker(std::uint64_t timeNs, const std::string& kind, const std::string& text);
    /// The sweep's last marker (refused with the reason, or done/stopped/failed with the knee and whether the
    /// allocation came back), then the file is closed; the error when writing failed.
    Status finishSweep(engine::Engine& engine, const SweepSettings& settings, const Result<SweepResult>& result);
    /// Writes what is queued and closes the file; the error when writing failed.
    Status finish(const std::string& reason);

private:
    std::unique_ptr<engine::EngineRecorder> m_recorder;
    std::map<unsigned, std::uint64_t> m_stepStart; ///< per sweep: when its current step was written
};

/// "victim ways", "streamer mba": how markers name a sweep.
std::string sweepName(const SweepSettings& settings);

} // namespace rdt::experiment
