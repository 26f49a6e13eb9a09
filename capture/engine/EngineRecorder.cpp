// SPDX-License-Identifier: GPL-3.0-or-later
#include "EngineRecorder.h"

#include "SnapshotReadings.h"
#include "core/Time.h"
#include "rdt/CapabilitiesText.h"
#include "session/SimulationMarker.h"

#include <variant>

namespace rdt::engine {

EngineSessionDescription describeEngineSession(const Engine& engine, const MachineDescription& machineInfo,
    std::uint64_t intervalNs, const SessionOrigin& origin, std::uint64_t startNs)
{
    const SourceDescription& source = engine.source();
    const bool sim = !source.simulation.empty(); // a simulated machine runs behind the source
    EngineSessionDescription d;
    session::SessionMeta& meta = d.meta;
    meta.startWallNs = wallClockNs();
    meta.startMonoNs = startNs;
    meta.host = machineInfo.hostname;
    meta.kernel = machineInfo.kernel;
    meta.source = source.kind + (sim ? ":" + source.scenario : std::string());
    meta.simulated = source.simulated;
    meta.toolVersion = origin.toolVersion;
    meta.commandLine = origin.commandLine;
    meta.scenario = sim ? source.scenario : std::string();
    meta.intervalNs = intervalNs;
    meta.timeIsSimulated = sim;
    d.machine.description = sim ? source.simulation : source.backend;
    d.machine.topology = formatCapabilitiesText(machineInfo.capabilities);
    d.machine.cpuidJson = machineInfo.cpuidJson; // the simulated CPU's is labelled simulated in meta
    return d;
}

EngineRecorder::EngineRecorder(Engine& engine, std::unique_ptr<session::Recorder> recorder, std::string path,
    std::uint64_t startNs, std::uint64_t intervalNs)
    : m_engine(engine)
    , m_recorder(std::move(recorder))
    , m_path(std::move(path))
    , m_startNs(startNs)
    , m_intervalNs(intervalNs)
{ }

Result<std::unique_ptr<EngineRecorder>> EngineRecorder::start(Engine& engine, const RecordingOptions& options)
{
    auto machine = engine.machine();
    if (!machine) return machine.error();
    const std::uint64_t interval = options.intervalNs.value_or(engine.samplingIntervalNs());
    const std::uint64_t t0 = engine.nowNs();
    const auto description = describeEngineSession(engine, *machine, interval, options.origin, t0);
    session::WriterOptions writerOptions;
    writerOptions.overwrite = options.overwrite;
    auto writer = session::SessionWriter::create(options.path, description.meta, description.machine, writerOptions);
    if (!writer) return writer.error();
    auto recorder = std::make_unique<session::Recorder>(std::move(writer.value()), options.recorder);
    std::unique_ptr<EngineRecorder> self(new EngineRecorder(engine, std::move(recorder), options.path, t0, interval));
    self->m_recorder->start();
    // The state at the start first ("initial" rows, what a replay starts from), then every event from now on.
    self->observe();
    EngineRecorder* raw = self.get();
    self->m_tap = engine.addEventTap([raw](const EngineEvent& e) { raw->take(e); });
    return self;
}

EngineRecorder::~EngineRecorder()
{
    (void)stop("recorder destroyed");
}

void EngineRecorder::take(const EngineEvent& event)
{
    // A full queue drops and counts (Recorder::push never blocks the engine's thread).
    if (const auto* batch = std::get_if<RdtSampleBatch>(&event)) {
        m_recorder->push(*batch);
    } else if (const auto* change = std::get_if<AllocationChanged>(&event)) {
        if (change->ok) {
            // Reported by its maker: the next observe() must not report it again.
            std::lock_guard lock(m_watcherMutex);
            m_watcher.acknowledge(change->group, change->resource, change->domain, change->newValue);
        }
        m_recorder->push(*change);
    } else if (const auto* sim = std::get_if<SimulationEvent>(&event)) {
        m_recorder->push(session::markerOf(*sim));
    }
}

void EngineRecorder::record(session::StateWatcher::Changes changes)
{
    for (auto& a : changes.allocations)
        m_recorder->push(std::move(a));
    for (auto& m : changes.memberships)
        m_recorder->push(std::move(m));
}

GroupsSnapshot EngineRecorder::observe()
{
    auto snapshot = m_engine.snapshot(/*withTasks=*/true);
    if (!snapshot.result.ok) return snapshot; // a group state that cannot be read now is read at the next look
    session::StateWatcher::Changes changes;
    {
        std::lock_guard lock(m_watcherMutex);
        changes = m_watcher.observe(snapshot.timeNs, readingsOf(snapshot));
    }
    record(std::move(changes));
    return snapshot;
}

void EngineRecorder::marker(std::uint64_t timeNs, const std::string& kind, const std::string& text)
{
    m_recorder->push(session::Marker { timeNs, kind, text });
}

Status EngineRecorder::stop(const std::string& reason)
{
    if (m_tap) {
        m_engine.removeEventTap(*m_tap);
        m_tap.reset();
    }
    return m_recorder->stop(reason);
}

} // namespace rdt::engine
