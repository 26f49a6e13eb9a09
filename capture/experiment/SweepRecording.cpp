// SPDX-License-Identifier: GPL-3.0-or-later
#include "SweepRecording.h"
#include "rdt/GroupNames.h"

#include "core/Time.h"
#include "engine/SnapshotReadings.h"
#include "rdt/CapabilitiesText.h"
#include "session/StateWatcher.h"

#include <variant>

namespace rdt::experiment {

std::string sweepName(const SweepSettings& s)
{
    return displayGroup(s.group) + (s.kind == SweepKind::Ways ? " ways" : " mba");
}

Result<std::unique_ptr<session::SessionWriter>> createEngineSession(engine::Engine& engine,
    const engine::MachineDescription& machineInfo, const std::string& path, std::uint64_t intervalNs, bool overwrite,
    const SessionOrigin& origin, std::uint64_t startNs)
{
    const engine::SourceDescription& source = engine.source();
    const bool sim = !source.simulation.empty(); // a simulated machine runs behind the source
    session::SessionMeta meta;
    meta.startWallNs = wallClockNs();
    meta.host = machineInfo.hostname;
    meta.kernel = machineInfo.kernel;
    meta.source = source.kind + (sim ? ":" + source.scenario : std::string());
    meta.simulated = source.simulated;
    meta.toolVersion = origin.toolVersion;
    meta.commandLine = origin.commandLine;
    meta.scenario = sim ? source.scenario : std::string();
    meta.intervalNs = intervalNs;
    meta.timeIsSimulated = sim;
    session::MachineInfo machine;
    machine.description = sim ? source.simulation : source.backend;
    machine.topology = formatCapabilitiesText(machineInfo.capabilities);
    machine.cpuidJson = machineInfo.cpuidJson; // the simulated CPU's is labelled simulated in meta
    meta.startMonoNs = startNs;
    session::WriterOptions wopt;
    wopt.overwrite = overwrite;
    return session::SessionWriter::create(path, meta, machine, wopt);
}

Status SweepRecording::open(
    engine::Engine& svc, const std::string& file, std::uint64_t pollNs, bool force, const SessionOrigin& origin)
{
    auto machine = svc.machine();
    if (!machine) return machine.error();
    const auto t0 = svc.nowNs();
    auto writer = createEngineSession(svc, *machine, file, pollNs, force, origin, t0);
    if (!writer) return writer.error();
    m_recorder = std::make_unique<session::Recorder>(std::move(writer.value()));
    m_recorder->start();
    session::StateWatcher watcher;
    const auto snap = svc.snapshot(/*withTasks=*/true);
    if (snap.result.ok) {
        auto initial = watcher.observe(t0, engine::readingsOf(snap));
        for (auto& a : initial.allocations)
            m_recorder->push(std::move(a));
        for (auto& m : initial.memberships)
            m_recorder->push(std::move(m));
    }
    return {};
}

void SweepRecording::hookEvents(
    std::function<void(const RdtSampleBatch&)>& onBatch, std::function<void(const engine::EngineEvent&)>& onEvent)
{
    auto batch = onBatch;
    onBatch = [this, batch](const RdtSampleBatch& b) {
        if (batch) batch(b);
        m_recorder->push(b);
    };
    auto event = onEvent;
    onEvent = [this, event](const engine::EngineEvent& e) {
        if (event) event(e);
        if (const auto* a = std::get_if<AllocationChanged>(&e)) m_recorder->push(*a);
        if (const auto* m = std::get_if<SimulationEvent>(&e))
            m_recorder->push(session::Marker { m->timeNs, m->note ? "note" : "scenario", m->text });
    };
}

void SweepRecording::hookSweep(SweepHooks& hooks, const SweepSettings& s, unsigned number)
{
    hookEvents(hooks.onBatch, hooks.onEvent);
    auto started = hooks.onStepStart;
    hooks.onStepStart
        = [this, started, s, number](unsigned index, std::uint64_t value, const std::string& written, std::uint64_t t) {
              if (started) started(index, value, written, t);
              stepStarted(number, s, index, value, written, t);
          };
    auto measured = hooks.onStep;
    hooks.onStep = [this, measured, s, number](const SweepStep& st, unsigned planned) {
        if (measured) measured(st, planned);
        stepMeasured(number, s, st);
    };
}

void SweepRecording::stepStarted(unsigned number, const SweepSettings& s, unsigned index, std::uint64_t value,
    const std::string& written, std::uint64_t timeNs)
{
    m_stepStart[number] = timeNs;
    marker(timeNs, "sweep",
        "sweep " + sweepName(s) + " step " + std::to_string(index) + " (" + std::to_string(value) + "): " + written);
}

void SweepRecording::stepMeasured(unsigned number, const SweepSettings& s, const SweepStep& st)
{
    m_recorder->push(session::SweepStepRow { number, st.index, s.kind == SweepKind::Ways ? "ways" : "mba", s.group,
        st.value, st.written, m_stepStart[number], st.timeNs, st.occupancyBytes, st.totalBps, st.localBps, s.victim,
        st.victimOccupancyBytes, st.victimTotalBps, st.disturbed, st.ipc, st.mpki, st.memoryBound, st.pmuSource });
}

void SweepRecording::marker(std::uint64_t timeNs, const std::string& kind, const std::string& text)
{
    m_recorder->push(session::Marker { timeNs, kind, text });
}

Status SweepRecording::finishSweep(engine::Engine& svc, const SweepSettings& s, const Result<SweepResult>& result)
{
    if (!result) {
        // Refused before its first write: the reason is the file's one marker.
        marker(svc.nowNs(), "sweep", "sweep " + sweepName(s) + " refused: " + result.error().toString());
        return finish("sweep refused");
    }
    const std::string unit = s.kind == SweepKind::Ways ? "ways" : "% MB";
    const auto& r = *result;
    marker(svc.nowNs(), "sweep",
        "sweep " + sweepName(s) + " "
            + (r.completed      ? "done"
                    : r.stopped ? "stopped"
                                : "failed")
            + ": knee " + r.knees.bandwidth.explain(unit)
            + (r.restored ? "; original allocation restored" : "; the original allocation was NOT restored"));
    return finish(r.stopped ? "sweep stopped" : "sweep ended");
}

Status SweepRecording::finish(const std::string& reason)
{
    return m_recorder->stop(reason);
}

} // namespace rdt::experiment
