// SPDX-License-Identifier: GPL-3.0-or-later
#include "EngineSource.h"

#include "core/Time.h"
#include "engine/SourceAssembly.h"
#include "models/EngineAllocation.h"
#include "platform/CpuidDump.h"
#include "platform/LiveCpuid.h"
#include "platform/Topology.h"
#include "rdt/AllocationEngine.h"
#include "rdt/CapabilitiesText.h"
#include "rdt/RdtSource.h"
#include "rdt/Sampler.h"
#include "rdt/UserIds.h"

#include <cerrno>
#include <mutex>

namespace {

/// The engine objects one source needs, kept alive by SourceBundle::engine. Declaration order = construction
/// order; the sampler is stopped before anything it reads is destroyed.
struct Engine {
    rdt::RdtSource source;
    std::unique_ptr<rdt::Sampler> sampler;
    std::unique_ptr<rdt::AllocationEngine> allocation;
    std::mutex changesMutex;
    std::vector<rdt::AllocationChanged> changes; ///< filled by the allocation engine's listener

    ~Engine()
    {
        if (sampler) sampler->stop();
    }
};

class EngineFeed : public SampleFeed {
public:
    EngineFeed(std::shared_ptr<Engine> engine, SourceDescription description)
        : m_engine(std::move(engine))
        , m_description(std::move(description))
    { }
    SourceDescription description() const override { return m_description; }
    void drain(DrainedFrame& out, std::size_t maxBatches) override
    {
        auto& queue = m_engine->sampler->queue();
        for (std::size_t i = 0; i < maxBatches; ++i) {
            auto batch = queue.pop();
            if (!batch) break;
            out.batches.push_back(std::move(*batch));
        }
        {
            std::lock_guard lock(m_engine->changesMutex);
            for (auto& c : m_engine->changes)
                out.changes.push_back(std::move(c));
            m_engine->changes.clear();
        }
        // The scenario's scripted allocation writes (and any failed command) become labelled markers too; its lesson
        // notes and task placements stay out of the plot.
        if (auto* sim = m_engine->source.simulation.get()) {
            for (auto& e : sim->takeEvents()) {
                if (!e.note && (e.text.find("schemata") != std::string::npos || !e.ok))
                    out.notes.push_back({ e.timeNs, "scenario: " + e.text, e.ok });
            }
        }
        out.droppedTotal = queue.dropped();
    }

private:
    std::shared_ptr<Engine> m_engine;
    SourceDescription m_description;
};

/// Groups dock operations over the RdtBackend.
class EngineGroupControl : public GroupControl {
public:
    EngineGroupControl(std::shared_ptr<Engine> engine, std::string readOnly)
        : m_engine(std::move(engine))
        , m_readOnly(std::move(readOnly))
    { }
    rdt::Result<std::vector<GroupDescription>> listGroups() override
    {
        auto& backend = *m_engine->source.backend;
        auto groups = backend.listGroups();
        if (!groups) return groups.error();
        std::vector<GroupDescription> out;
        for (const auto& g : groups.value()) {
            GroupDescription d;
            d.path = g.path;
            d.monitorOnly = !g.isControl;
            if (auto tasks = backend.tasks(g.path)) d.tasks.assign(tasks->begin(), tasks->end());
            if (auto cpus = backend.cpus(g.path)) d.cpus = rdt::formatIdList(cpus.value());
            out.push_back(std::move(d));
        }
        return out;
    }
    std::string whyReadOnly() const override { return m_readOnly; }
    rdt::Status createGroup(const std::string& path, bool monitorOnly) override
    {
        auto& backend = *m_engine->source.backend;
        if (!monitorOnly) return backend.createControlGroup(path);
        const auto pos = path.find("mon_groups/");
        const std::string parent = pos == std::string::npos || pos == 0 ? std::string() : path.substr(0, pos - 1);
        const std::string name = pos == std::string::npos ? path : path.substr(pos + 11);
        return backend.createMonitorGroup(parent, name);
    }
    rdt::Status removeGroup(const std::string& path) override { return m_engine->source.backend->removeGroup(path); }
    rdt::Status addTasks(const std::string& path, const std::vector<int>& pids) override
    {
        std::vector<unsigned> ids;
        const auto bound = rdt::pidBound();
        for (int pid : pids) {
            if (pid <= 0 || static_cast<std::uint64_t>(pid) >= bound.end)
                return rdt::errnoError(EINVAL, "invalid PID " + std::to_string(pid), bound.why);
            ids.push_back(static_cast<unsigned>(pid));
        }
        return m_engine->source.backend->assignTasks(path, ids);
    }
    rdt::Status setCpus(const std::string& path, const std::string& cpuList) override
    {
        auto caps = m_engine->source.backend->capabilities();
        if (!caps) return caps.error();
        auto cpus = rdt::parseUserCpus(cpuList, caps.value());
        if (!cpus) return cpus.error();
        return m_engine->source.backend->assignCpus(path, cpus.value());
    }

private:
    std::shared_ptr<Engine> m_engine;
    std::string m_readOnly;
};

} // namespace

rdt::Result<SourceBundle> openEngineSource(const std::string& spec, const std::string& scenario, double rateHz)
{
    rdt::RdtSourceOptions options;
    options.spec = spec;
    options.scenario = scenario;
    auto opened = rdt::openRdtSource(options);
    if (!opened) return opened.error();

    auto engine = std::make_shared<Engine>();
    engine->source = std::move(opened.value());
    rdt::RdtBackend& backend = *engine->source.backend;
    rdt::SimulationControl* sim = engine->source.simulation.get();

    rdt::SamplerConfig config;
    config.rateHz = rateHz;
    config.queueCapacity = 1024;
    engine->sampler = std::make_unique<rdt::Sampler>(backend, config, sim);
    engine->allocation = std::make_unique<rdt::AllocationEngine>(backend);
    if (sim) engine->allocation->setClock([sim] { return sim->nowNs(); });
    Engine* raw = engine.get();
    engine->allocation->setListener([raw](const rdt::AllocationChanged& c) {
        std::lock_guard lock(raw->changesMutex);
        raw->changes.push_back(c);
    });
    if (auto started = engine->sampler->start(); !started) return started.error();

    SourceDescription description;
    description.kind = engine->source.simulated ? SourceKind::Simulated : SourceKind::Live;
    description.name = engine->source.kind;
    if (sim) description.name += ":" + sim->scenarioName();
    description.reason = engine->source.why;
    if (sim) description.reason += " \u2014 " + sim->describe();
    if (!engine->sampler->rateNote().empty()) description.reason += " (" + engine->sampler->rateNote() + ")";

    const std::string resctrlRoot = spec.rfind("resctrl:", 0) == 0 ? spec.substr(8) : std::string("/sys/fs/resctrl");
    SourceBundle bundle;
    const std::string readOnly = allocationReadOnlyReason(engine->source.kind, resctrlRoot);
    bundle.writer = std::make_unique<EngineAllocationWriter>(backend, *engine->allocation);
    AllocationStateOptions stateOptions;
    stateOptions.simulated = engine->source.simulated;
    stateOptions.writable = readOnly.empty();
    stateOptions.readOnlyReason = readOnly;
    // Way counts for the heatmap's info line ("2 of 11 ways"): CPUID.04H of the machine the allocations apply to.
    rdt::LiveCpuid hostCpuid;
    stateOptions.ways = sourceCacheWays(engine->source.simulated, sim ? sim->cpuidJson() : std::string {}, hostCpuid);
    bundle.readAllocation = [raw, stateOptions] { return readAllocationState(*raw->source.backend, stateOptions); };
    bundle.feed = std::make_unique<EngineFeed>(engine, description);
    bundle.groups = std::make_unique<EngineGroupControl>(engine, readOnly);
    bundle.readOnlyReason = QString::fromStdString(readOnly);
    bundle.machineInfo = [raw] {
        rdt::session::MachineInfo m;
        rdt::SimulationControl* simulation = raw->source.simulation.get();
        m.description = simulation ? simulation->describe() : raw->source.kind + " on this host";
        if (auto caps = raw->source.backend->capabilities()) m.topology = rdt::formatCapabilitiesText(*caps);
        if (simulation) {
            m.cpuidJson = simulation->cpuidJson();
        } else {
            rdt::LiveCpuid cpuid;
            m.cpuidJson = rdt::cpuidTableToJson(rdt::snapshotCpuid(cpuid));
        }
        return m;
    };
    bundle.initialState = [raw] {
        rdt::session::StateWatcher watcher(*raw->source.backend);
        rdt::SimulationControl* simulation = raw->source.simulation.get();
        return watcher.poll(simulation ? simulation->nowNs() : rdt::monotonicNs());
    };
    bundle.engine = engine;
    return bundle;
}
