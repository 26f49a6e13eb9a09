// SPDX-License-Identifier: GPL-3.0-or-later
#include "SweepRecording.h"
#include "rdt/GroupNames.h"

namespace rdt::experiment {

std::string sweepName(const SweepSettings& s)
{
    return displayGroup(s.group) + (s.kind == SweepKind::Ways ? " ways" : " mba");
}

Status SweepRecording::open(
    engine::Engine& svc, const std::string& file, std::uint64_t pollNs, bool force, const SessionOrigin& origin)
{
    engine::RecordingOptions options;
    options.path = file;
    options.overwrite = force;
    options.origin = origin;
    options.intervalNs = pollNs;
    auto recorder = engine::EngineRecorder::start(svc, options);
    if (!recorder) return recorder.error();
    m_recorder = std::move(*recorder);
    return {};
}

void SweepRecording::hookEvents(
    std::function<void(const RdtSampleBatch&)>& onBatch, std::function<void(const engine::EngineEvent&)>& onEvent)
{
    (void)onEvent; // events reach the file through the engine's tap
    auto batch = onBatch;
    onBatch = [this, batch](const RdtSampleBatch& b) {
        if (batch) batch(b);
        m_recorder->observe();
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
    m_recorder->marker(timeNs, kind, text);
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
    return m_recorder ? m_recorder->stop(reason) : Status();
}

} // namespace rdt::experiment
