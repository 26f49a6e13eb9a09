// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sweeps and advisor runs recorded into a session file (docs/EXPERIMENTS.md "Recording"): every poll's samples, the
// allocation events, the groups as they were at the start, a `sweep` marker at each step's start, one row per
// measured step in `sweep_steps` (and `sweep_pmu`), and what the caller says in markers (a sweep's end, the
// advisor's proposal). Only the session's existing tables and markers: docs/SESSION-FORMAT.md.

#include "experiment/Sweep.h"
#include "session/Recorder.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace rdt::cli {

class SweepRecording {
public:
    /// A new session at `file` for `command` ("sweep", "advise"), with the groups' allocations and memberships now.
    Status open(
        engine::Engine& engine, const std::string& file, std::uint64_t pollNs, bool force, const std::string& command);
    /// Samples, allocation changes and scenario lines reported through these hooks go into the file too (the
    /// hooks the caller set still run first).
    void hookEvents(
        std::function<void(const RdtSampleBatch&)>& onBatch, std::function<void(const engine::EngineEvent&)>& onEvent);
    /// The steps of sweep number `number` of the session (1, 2, ...): markers at their start, rows when measured.
    void hookSweep(experiment::SweepHooks& hooks, const experiment::SweepSettings& settings, unsigned number);
    /// A step of sweep `number` was written: its `sweep` marker ("sweep victim ways step 3 (8): L3:0=ff").
    void stepStarted(unsigned number, const experiment::SweepSettings& settings, unsigned index, std::uint64_t value,
        const std::string& written, std::uint64_t timeNs);
    /// A step of sweep `number` was measured: its row of `sweep_steps`.
    void stepMeasured(unsigned number, const experiment::SweepSettings& settings, const experiment::SweepStep& step);
    void marker(std::uint64_t timeNs, const std::string& kind, const std::string& text);
    /// Writes what is queued and closes the file; the error when writing failed.
    Status finish(const std::string& reason);

private:
    std::unique_ptr<session::Recorder> m_recorder;
    std::map<unsigned, std::uint64_t> m_stepStart; ///< per sweep: when its current step was written
};

/// "victim ways", "streamer mba": how markers name a sweep.
std::string sweepName(const experiment::SweepSettings& settings);

} // namespace rdt::cli
