// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one recorder of an engine's stream into a session file (docs/SESSION-FORMAT.md), for every front end:
// `rdtscope-cli record`, the GUI's Record, sweeps, the advisor and blame runs (experiment/SweepRecording.h). It
// describes the file from the engine (host, kernel, source, scenario, machine, CPUID snapshot, the sampling interval,
// the engine's clock), stores every group's state at the start, and taps the engine's events (Engine::addEventTap):
// sample batches, allocation changes and the scenario's events reach the recorder thread from the thread the engine
// queued them on, never through a front end's drain. It lives beside the engine, not in capture/session, because
// session sits below the engine (docs/ARCHITECTURE.md "Folders and targets").

#include "Engine.h"
#include "session/Recorder.h"
#include "session/StateWatcher.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace rdt::engine {

/// Who made a session: meta's command line and tool version ("rdtscope-cli record -o a.rdts ...", "rdtscope ...").
struct SessionOrigin {
    std::string commandLine;
    std::string toolVersion;
};

struct RecordingOptions {
    std::string path;
    bool overwrite = false; ///< replace an existing session file (the caller asked: --force, a confirmed dialog)
    SessionOrigin origin;
    /// The interval the session says it was sampled at; none: the engine's samplingIntervalNs() now. A sweep
    /// passes the poll interval it sets once the file is open.
    std::optional<std::uint64_t> intervalNs;
    session::RecorderOptions recorder;
};

class EngineRecorder {
public:
    /// Creates the file, records every group's allocations, tasks and CPUs now ("initial" rows) and from then on
    /// every event the engine queues. The time axis starts at engine.nowNs(). `engine` must outlive the recorder.
    static Result<std::unique_ptr<EngineRecorder>> start(Engine& engine, const RecordingOptions& options);
    ~EngineRecorder();
    EngineRecorder(const EngineRecorder&) = delete;
    EngineRecorder& operator=(const EngineRecorder&) = delete;

    /// Reads the groups (Engine::snapshot with tasks) and records what changed since the last look that no event
    /// reported: a scenario's scripted write, tasks moving ("observed" rows), so a replay can seek to any state.
    /// Call it on the thread that drives the engine, at the sampling interval. Returns what it read, for a caller
    /// that shows the groups too (the metrics endpoint).
    GroupsSnapshot observe();
    /// A line of the caller's own (a sweep's step, the advisor's proposal) at `timeNs` on the engine's clock.
    void marker(std::uint64_t timeNs, const std::string& kind, const std::string& text);
    /// Anything else the session stores (a sweep's measured step).
    bool push(session::Recorder::Item item) { return m_recorder->push(std::move(item)); }
    /// Untaps the engine, writes what is queued, closes the file with `reason`; the write error if one happened.
    /// Idempotent.
    Status stop(const std::string& reason);

    const std::string& path() const { return m_path; }
    std::uint64_t startNs() const { return m_startNs; }
    std::uint64_t intervalNs() const { return m_intervalNs; }
    bool failed() const { return m_recorder->failed(); }
    std::uint64_t committedSamples() const { return m_recorder->committedSamples(); }
    std::uint64_t dropped() const { return m_recorder->dropped(); }
    std::uint64_t queueDropped() const { return m_recorder->queueDropped(); }
    std::uint64_t discarded() const { return m_recorder->discarded(); }

private:
    EngineRecorder(Engine& engine, std::unique_ptr<session::Recorder> recorder, std::string path, std::uint64_t startNs,
        std::uint64_t intervalNs);
    void take(const EngineEvent& event);
    void record(session::StateWatcher::Changes changes);

    Engine& m_engine;
    std::unique_ptr<session::Recorder> m_recorder;
    std::string m_path;
    std::uint64_t m_startNs = 0;
    std::uint64_t m_intervalNs = 0;
    std::optional<std::uint64_t> m_tap;
    std::mutex m_watcherMutex; ///< observe() on the driving thread, the tap's acknowledgements on the engine's
    session::StateWatcher m_watcher;
};

/// The file's description, as every session of an engine has it: the engine's host, kernel and source, the scenario
/// and simulated time for simulated sources, the machine (capabilities, CPUID snapshot: the simulated CPU's for the
/// simulator), the interval and the origin. The time axis starts at `startNs` (the engine's clock).
struct EngineSessionDescription {
    session::SessionMeta meta;
    session::MachineInfo machine;
};
EngineSessionDescription describeEngineSession(const Engine& engine, const MachineDescription& machine,
    std::uint64_t intervalNs, const SessionOrigin& origin, std::uint64_t startNs);

} // namespace rdt::engine
