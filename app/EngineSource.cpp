// SPDX-License-Identifier: GPL-3.0-or-later
#include "EngineSource.h"
#include "session/SimulationMarker.h"

#include "engine/CaptureService.h"
#include "engine/Engine.h"
#include "engine/ReplayEngine.h"
#include "engine/SnapshotReadings.h"
#include "models/EngineAllocation.h"
#include "platform/CpuidDump.h"
#include "rdt/CapabilitiesText.h"
#include "rdt/UserIds.h"
#include "rdt/VendorFeaturesText.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <deque>
#include <mutex>
#include <optional>

namespace {

using rdt::engine::Engine;

/// Keeps the engine alive for the bundle's adapters; sampling stops before the engine goes.
struct EngineHolder {
    std::unique_ptr<Engine> engine;
    /// Sees every drained event first (a lesson run watching for the student's action), on the GUI thread.
    std::function<void(const rdt::engine::EngineEvent&)> tap;
    ~EngineHolder()
    {
        if (engine) engine->stopSampling();
    }
};

class EngineFeed : public SampleFeed {
public:
    /// `playback`: the engine plays a recording (a replay), whose seeks reset the plots.
    EngineFeed(std::shared_ptr<EngineHolder> holder, SourceDescription description,
        rdt::engine::ReplayPlayback* playback = nullptr)
        : m_holder(std::move(holder))
        , m_description(std::move(description))
        , m_playback(playback)
    { }
    SourceDescription description() const override { return m_description; }
    void drain(DrainedFrame& out, std::size_t maxBatches) override
    {
        Engine& engine = *m_holder->engine;
        if (m_playback && m_playback->takeSeek()) { // what was queued before the seek is no longer wanted
            m_pending.clear();
            out.reset = true;
        }
        // A replay delivers as fast as it is drained: take more only once the frames have shown what is queued,
        // so playing as fast as possible never queues more than a drain's worth.
        if (m_playback && m_pending.size() >= maxBatches) {
            releasePending(out, maxBatches);
            return;
        }
        auto events = engine.drainEvents();
        const auto lost = engine.connectionLost();
        if (m_holder->tap)
            for (const auto& e : events)
                m_holder->tap(e);
        for (auto& e : events) {
            if (auto* b = std::get_if<rdt::RdtSampleBatch>(&e)) {
                m_pending.push_back(std::move(*b));
            } else if (auto* c = std::get_if<rdt::AllocationChanged>(&e)) {
                out.changes.push_back(std::move(*c));
            } else if (auto* s = std::get_if<rdt::SimulationEvent>(&e)) {
                // The scenario's scripted allocation writes, a CDP remount and any failed command become labelled
                // markers; its lesson notes and task placements stay out of the plot. Writes a note announces at the
                // same time are one marker saying the note's headline ("Fence the streamer into 2 ways"), not the
                // raw commands; a failed command always says what failed.
                if (s->note) {
                    m_note = { s->timeNs, rdt::session::noteHeadline(s->text) };
                } else if (s->text.find("schemata") != std::string::npos
                    || s->text.find("mount -t resctrl") != std::string::npos || !s->ok) {
                    const bool announced = s->ok && m_note && m_note->first == s->timeNs && !m_note->second.empty();
                    const std::string text = "scenario: " + (announced ? m_note->second : s->text);
                    const bool repeat = announced && m_lastMarker && *m_lastMarker == std::make_pair(s->timeNs, text);
                    if (!repeat) out.notes.push_back({ s->timeNs, text, s->ok });
                    m_lastMarker = std::make_pair(s->timeNs, text);
                }
            } else if (auto* err = std::get_if<rdt::engine::EngineError>(&e)) {
                // The lost connection gets one marker of its own below, not this error's long text as well.
                if (!lost || err->where != engine.location())
                    out.notes.push_back({ err->timeNs, err->where + ": " + err->reason, false });
            }
        }
        releasePending(out, maxBatches);
        if (lost && !m_lostReported) {
            m_lostReported = true;
            out.connectionLost = lost->toString();
            out.notes.push_back({ m_lastTimeNs, "lost " + engine.location(), false });
        }
        if (!out.batches.empty()) m_lastTimeNs = out.batches.back().timeNs;
        out.droppedTotal = engine.droppedEvents();
    }

private:
    /// A frame after a stall takes at most maxBatches; the rest waits for the next frame, in order.
    void releasePending(DrainedFrame& out, std::size_t maxBatches)
    {
        for (std::size_t i = 0; i < maxBatches && !m_pending.empty(); ++i) {
            out.batches.push_back(std::move(m_pending.front()));
            m_pending.pop_front();
        }
    }

    std::shared_ptr<EngineHolder> m_holder;
    SourceDescription m_description;
    rdt::engine::ReplayPlayback* m_playback = nullptr; ///< in the holder's engine
    std::deque<rdt::RdtSampleBatch> m_pending;
    bool m_lostReported = false;
    std::optional<std::pair<std::uint64_t, std::string>> m_note; ///< the last scenario note: its time, headline
    std::optional<std::pair<std::uint64_t, std::string>> m_lastMarker; ///< the last scenario marker made
    std::uint64_t m_lastTimeNs = 0; ///< a lost engine has no clock: its marker goes at the last sample
};

rdt::Status statusOf(const rdt::engine::CommandResult& r)
{
    if (r.ok) return {};
    return r.error();
}

/// Groups dock operations as engine commands.
class EngineGroupControl : public GroupControl {
public:
    EngineGroupControl(std::shared_ptr<EngineHolder> holder, std::string readOnly)
        : m_holder(std::move(holder))
        , m_readOnly(std::move(readOnly))
    { }
    rdt::Result<std::vector<GroupDescription>> listGroups() override
    {
        const auto snapshot = m_holder->engine->snapshot(/*withTasks=*/true);
        if (!snapshot.result.ok) return snapshot.result.error();
        std::vector<GroupDescription> out;
        for (const auto& g : snapshot.groups) {
            GroupDescription d;
            d.path = g.info.path;
            d.monitorOnly = !g.info.isControl;
            d.tasks.assign(g.tasks.begin(), g.tasks.end());
            if (g.cpusKnown) d.cpus = rdt::formatIdList(g.cpus);
            out.push_back(std::move(d));
        }
        return out;
    }
    std::string whyReadOnly() const override { return m_readOnly; }
    rdt::Status createGroup(const std::string& path, bool monitorOnly) override
    {
        Engine& engine = *m_holder->engine;
        if (!monitorOnly) return statusOf(engine.createGroup(path));
        const auto pos = path.find("mon_groups/");
        const std::string parent = pos == std::string::npos || pos == 0 ? std::string() : path.substr(0, pos - 1);
        const std::string name = pos == std::string::npos ? path : path.substr(pos + 11);
        return statusOf(engine.createMonitorGroup(parent, name));
    }
    rdt::Status removeGroup(const std::string& path) override { return statusOf(m_holder->engine->deleteGroup(path)); }
    rdt::Status addTasks(const std::string& path, const std::vector<int>& pids) override
    {
        std::vector<unsigned> ids;
        const auto bound = rdt::pidBound();
        for (int pid : pids) {
            if (pid <= 0 || static_cast<std::uint64_t>(pid) >= bound.end)
                return rdt::errnoError(EINVAL, "invalid PID " + std::to_string(pid), bound.why);
            ids.push_back(static_cast<unsigned>(pid));
        }
        return statusOf(m_holder->engine->assignTasks(path, ids));
    }
    rdt::Status setCpus(const std::string& path, const std::string& cpuList) override
    {
        auto machine = m_holder->engine->machine();
        if (!machine) return machine.error();
        auto cpus = rdt::parseUserCpus(cpuList, machine->capabilities);
        if (!cpus) return cpus.error();
        return statusOf(m_holder->engine->assignCpus(path, cpus.value()));
    }

    rdt::Status assignCounters(const std::string& path, int domain, bool assign) override
    {
        auto machine = m_holder->engine->machine();
        if (!machine) return machine.error();
        const auto& mon = machine->capabilities.monitoring;
        if (!mon.counterAssignment())
            return rdt::errnoError(ENOTSUP, "this machine's MBM events count without assigned counters",
                "assignable counters need resctrl's mbm_event mode (info/L3_MON/mbm_assign_mode, AMD ABMC)");
        // Both MBM events, as a row reads Unassigned when either lacks a counter; the first refusal is the answer
        // (e.g. no counter free: the kernel's reason and where to free one).
        for (const auto& [event, present] :
            { std::pair { "mbm_total_bytes", mon.mbmTotal }, { "mbm_local_bytes", mon.mbmLocal } }) {
            if (!present) continue;
            if (auto s = statusOf(m_holder->engine->assignCounter(path, event, domain, assign)); !s) return s;
        }
        return {};
    }

    std::vector<int> counterDomains() override
    {
        auto machine = m_holder->engine->machine();
        if (!machine || !machine->capabilities.monitoring.counterAssignment()) return {};
        auto domains = machine->capabilities.monitoring.domains;
        std::sort(domains.begin(), domains.end());
        return domains;
    }

private:
    std::shared_ptr<EngineHolder> m_holder;
    std::string m_readOnly;
};

/// The replay bar over the engine's playback: the bar counts from the recording's start, the engine on its clock.
class PlaybackControl : public ReplayControl {
public:
    PlaybackControl(std::shared_ptr<EngineHolder> holder, rdt::engine::ReplayPlayback& playback)
        : m_holder(std::move(holder))
        , m_playback(playback)
    { }
    std::uint64_t durationNs() const override { return m_playback.endNs() - m_playback.startNs(); }
    std::uint64_t positionNs() const override { return m_playback.positionNs() - m_playback.startNs(); }
    bool playing() const override { return m_playback.playing(); }
    void setPlaying(bool playing) override { m_playback.setPlaying(playing); }
    double speed() const override { return m_playback.speed(); }
    void setSpeed(double factor) override { m_playback.setSpeed(factor); }
    void seek(std::uint64_t positionNs) override { m_playback.seek(m_playback.startNs() + positionNs); }

private:
    std::shared_ptr<EngineHolder> m_holder; ///< keeps the engine behind m_playback alive
    rdt::engine::ReplayPlayback& m_playback;
};

} // namespace

rdt::Result<SourceBundle> openReplaySource(const QString& path)
{
    auto opened = rdt::engine::ReplayEngine::open(path.toStdString());
    if (!opened) return opened.error();
    rdt::engine::ReplayEngine& replay = **opened;
    auto holder = std::make_shared<EngineHolder>();
    holder->engine = std::move(*opened);
    replay.setPlaying(true);

    SourceDescription description;
    description.kind = SourceKind::Replay;
    description.name = "replay:" + path.toStdString();
    description.reason = replay.source().why;
    // The engine decides what a replay shows (its layout, groups, samples) and that it writes nothing.
    AllocationStateOptions stateOptions;
    stateOptions.simulated = replay.source().simulated;
    stateOptions.writable = false;
    stateOptions.readOnlyReason = replay.source().writability.text();

    SourceBundle bundle;
    bundle.feed = std::make_unique<EngineFeed>(holder, description, &replay);
    bundle.replay = std::make_unique<PlaybackControl>(holder, replay);
    bundle.readAllocation = [&replay, stateOptions] { return readAllocationState(replay, stateOptions); };
    bundle.readOnlyReason = QString::fromStdString(stateOptions.readOnlyReason);
    if (auto machine = replay.machineReport()) {
        // The Machine page describes the machine the session was recorded on, not this host.
        bundle.remoteMachine = machineFromReport(*machine);
        bundle.machine = std::move(*machine);
    }
    bundle.engine = holder;
    return bundle;
}

rdt::Result<SourceBundle> engineSourceBundle(std::unique_ptr<Engine> opened, double rateHz)
{
    auto holder = std::make_shared<EngineHolder>();
    holder->engine = std::move(opened);
    Engine& engine = *holder->engine;
    // Whether allocations can be written is the engine's answer (for a remote engine, the agent's on its machine).
    const std::string readOnly = engine.source().writability.text();
    // What the machine is, decoded once by the engine; the agent's machine, not this host, for a remote engine.
    auto report = engine.machineReport();
    if (!report) return report.error();
    std::optional<MachineDescription> remoteMachine;
    if (!engine.location().empty()) {
        if (!report->describeError.empty()) return rdt::makeError(report->describeError);
        remoteMachine = machineFromReport(*report);
    }
    if (!engine.hasRdt()) return rdt::errnoError(ENODEV, "the engine has no RDT source open");
    const double hz = std::isfinite(rateHz) && rateHz > 0 ? rateHz : 10.0;
    std::vector<std::string> rateNotes;
    if (auto r = engine.setSamplingInterval(static_cast<std::uint64_t>(1e9 / hz)); !r.ok)
        return r.error();
    else
        rateNotes = r.notes;
    auto machine = engine.machine();
    if (!machine) return machine.error();
    // A machine with allocation and no monitoring (L2 CAT on some Atom parts, an MPAM part without CSU/MBWU
    // monitors) is still worth a window: its masks are shown and edited, and the timelines say nothing is measured.
    const bool monitors = machine->capabilities.monitoring.present;
    if (monitors) {
        if (auto started = engine.startSampling(); !started.ok) return started.error();
    }
    const auto& source = engine.source();
    SourceDescription description;
    description.kind = source.simulated ? SourceKind::Simulated : SourceKind::Live;
    // What the CLI's "source:" line says: a real source by its backend ("resctrl at /srv/copy"), so a tree at a path
    // is never taken for this machine's /sys/fs/resctrl; a simulated one by its kind and scenario.
    description.name = source.simulated || source.backend.empty() ? source.kind : source.backend;
    if (!source.scenario.empty()) description.name += ":" + source.scenario;
    description.reason = source.why;
    if (!source.simulation.empty()) description.reason += " \u2014 " + source.simulation;
    description.host = engine.location();
    if (!monitors) {
        description.notMeasured = "this machine has RDT allocation but no RDT monitoring (no CMT/MBM, no "
                                  "info/L3_MON), so occupancy and bandwidth are not sampled; masks can still be "
                                  "edited";
        description.reason += " (allocation only: no RDT monitoring)";
    }
    for (const auto& n : rateNotes)
        description.reason += " (" + n + ")";

    SourceBundle bundle;
    bundle.writer = std::make_unique<EngineAllocationWriter>(engine);
    AllocationStateOptions stateOptions;
    stateOptions.simulated = source.simulated;
    stateOptions.writable = readOnly.empty();
    stateOptions.readOnlyReason = readOnly;
    Engine* raw = &engine;
    bundle.readAllocation = [raw, stateOptions] { return readAllocationState(*raw, stateOptions); };
    bundle.feed = std::make_unique<EngineFeed>(holder, description);
    bundle.groups = std::make_unique<EngineGroupControl>(holder, readOnly);
    bundle.readOnlyReason = QString::fromStdString(readOnly);
    bundle.counterStatus = [raw] {
        auto m = raw->machine(); // read live: available_mbm_cntrs changes with every mkdir and assignment
        return m ? rdt::formatFreeCounters(m->capabilities.monitoring) : std::string();
    };
    bundle.experimentEngine = readOnly.empty() ? &engine : nullptr; // experiments write allocations
    bundle.liveEngine = raw;
    bundle.remoteMachine = std::move(remoteMachine);
    bundle.machine = std::move(*report);
    bundle.setEventTap = [weak = std::weak_ptr<EngineHolder>(holder)](auto tap) {
        if (auto h = weak.lock()) h->tap = std::move(tap);
    };
    bundle.engine = holder;
    return bundle;
}

rdt::Result<SourceBundle> openEngineSource(const std::string& spec, const std::string& scenario, double rateHz,
    bool scenarioSetupOnly, std::uint32_t simTimeScale, const std::string& preset)
{
    rdt::engine::ServiceOptions options;
    options.rdt.spec = spec;
    options.rdt.scenario = scenario;
    options.rdt.scenarioSetupOnly = scenarioSetupOnly;
    options.rdt.simTimeScale = simTimeScale;
    options.rdt.simPreset = preset;
    options.who = "gui";
    options.sncNodeSamples = true; // SNC machines: the Monitor dock's rows per sub-NUMA node
    auto service = rdt::engine::CaptureService::open(options);
    if (!service) return service.error();
    return engineSourceBundle(std::move(*service), rateHz);
}
