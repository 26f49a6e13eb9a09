// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// engine/Engine.h served by an rdtscope-agent (docs/PROTOCOL.md "Engine commands"): every call is one request and
// its response, carrying the same result values a local CaptureService returns; sample batches, allocation
// changes, simulation events and the agent's notices arrive as events and come out of drainEvents() as the local
// engine's events do. A front end drives either one through the same code.

#include "engine/CaptureService.h"
#include "engine/Engine.h"
#include "protocol/AgentClient.h"

#include <deque>
#include <memory>
#include <string>

namespace rdt::remote {

namespace pb = rdtscope::agent::v1;

class RemoteEngine final : public engine::Engine {
public:
    /// Opens the source the options name on the agent at the other end of `client` (OpenSource).
    static Result<std::unique_ptr<RemoteEngine>> open(
        std::unique_ptr<protocol::AgentClient> client, const engine::ServiceOptions& options);
    ~RemoteEngine() override;

    bool hasRdt() const override { return m_hasRdt; }
    /// The machine as the agent described it when the source opened (capabilities do not change while open).
    Result<engine::MachineDescription> machine() override;
    const engine::SourceDescription& source() const override { return m_machine.source; }
    engine::GroupsSnapshot snapshot(bool withTasks = false) override;
    /// The agent's machine (DescribeMachine); its CPUID source names the agent's host.
    Result<CapabilityReport> describeMachine() override;
    std::string location() const override;
    std::optional<Error> connectionLost() const override { return m_lost; }

    /// Simulated sources: the simulated time the agent last reported. Real sources: the agent's monotonic clock,
    /// estimated from this machine's clock and the offset measured when the source opened.
    std::uint64_t nowNs() const override;
    void advanceTo(std::uint64_t timeNs) override;
    /// Pumps the connection (heartbeats out, events in) until the deadline.
    void waitUntil(std::chrono::steady_clock::time_point deadline) override;

    engine::CommandResult createGroup(const std::string& name) override;
    engine::CommandResult createMonitorGroup(const std::string& parent, const std::string& name) override;
    engine::CommandResult deleteGroup(const std::string& path) override;
    engine::CommandResult assignTasks(const std::string& path, const std::vector<unsigned>& pids) override;
    engine::CommandResult assignCpus(const std::string& path, const std::vector<unsigned>& cpus) override;
    engine::AllocationResult applyAllocation(const std::string& group, const Schemata& change) override;
    engine::CommandResult configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions) override;
    engine::CommandResult assignCounter(
        const std::string& path, const std::string& event, int domain, bool assign) override;
    engine::CommandResult setCdp(bool enabled) override;
    engine::CommandResult setSamplingInterval(std::uint64_t intervalNs) override;
    std::uint64_t samplingIntervalNs() const override { return m_intervalNs; }
    engine::CommandResult pollRdt() override;
    engine::CommandResult startSampling() override;
    void stopSampling() override;

    // PMU captures run on the agent (docs/PROTOCOL.md "PMU captures"): each pump, read or stop is one request whose
    // response carries the batches it produced; drainPmuBatches() hands them out as the local engine does.
    engine::PmuStarted startPmu(const engine::PmuRequest& request) override;
    engine::CommandResult pumpPmu(std::uint32_t id) override;
    engine::CommandResult readPmuCounters(std::uint32_t id) override;
    bool pmuFinished(std::uint32_t id) override;
    engine::CommandResult stopPmu(std::uint32_t id) override;
    Result<engine::PmuReport> pmuReport(std::uint32_t id, std::size_t topN) override;
    /// The agent saves the groups and writes them back if this connection ends before endExperiment().
    engine::CommandResult beginExperiment(const std::vector<std::string>& groups) override;
    /// Counted by the agent (its perf_event_open or its simulated machine); an agent too old for it says so.
    Result<engine::GroupPmuCounts> countGroupPmu(const std::string& group) override;
    engine::CommandResult endExperiment() override;
    std::vector<engine::PmuBatch> drainPmuBatches() override;

    std::vector<engine::EngineEvent> drainEvents() override;
    std::uint64_t droppedEvents() const override { return m_dropped; }
    /// Events arrive when drained (collect()): taps see what each drainEvents() hands out, on the draining thread.
    std::uint64_t addEventTap(engine::EventTap tap) override { return m_taps.add(std::move(tap)); }
    void removeEventTap(std::uint64_t id) override { m_taps.remove(id); }

    const protocol::AgentClient& client() const { return *m_client; }
    /// The agent's host name (from the handshake).
    std::string hostname() const { return m_client->welcome().hostname(); }

private:
    explicit RemoteEngine(std::unique_ptr<protocol::AgentClient> client);
    /// Sends one request; a transport failure becomes an error response (so every caller sees one shape).
    pb::Response exchange(pb::Request request);
    engine::CommandResult command(pb::Request request);
    engine::CommandResult groupCommand(
        pb::GroupCommand::Op op, const std::string& path, const std::string& name, const std::vector<unsigned>& ids);
    /// Moves what the client received into m_events; a broken connection becomes one EngineError.
    void collect();
    /// One PmuCommand; the batches of its response go to m_pmuBatches.
    engine::CommandResult pmuCommand(pb::PmuCommand::Op op, std::uint32_t id, bool* finished = nullptr);

    std::unique_ptr<protocol::AgentClient> m_client;
    engine::MachineDescription m_machine;
    bool m_hasRdt = false;
    std::uint64_t m_intervalNs = 0;
    std::uint64_t m_simNowNs = 0;
    std::int64_t m_clockOffsetNs = 0; ///< agent clock minus this machine's, when the source opened
    std::deque<engine::EngineEvent> m_events;
    engine::EventTaps m_taps;
    std::vector<engine::PmuBatch> m_pmuBatches;
    std::uint64_t m_dropped = 0;
    bool m_reportedBroken = false;
    std::optional<Error> m_lost;
};

/// Connects to the agent at `url` and opens the source: the one way the CLI and the GUI reach a remote engine.
/// `software` goes into Hello ("rdtscope-cli 0.1.0"); ssh is the system client, options from
/// RDTSCOPE_SSH_COMMAND; `remoteAgent` is the agent's path on an ssh host ("" = searched for).
Result<std::unique_ptr<RemoteEngine>> connectEngine(const std::string& url, const engine::ServiceOptions& options,
    const std::string& software, const std::string& remoteAgent = {});

} // namespace rdt::remote
