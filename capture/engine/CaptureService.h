// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one front door to everything live: the RDT source (resctrl, MSRs or the simulated machine) with its
// sampler and allocation engine, PMU captures (real or simulated, with symbolization), and the simulated machine
// when the source is simulated. rdtscope-cli and the GUI go through it; a remote agent can serve it, because
// everything that crosses this API is plain data (EngineTypes.h, PmuTypes.h): commands return result values,
// and what happens in the background is drained as typed events. Nothing here hands out a live engine object.

#include "Engine.h"
#include "EngineTypes.h"
#include "PmuTypes.h"
#include "rdt/RdtSource.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace rdt {
class AllocationEngine;
class Sampler;
}

namespace rdt::pmu {
class PerfSyscalls;
struct MemoryBoundRecipes;
struct PerfEnvironment;
}

namespace rdt::engine {

class ExternalChangeDetector;
class GroupPmuCounting;
class PmuCaptures;

struct ServiceOptions {
    RdtSourceOptions rdt; ///< which RDT source (auto, sim, sim-msr[:DIR], resctrl[:PATH], msr) and scenario
    bool openRdt = true; ///< false: PMU captures only (no RDT source is opened)
    std::size_t eventCapacity = 4096; ///< undrained events kept; older ones are dropped and counted
    std::string who = "cli"; ///< who applies allocations ("cli", "gui", "agent"), copied into AllocationChanged
    /// How often drainEvents() looks for allocation changes made by another program (ExternalChangeDetector.h),
    /// in wall-clock time; 0: at every drain. Each look reads every control group's schemata once.
    std::uint64_t externalCheckIntervalNs = 500'000'000;
    /// Intel SNC: read per sub-NUMA node (RdtBackend::setSncNodeReadings); batches then carry the node rows in
    /// RdtSampleBatch::nodeSamples beside their L3 sums in `samples` (what sessions keep). For the metrics
    /// endpoint's `node` label, `monitor --nodes` and the GUI's Monitor dock.
    bool sncNodeSamples = false;
    /// The perf_event_open real PMU captures open through (unset: the kernel's); a test seam, never carried.
    std::function<std::unique_ptr<pmu::PerfSyscalls>()> perfSyscalls;
    /// The TMA groups per-group counts take the memory-bound share from (unset: the host's model, engine/
    /// GroupPmuCounter.h hostMemoryBoundRecipes); a test seam, never carried.
    std::function<Result<pmu::MemoryBoundRecipes>(const pmu::PerfEnvironment&)> memoryBoundRecipes;
};

class CaptureService final : public Engine {
public:
    /// Opens the RDT source the options name (errors say what is missing and how to fix it).
    static Result<std::unique_ptr<CaptureService>> open(const ServiceOptions& options);
    /// The same over a source opened elsewhere (a backend over a test's Fs, a fault-injecting MSR space): the
    /// service owns it from here on; `options.rdt` is not used.
    static Result<std::unique_ptr<CaptureService>> openWith(RdtSource source, const ServiceOptions& options);
    ~CaptureService() override;
    CaptureService(const CaptureService&) = delete;
    CaptureService& operator=(const CaptureService&) = delete;

    // --- What the machine is --------------------------------------------------------------------------------
    bool hasRdt() const override { return m_source.backend != nullptr; }
    /// Capabilities (re-read from the backend) and which source runs and why.
    Result<MachineDescription> machine() override;
    /// This machine (engine/DescribeMachine.cpp).
    Result<CapabilityReport> describeMachine() override;
    const SourceDescription& source() const override { return m_description; }
    /// Groups, their schemata and CPUs now.
    GroupsSnapshot snapshot(bool withTasks = false) override;

    // --- Time ------------------------------------------------------------------------------------------------
    /// The source clock: simulated time for simulated sources, CLOCK_MONOTONIC otherwise.
    std::uint64_t nowNs() const override;
    /// Simulated sources: runs the simulated machine (and its scenario) up to `timeNs`; a no-op for real ones.
    void advanceTo(std::uint64_t timeNs) override;
    bool holdScenarioSteps(bool hold) override;

    // --- RDT commands ----------------------------------------------------------------------------------------
    CommandResult createGroup(const std::string& name) override;
    CommandResult createMonitorGroup(const std::string& parent, const std::string& name) override;
    CommandResult deleteGroup(const std::string& path) override;
    CommandResult assignTasks(const std::string& path, const std::vector<unsigned>& pids) override;
    CommandResult assignCpus(const std::string& path, const std::vector<unsigned>& cpus) override;
    CommandResult assignCounter(const std::string& path, const std::string& event, int domain, bool assign) override;
    CommandResult configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions) override;
    /// `sim`: remounts its resctrl with or without CDP. MSR sources: MsrBackend::setCdp. Real resctrl: the mount
    /// command as advice.
    CommandResult setCdp(bool enabled) override;
    /// Validates (rdt/AllocationRules.h) and applies one change to one group as one transaction: every domain is
    /// written or, on the first refusal, every value already written is restored.
    AllocationResult applyAllocation(const std::string& group, const Schemata& change) override;
    /// The monitoring poll period (clamped so 24-bit MBM counters cannot wrap twice, SDM 20.18.8). Resets the
    /// sampler's counter history; the next poll starts new series.
    CommandResult setSamplingInterval(std::uint64_t intervalNs) override;
    std::uint64_t samplingIntervalNs() const override;
    /// One synchronous poll at nowNs(): an RdtSampleBatch event (or an EngineError event when it fails).
    CommandResult pollRdt() override;
    /// Polls on the sampler's own thread at the sampling interval until stopSampling().
    CommandResult startSampling() override;
    void stopSampling() override;

    // --- PMU commands (Engine.h) -----------------------------------------------------------------------------
    PmuStarted startPmu(const PmuRequest& request) override;
    CommandResult pumpPmu(std::uint32_t id) override;
    CommandResult readPmuCounters(std::uint32_t id) override;
    bool pmuFinished(std::uint32_t id) override;
    /// Stops counting, drains what is left and queues it as a last batch.
    CommandResult stopPmu(std::uint32_t id) override;
    Result<PmuReport> pmuReport(std::uint32_t id, std::size_t topN) override;
    /// Simulated sources: the simulated machine's model of the group's tasks. Real sources: its threads counted with
    /// perf_event_open, with TMA's memory-bound share where the model has a formula (GroupPmuCounter.h).
    Result<GroupPmuCounts> countGroupPmu(const std::string& group) override;

    // --- Events ----------------------------------------------------------------------------------------------
    /// Everything that happened since the last call, oldest first (each event is returned once). At most every
    /// ServiceOptions::externalCheckIntervalNs it first compares the control groups with what the engine last saw
    /// or wrote: a change it did not make is an AllocationChanged with who = kExternalWho ("external").
    std::vector<EngineEvent> drainEvents() override;
    /// PMU batches since the last call (kept apart: they are many and only PMU clients want them).
    std::vector<PmuBatch> drainPmuBatches() override;
    /// Events dropped because nobody drained them.
    std::uint64_t droppedEvents() const override;
    /// Taps see each event in push(), under the queue's lock, so every tap sees the queue's order; a new tap first
    /// sees what is queued and not drained yet (the scenario's set-up lines, queued when the service opened).
    std::uint64_t addEventTap(EventTap tap) override;
    void removeEventTap(std::uint64_t id) override { m_taps.remove(id); }
    /// A wake-up for an event loop that drains this service (the agent writes to an eventfd): called on the thread
    /// that queued an event (the sampler's, for background polls), after the event is queued. Set it before
    /// sampling starts; it must not call back into the service.
    void setEventWakeup(std::function<void()> wakeup) { m_wakeup = std::move(wakeup); }

private:
    explicit CaptureService(const ServiceOptions& options);
    Status openRdt();
    void adopt(RdtSource source);
    /// The allocation engine and the sampler over m_source.backend (again after a CDP remount).
    void attachBackend();
    void push(EngineEvent event);
    void takeSimulationEvents();
    /// ExternalChangeDetector::check when the interval has passed (or `force`), its findings pushed as events.
    void checkExternalChanges(bool force);
    void pushPmu(PmuBatch batch);

    ServiceOptions m_options;
    RdtSource m_source;
    SourceDescription m_description;
    std::unique_ptr<Sampler> m_sampler;
    std::unique_ptr<AllocationEngine> m_allocation;
    std::uint64_t m_requestedIntervalNs = 1'000'000'000;
    std::unique_ptr<PmuCaptures> m_pmu;
    std::unique_ptr<GroupPmuCounting> m_groupPmu;
    /// Held across the engine's own writes and each external check, so a write is acknowledged before any check
    /// can read it (recursive: the allocation listener acknowledges inside applyAllocation).
    std::recursive_mutex m_externalMutex;
    std::unique_ptr<ExternalChangeDetector> m_external;
    std::uint64_t m_lastExternalCheckNs = 0; ///< CLOCK_MONOTONIC
    /// Groups whose schemata or mode a simulated scenario step wrote since the last check: the step is reported
    /// as a SimulationEvent already, so the check does not report it again as external.
    std::set<std::string> m_scenarioWrites;

    mutable std::mutex m_eventMutex;
    std::deque<EngineEvent> m_events;
    std::deque<PmuBatch> m_pmuBatches;
    std::uint64_t m_dropped = 0;
    EventTaps m_taps;
    std::function<void()> m_wakeup;
};

} // namespace rdt::engine
