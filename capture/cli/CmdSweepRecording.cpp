// SPDX-License-Identifier: GPL-3.0-or-later
#include "CmdSweepRecording.h"

#include "CmdRdtSource.h"
#include "CmdSessionCreate.h"
#include "engine/SnapshotReadings.h"
#include "session/StateWatcher.h"

#include <variant>

namespace rdt::cli {

std::string sweepName(const experiment::SweepSettings& s)
{
    return displayGroup(s.group) + (s.kind == experiment::SweepKind::Ways ? " ways" : " mba");
}

Status SweepRecording::open(
    engine::Engine& svc, const std::string& file, std::uint64_t pollNs, bool force, const std::string& command)
{
    auto machine = svc.machine();
    if (!machine) return machine.error();
    const auto t0 = svc.nowNs();
    auto writer = createSessionForCli(svc, *machine, file, pollNs, force, command, t0);
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

void SweepRecording::hookSweep(experiment::SweepHooks& hooks, const experiment::SweepSettings& s, unsigned number)
{
    hookEvents(hooks.onBatch, hooks.onEvent);
    auto started = hooks.onStepStart;
    hooks.onStepStart
        = [this, started, s, number](unsigned index, std::uint64_t value, const std::string& written, std::uint64_t t) {
              if (started) started(index, value, written, t);
              stepStarted(number, s, index, value, written, t);
          };
    auto measured = hooks.onStep;
    hooks.onStep = [this, measured, s, number](const experiment::SweepStep& st, unsigned planned) {
        if (measured) measured(st, planned);
        stepMeasured(number, s, st);
    };
}

void SweepRecording::stepStarted(unsigned number, const experiment::SweepSettings& s, unsigned index,
    std::uint64_t value, const std::string& written, std::uint64_t timeNs)
{
    m_stepStart[number] = timeNs;
    marker(timeNs, "sweep",
        "sweep " + sweepName(s) + " step " + std::to_string(index) + " (" + std::to_string(value) + "): " + written);
}

void SweepRecording::stepMeasured(unsigned number, const experiment::SweepSettings& s, const experiment::SweepStep& st)
{
    m_recorder->push(
        session::SweepStepRow { number, st.index, s.kind == experiment::SweepKind::Ways ? "ways" : "mba", s.group,
            st.value, st.written, m_stepStart[number], st.timeNs, st.occupancyBytes, st.totalBps, st.localBps, s.victim,
            st.victimOccupancyBytes, st.victimTotalBps, st.disturbed, st.ipc, st.mpki, st.memoryBound, st.pmuSource });
}

void SweepRecording::marker(std::uint64_t timeNs, const std::string& kind, const std::string& text)
{
    m_recorder->push(session::Marker { timeNs, kind, text });
}

Status SweepRecording::finish(const std::string& reason)
{
    return m_recorder->stop(reason);
}

} // namespace rdt::cli
