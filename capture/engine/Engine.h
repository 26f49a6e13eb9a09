// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The capture service as an interface (RDT and PMU), so that a front end (rdtscope-cli, the GUI) drives a local
// CaptureService and a remote one served by rdtscope-agent (capture/remote/RemoteEngine.h, docs/PROTOCOL.md)
// through the same calls, and so prints and validates through the same code. Everything that crosses it is plain
// data (EngineTypes.h).

#include "AllocationLayoutOf.h"
#include "EngineTypes.h"
#include "EventTaps.h"
#include "MachineReportOf.h"
#include "platform/CapabilityReport.h"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rdt::engine {

class Engine {
public:
    virtual ~Engine() = default;

    // --- What the machine is --------------------------------------------------------------------------------
    virtual bool hasRdt() const = 0;
    /// Capabilities (re-read from the backend) and which source runs and why.
    virtual Result<MachineDescription> machine() = 0;
    virtual const SourceDescription& source() const = 0;
    /// What every allocation resource looks like (api/AllocationLayout.h): mask lengths, the whole cache's size,
    /// way counts, what a bandwidth value means. One rule (engine/AllocationLayoutOf.h) over the machine
    /// description, so a local engine, an agent's and a replay answer alike.
    virtual Result<api::AllocationLayout> allocationLayout()
    {
        auto m = machine();
        if (!m) return m.error();
        return allocationLayoutOf(*m);
    }
    /// Groups, their schemata, CPUs and task counts now; with `withTasks` also every group's PID list (a recorder
    /// watching membership wants them; a table of groups does not).
    virtual GroupsSnapshot snapshot(bool withTasks = false) = 0;
    /// The machine the engine runs on, as `rdtscope-cli info` describes it (platform/CapabilityReport.h): its live
    /// CPUID, environment (resctrl, PMU, perf_event_paranoid, MSR device) and topology, whatever the source.
    /// Engines that cannot refuse with ENOTSUP.
    virtual Result<CapabilityReport> describeMachine()
    {
        return errnoError(ENOTSUP, "this engine does not describe its machine", "run rdtscope-cli info there");
    }
    /// What the machine is (api/MachineReport.h): its CPUID decoded once by the engine (vendor, caches, RDT and PMU
    /// capabilities), describeMachine()'s lines, where the engine runs. Front ends read this, never the CPUID JSON.
    /// A remote engine builds it from what the protocol carries (the machine's CPUID snapshot and description).
    virtual Result<api::MachineReport> machineReport()
    {
        auto m = machine();
        if (!m) return m.error();
        auto described = describeMachine();
        auto report = machineReportOf(*m, described ? &*described : nullptr, location());
        if (!described) report.describeError = described.error().toString();
        return report;
    }
    /// Where the engine runs: "" for this process, "the agent on root@srv" for a remote one.
    virtual std::string location() const { return {}; }
    /// A remote engine whose connection is gone: why, and what to do (every later call fails the same way).
    /// A local engine never loses itself.
    virtual std::optional<Error> connectionLost() const { return std::nullopt; }

    // --- Time ------------------------------------------------------------------------------------------------
    /// The source clock: simulated time for simulated sources, CLOCK_MONOTONIC (of the engine's machine)
    /// otherwise.
    virtual std::uint64_t nowNs() const = 0;
    /// Simulated sources: runs the simulated machine (and its scenario) up to `timeNs`; a no-op for real ones.
    virtual void advanceTo(std::uint64_t timeNs) = 0;
    /// Waits until `deadline` (a front end pacing its output): a local engine sleeps; a remote one keeps its
    /// connection alive meanwhile (heartbeats, docs/PROTOCOL.md "Heartbeat and goodbye"), which a plain sleep
    /// longer than the peer's silence limit would not.
    virtual void waitUntil(std::chrono::steady_clock::time_point deadline) { std::this_thread::sleep_until(deadline); }
    /// Simulated sources: holds (true) or releases the scenario's timed steps, so an experiment (capture/experiment)
    /// measures the allocation it set, not one a lesson step writes meanwhile. False when nothing can be held (real
    /// sources, an engine that does not offer it).
    virtual bool holdScenarioSteps(bool hold)
    {
        (void)hold;
        return false;
    }

    /// An experiment's writes begin: `groups`' allocations are what must come back. An engine whose client can go
    /// away without running the experiment's own restore (the agent behind RemoteEngine) saves them and writes
    /// them back if the client disconnects before endExperiment(); local engines need not (the experiment restores
    /// at its end, on error and on SIGINT/SIGTERM), so the default does nothing.
    virtual CommandResult beginExperiment(const std::vector<std::string>& groups)
    {
        (void)groups;
        return CommandResult::success();
    }
    /// The experiment restored its groups itself: nothing is left to write back.
    virtual CommandResult endExperiment() { return CommandResult::success(); }

    // --- RDT commands ----------------------------------------------------------------------------------------
    virtual CommandResult createGroup(const std::string& name) = 0;
    virtual CommandResult createMonitorGroup(const std::string& parent, const std::string& name) = 0;
    virtual CommandResult deleteGroup(const std::string& path) = 0;
    virtual CommandResult assignTasks(const std::string& path, const std::vector<unsigned>& pids) = 0;
    virtual CommandResult assignCpus(const std::string& path, const std::vector<unsigned>& cpus) = 0;
    /// Sets a BMEC event configuration (RdtBackend::configureMbmEvent).
    virtual CommandResult configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions) = 0;
    /// Assigns or frees an MBM counter (RdtBackend::assignCounter).
    virtual CommandResult assignCounter(const std::string& path, const std::string& event, int domain, bool assign) = 0;
    /// Turns L3 Code and Data Prioritization on or off (SDM 20.19.5): every group then has an L3CODE and an L3DATA
    /// mask instead of one L3 mask. The kernel sets it only when resctrl is mounted, so the simulated `sim` source
    /// remounts its resctrl (the groups are kept, their allocations reset) and a real resctrl source refuses with the
    /// mount command as advice; the MSR sources (`msr`, `sim-msr`) write IA32_L3_QOS_CFG by the SDM 20.19.6.2
    /// sequence (MsrBackend::setCdp).
    virtual CommandResult setCdp(bool enabled) = 0;
    /// Validates (rdt/AllocationRules.h) and applies one change to one group as one transaction: every domain is
    /// written or, on the first refusal, every value already written is restored.
    virtual AllocationResult applyAllocation(const std::string& group, const Schemata& change) = 0;
    /// The monitoring poll period (clamped so 24-bit MBM counters cannot wrap twice, SDM 20.18.8). Resets the
    /// sampler's counter history; the next poll starts new series.
    virtual CommandResult setSamplingInterval(std::uint64_t intervalNs) = 0;
    virtual std::uint64_t samplingIntervalNs() const = 0;
    /// One synchronous poll at nowNs(): an RdtSampleBatch event (or an EngineError event when it fails).
    virtual CommandResult pollRdt() = 0;
    /// Polls in the background at the sampling interval until stopSampling().
    virtual CommandResult startSampling() = 0;
    virtual void stopSampling() = 0;

    // --- PMU commands ----------------------------------------------------------------------------------------
    /// Starts a recipe on a target; the capture's id is in the info.
    virtual PmuStarted startPmu(const PmuRequest& request) = 0;
    /// Moves a capture on (the simulated PMU runs one slice, perf rings are drained) and queues its PmuBatch.
    virtual CommandResult pumpPmu(std::uint32_t id) = 0;
    /// Reads a TMA capture's counters: a PmuBatch whose rows are one interval per counting part since the last read.
    virtual CommandResult readPmuCounters(std::uint32_t id) = 0;
    /// The launched command exited (false for an unknown capture).
    virtual bool pmuFinished(std::uint32_t id) = 0;
    /// Stops counting and drains what is left (a last batch is queued); the report stays available.
    virtual CommandResult stopPmu(std::uint32_t id) = 0;
    /// The summary of a capture (stopped or running), functions named as the CLI names them.
    virtual Result<PmuReport> pmuReport(std::uint32_t id, std::size_t topN) = 0;
    /// PMU batches since the last call, oldest first (kept apart from drainEvents: only PMU clients want them).
    virtual std::vector<PmuBatch> drainPmuBatches() = 0;
    /// Cycles, instructions, LLC misses and memory-stall cycles of a control group's tasks, cumulative: what an
    /// experiment turns into IPC, MPKI and a memory-bound share per step. Engines that cannot count refuse with
    /// ENOTSUP and say why.
    virtual Result<GroupPmuCounts> countGroupPmu(const std::string& group)
    {
        (void)group;
        return errnoError(ENOTSUP, "per-group PMU counts are not offered by this engine");
    }

    // --- Events ----------------------------------------------------------------------------------------------
    /// Everything that happened since the last call, oldest first (each event is returned once).
    virtual std::vector<EngineEvent> drainEvents() = 0;
    /// Events dropped because nobody drained them (or, remotely, sample batches coalesced for a slow link).
    virtual std::uint64_t droppedEvents() const = 0;
    /// A second reader of the stream (engine/EngineRecorder.h): `tap` sees every event drainEvents() will return,
    /// as it is queued and on the thread that queues it (the sampler's for background polls; a remote engine's and
    /// a replay's events are made by the drain, on its thread), without taking it from whoever drains; events queued
    /// and not yet drained when it is added are handed to it first. Returns the
    /// id removeEventTap() takes; after removeEventTap() returns, the tap is never called again.
    virtual std::uint64_t addEventTap(EventTap tap) = 0;
    virtual void removeEventTap(std::uint64_t id) = 0;
};

} // namespace rdt::engine
