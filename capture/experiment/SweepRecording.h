// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sweeps and advisor runs recorded into a session file (docs/EXPERIMENTS.md "Recording"): every poll's samples, the
// allocation events, the groups as they were at the start, a `sweep` marker at each step's start, one row per
// measured step in `sweep_steps` (and `sweep_pmu`), and what the caller says in markers (a sweep's end, the
// advisor's proposal). Only the session's existing tables and markers: docs/SESSION-FORMAT.md. Shared by
// `rdtscope-cli sweep/advise --record` and the GUI's Experiments page ("Record into").

#include "experiment/Sweep.h"
#include "session/Recorder.h"
#include "session/SessionWriter.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace rdt::experiment {

/// Who made a session: meta's command line and tool version ("rdtscope-cli sweep ways --group victim ...",
/// "rdtscope (Experiments page): sweep victim ways").
struct SessionOrigin {
    std::string commandLine;
    std::string toolVersion;
};

/// A new session file described as every session of an engine is: the engine's host, kernel and source in meta,
/// the origin, the machine (capabilities, CPUID snapshot; the simulated CPU's for simulated sources), simulated time
/// for simulated sources. The time axis starts at `startNs` (the engine's clock).
Result<std::unique_ptr<session::SessionWriter>> createEngineSession(engine::Engine& engine,
    const engine::MachineDescription& machine, const std::string& path, std::uint64_t intervalNs, bool overwrite,
    const SessionOrigin& origin, std::uint64_t startNs);

class SweepRecording {
public:
    /// A new session at `file` (createEngineSession), with the groups' allocations and memberships now.
    Status open(
        engine::Engine& engine, const std::string& file, std::uint64_t pollNs, bool force, const SessionOrigin& origin);
    bool isOpen() const { return m_recorder != nullptr; }
    /// Samples, allocation changes and scenario lines reported through these hooks go into the file too (the
    /// hooks the caller set still run first).
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
    std::unique_ptr<session::Recorder> m_recorder;
    std::map<unsigned, std::uint64_t> m_stepStart; ///< per sweep: when its current step was written
};

/// "victim ways", "streamer mba": how markers name a sweep.
std::string sweepName(const SweepSettings& settings);

} // namespace rdt::experiment
