// SPDX-License-Identifier: GPL-3.0-or-later
#include "RemoteEngine.h"

#include "EngineCodec.h"
#include "MachineCodec.h"
#include "PmuCodec.h"
#include "core/Time.h"
#include "protocol/RdtCodec.h"

#include <algorithm>
#include <cerrno>
#include <utility>

namespace rdt::remote {

namespace {
/// At most this many received messages are turned into events per drainEvents() call (the rest wait).
constexpr int kMaxEventsPerDrain = 65536;
}

RemoteEngine::RemoteEngine(std::unique_ptr<protocol::AgentClient> client)
    : m_client(std::move(client))
{ }

RemoteEngine::~RemoteEngine()
{
    if (m_client) m_client->close("done");
}

Result<std::unique_ptr<RemoteEngine>> RemoteEngine::open(
    std::unique_ptr<protocol::AgentClient> client, const engine::ServiceOptions& options)
{
    std::unique_ptr<RemoteEngine> e(new RemoteEngine(std::move(client)));
    pb::Request req;
    auto* o = req.mutable_open_source();
    o->set_source(options.rdt.spec);
    o->set_scenario(options.rdt.scenario);
    o->set_open_rdt(options.openRdt);
    o->set_snc_node_samples(options.sncNodeSamples);
    o->set_preset(options.rdt.simPreset);
    const auto r = e->exchange(std::move(req));
    if (r.has_error()) return Error { r.error().code(), r.error().message(), r.error().advice() };
    const auto& opened = r.source_opened();
    e->m_machine.source = fromWire(opened.source());
    e->m_machine.capabilities = protocol::fromWire(opened.capabilities());
    e->m_machine.cpuidJson = opened.cpuid_json();
    e->m_machine.hostname = opened.hostname();
    e->m_machine.kernel = opened.kernel();
    e->m_hasRdt = options.openRdt;
    e->m_intervalNs = opened.sampling_interval_ns();
    e->m_simNowNs = opened.now_ns();
    e->m_clockOffsetNs = static_cast<std::int64_t>(opened.now_ns()) - static_cast<std::int64_t>(monotonicNs());
    return e;
}

std::string RemoteEngine::location() const
{
    return m_client->agentName();
}

pb::Response RemoteEngine::exchange(pb::Request request)
{
    auto r = m_client->exchange(std::move(request));
    if (r) return std::move(*r);
    if (!m_lost) m_lost = r.error();
    pb::Response failed;
    toWire(engine::CommandResult::failure(r.error()), failed);
    return failed;
}

engine::CommandResult RemoteEngine::command(pb::Request request)
{
    const auto response = exchange(std::move(request));
    if (response.has_done() && response.done().has_capabilities())
        m_machine.capabilities = protocol::fromWire(response.done().capabilities());
    return resultOf(response);
}

Result<engine::MachineDescription> RemoteEngine::machine()
{
    if (!m_hasRdt) return errnoError(ENODEV, "no RDT source is open on " + location());
    return m_machine;
}

engine::GroupsSnapshot RemoteEngine::snapshot(bool withTasks)
{
    pb::Request req;
    req.mutable_get_snapshot()->set_with_tasks(withTasks);
    const auto r = exchange(std::move(req));
    if (r.has_error()) {
        engine::GroupsSnapshot s;
        s.result = resultOf(r);
        return s;
    }
    return fromWire(r.snapshot());
}

std::uint64_t RemoteEngine::nowNs() const
{
    if (m_machine.source.simulated) return m_simNowNs;
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(monotonicNs()) + m_clockOffsetNs);
}

void RemoteEngine::advanceTo(std::uint64_t timeNs)
{
    if (!m_machine.source.simulated) return; // real sources run on their own (as the local engine's no-op)
    pb::Request req;
    req.mutable_advance_to()->set_time_ns(timeNs);
    const auto r = exchange(std::move(req));
    if (r.has_error()) {
        const auto f = resultOf(r);
        m_events.push_back(engine::EngineError { m_simNowNs, location(), f.reason, f.advice });
        return;
    }
    m_simNowNs = std::max(m_simNowNs, r.now().now_ns());
}

void RemoteEngine::waitUntil(std::chrono::steady_clock::time_point deadline)
{
    using namespace std::chrono;
    for (auto now = steady_clock::now(); now < deadline && !m_lost; now = steady_clock::now()) {
        const auto ms = duration_cast<milliseconds>(deadline - now).count();
        if (ms <= 0) break;
        if (auto st = m_client->pump(static_cast<int>(std::min<long long>(ms, 500))); !st) m_lost = st.error();
    }
    if (m_lost) std::this_thread::sleep_until(deadline); // the pacing stays; the next call reports the loss
}

engine::CommandResult RemoteEngine::groupCommand(
    pb::GroupCommand::Op op, const std::string& path, const std::string& name, const std::vector<unsigned>& ids)
{
    pb::Request req;
    auto* c = req.mutable_group_command();
    c->set_op(op);
    c->set_path(path);
    c->set_name(name);
    for (unsigned id : ids)
        c->add_ids(id);
    return command(std::move(req));
}

engine::CommandResult RemoteEngine::createGroup(const std::string& name)
{
    return groupCommand(pb::GroupCommand::CREATE, {}, name, {});
}

engine::CommandResult RemoteEngine::createMonitorGroup(const std::string& parent, const std::string& name)
{
    return groupCommand(pb::GroupCommand::CREATE_MONITOR, parent, name, {});
}

engine::CommandResult RemoteEngine::deleteGroup(const std::string& path)
{
    return groupCommand(pb::GroupCommand::DELETE, path, {}, {});
}

engine::CommandResult RemoteEngine::assignTasks(const std::string& path, const std::vector<unsigned>& pids)
{
    return groupCommand(pb::GroupCommand::ASSIGN_TASKS, path, {}, pids);
}

engine::CommandResult RemoteEngine::assignCpus(const std::string& path, const std::vector<unsigned>& cpus)
{
    return groupCommand(pb::GroupCommand::ASSIGN_CPUS, path, {}, cpus);
}

engine::AllocationResult RemoteEngine::applyAllocation(const std::string& group, const Schemata& change)
{
    pb::Request req;
    auto* a = req.mutable_apply_allocation();
    a->set_group(group);
    a->set_schemata(change.format());
    return allocationOf(exchange(std::move(req)));
}

engine::CommandResult RemoteEngine::beginExperiment(const std::vector<std::string>& groups)
{
    pb::Request req;
    auto* e = req.mutable_experiment();
    e->set_op(pb::Experiment::BEGIN);
    for (const auto& g : groups)
        e->add_groups(g);
    return command(std::move(req));
}

engine::CommandResult RemoteEngine::configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions)
{
    pb::Request req;
    auto* s = req.mutable_resctrl_setting();
    s->set_op(pb::ResctrlSetting::CONFIGURE_EVENT);
    s->set_event(event);
    s->set_domain(domain);
    s->set_transactions(transactions);
    return command(std::move(req));
}

engine::CommandResult RemoteEngine::assignCounter(
    const std::string& path, const std::string& event, int domain, bool assign)
{
    pb::Request req;
    auto* s = req.mutable_resctrl_setting();
    s->set_op(assign ? pb::ResctrlSetting::ASSIGN_COUNTER : pb::ResctrlSetting::UNASSIGN_COUNTER);
    s->set_path(path);
    s->set_event(event);
    s->set_domain(domain);
    return command(std::move(req));
}

engine::CommandResult RemoteEngine::setCdp(bool enabled)
{
    pb::Request req;
    auto* s = req.mutable_resctrl_setting();
    s->set_op(pb::ResctrlSetting::SET_CDP);
    s->set_enabled(enabled);
    return command(std::move(req));
}

Result<engine::GroupPmuCounts> RemoteEngine::countGroupPmu(const std::string& group)
{
    pb::Request req;
    req.mutable_count_group_pmu()->set_group(group);
    req.mutable_count_group_pmu()->set_simulated(source().simulated);
    const auto r = exchange(std::move(req));
    if (r.has_error()) {
        auto e = resultOf(r).error();
        if (e.message.find("does not know command") != std::string::npos)
            return errnoError(ENOTSUP, "the agent does not count a group's tasks (" + e.message + ")",
                "update rdtscope-agent on the server for per-step IPC, MPKI and memory-bound share over --connect");
        return e;
    }
    if (!r.has_group_pmu_counts())
        return errnoError(
            EPROTO, "the agent answered a PMU count without one", "install the same rdtscope release on both machines");
    return fromWire(r.group_pmu_counts());
}

engine::CommandResult RemoteEngine::endExperiment()
{
    pb::Request req;
    req.mutable_experiment()->set_op(pb::Experiment::END);
    return command(std::move(req));
}

engine::CommandResult RemoteEngine::setSamplingInterval(std::uint64_t intervalNs)
{
    pb::Request req;
    req.mutable_set_sampling_interval()->set_interval_ns(intervalNs);
    auto r = command(std::move(req));
    if (r.ok) m_intervalNs = intervalNs;
    return r;
}

engine::CommandResult RemoteEngine::pollRdt()
{
    pb::Request req;
    req.mutable_poll_rdt();
    return command(std::move(req)); // the batch is sent before the response, so it is already queued
}

engine::CommandResult RemoteEngine::startSampling()
{
    pb::Request req;
    req.mutable_start_sampling();
    return command(std::move(req));
}

void RemoteEngine::stopSampling()
{
    pb::Request req;
    req.mutable_stop_sampling();
    (void)command(std::move(req));
}

void RemoteEngine::collect()
{
    for (int i = 0; i < kMaxEventsPerDrain; ++i) {
        auto next = m_client->nextEvent(0);
        if (!next) {
            if (!m_lost) m_lost = next.error();
            if (!m_reportedBroken)
                m_events.push_back(
                    engine::EngineError { nowNs(), location(), next.error().message, next.error().advice });
            m_reportedBroken = true;
            return;
        }
        if (!*next) return;
        auto& in = **next;
        if (in.samples) {
            m_dropped += in.samples->droppedBatches;
            if (m_machine.source.simulated) m_simNowNs = std::max(m_simNowNs, in.samples->batch.timeNs);
            m_events.push_back(std::move(in.samples->batch));
        } else if (in.envelope.has_event()) {
            if (auto e = fromWire(in.envelope.event())) m_events.push_back(std::move(*e));
        }
    }
}

std::vector<engine::EngineEvent> RemoteEngine::drainEvents()
{
    collect();
    std::vector<engine::EngineEvent> out(
        std::make_move_iterator(m_events.begin()), std::make_move_iterator(m_events.end()));
    m_events.clear();
    for (const auto& e : out)
        m_taps.notify(e);
    return out;
}

Result<std::unique_ptr<RemoteEngine>> connectEngine(const std::string& url, const engine::ServiceOptions& options,
    const std::string& software, const std::string& remoteAgent)
{
    auto parsed = protocol::parseAgentUrl(url);
    if (!parsed) return parsed.error();
    protocol::ClientOptions co;
    co.software = software;
    co.sshCommand = protocol::sshCommandFromEnvironment();
    co.remoteAgent = remoteAgent;
    if (parsed->kind == protocol::AgentUrl::Kind::Local) co.localAgent = remoteAgent; // --agent with local: pkexec's
    auto client = protocol::AgentClient::connect(*parsed, co);
    if (!client) return client.error();
    return RemoteEngine::open(std::move(*client), options);
}

engine::PmuStarted RemoteEngine::startPmu(const engine::PmuRequest& request)
{
    pb::Request req;
    toWire(request, *req.mutable_start_pmu());
    return startedOf(exchange(std::move(req)));
}

engine::CommandResult RemoteEngine::pmuCommand(pb::PmuCommand::Op op, std::uint32_t id, bool* finished)
{
    pb::Request req;
    req.mutable_pmu_command()->set_op(op);
    req.mutable_pmu_command()->set_id(id);
    const auto r = exchange(std::move(req));
    for (const auto& b : r.pmu_batches().batches())
        m_pmuBatches.push_back(fromWire(b));
    if (finished) *finished = r.pmu_batches().finished();
    return resultOf(r);
}

engine::CommandResult RemoteEngine::pumpPmu(std::uint32_t id)
{
    return pmuCommand(pb::PmuCommand::PUMP, id);
}

engine::CommandResult RemoteEngine::readPmuCounters(std::uint32_t id)
{
    return pmuCommand(pb::PmuCommand::READ_COUNTERS, id);
}

bool RemoteEngine::pmuFinished(std::uint32_t id)
{
    bool finished = false;
    return pmuCommand(pb::PmuCommand::FINISHED, id, &finished).ok && finished;
}

engine::CommandResult RemoteEngine::stopPmu(std::uint32_t id)
{
    return pmuCommand(pb::PmuCommand::STOP, id);
}

Result<engine::PmuReport> RemoteEngine::pmuReport(std::uint32_t id, std::size_t topN)
{
    pb::Request req;
    req.mutable_pmu_report()->set_id(id);
    req.mutable_pmu_report()->set_top_n(static_cast<std::uint32_t>(std::min<std::size_t>(topN, 10000)));
    const auto r = exchange(std::move(req));
    if (r.has_error()) return resultOf(r).error();
    if (!r.has_pmu_report())
        return errnoError(EPROTO, "the agent answered a PMU report without one",
            "install the same rdtscope release on both machines");
    return fromWire(r.pmu_report());
}

std::vector<engine::PmuBatch> RemoteEngine::drainPmuBatches()
{
    return std::exchange(m_pmuBatches, {});
}

Result<CapabilityReport> RemoteEngine::describeMachine()
{
    pb::Request req;
    req.mutable_describe_machine();
    const auto r = exchange(std::move(req));
    if (r.has_error()) return resultOf(r).error();
    if (!r.has_machine_report())
        return errnoError(EPROTO, "the agent answered DescribeMachine without a machine report",
            "install the same rdtscope release on both machines");
    auto report = fromWire(r.machine_report());
    if (report) report->source += " on " + hostname() + " (the agent's machine)";
    return report;
}

} // namespace rdt::remote
