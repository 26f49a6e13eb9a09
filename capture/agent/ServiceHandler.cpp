// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServiceHandler.h"

#include "CommandChecks.h"
#include "engine/CaptureService.h"
#include "protocol/RdtCodec.h"
#include "rdt/Schemata.h"
#include "remote/EngineCodec.h"
#include "remote/MachineCodec.h"
#include "remote/PmuCodec.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <sys/eventfd.h>
#include <unistd.h>

namespace rdt::agent {

namespace {

void fail(pb::Response& response, const Error& e)
{
    remote::toWire(engine::CommandResult::failure(e), response);
}

class ServiceHandler final : public RequestHandler {
public:
    ServiceHandler(const AgentContext& context, const std::optional<protocol::PeerCredentials>& peer)
        : m_ctx(context)
        , m_peer(peer)
        , m_wake(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
        , m_auth(context.polkit, subject(context, peer))
    { }

    int wakeFd() const override { return m_wake.get(); }

    void handle(const pb::Request& request, pb::Response& response) override
    {
        if (auto allowed = m_auth.check(actionFor(request)); !allowed) {
            m_ctx.log(who() + "refused: " + allowed.error().message);
            return fail(response, allowed.error());
        }
        switch (request.command_case()) {
        case pb::Request::kPing:
            response.mutable_pong()->set_payload(request.ping().payload());
            return;
        case pb::Request::kOpenSource:
            return openSource(request.open_source(), response);
        default:
            break;
        }
        if (m_service)
            if (auto bounded = checkWorkBounds(
                    request, m_service->source().simulated ? std::optional(m_service->nowNs()) : std::nullopt);
                !bounded) {
                m_ctx.log(who() + "refused: " + bounded.error().message);
                return fail(response, bounded.error());
            }
        if (!m_service) {
            // A command the agent knows that needs a source, or one it does not know at all.
            if (request.command_case() > pb::Request::kResctrlSetting || request.command_case() == 0)
                return fail(response,
                    makeError("this agent does not know command #" + std::to_string(request.command_case()),
                        "install the same rdtscope release on both machines"));
            return fail(response,
                errnoError(ENODEV, "no source is open on this connection", "send OpenSource first (a client bug)"));
        }
        engine::CaptureService& svc = *m_service;
        switch (request.command_case()) {
        case pb::Request::kGetSnapshot: {
            const auto snap = svc.snapshot(request.get_snapshot().with_tasks());
            remote::toWire(snap.result, response);
            if (snap.result.ok) remote::toWire(snap, *response.mutable_snapshot());
            return;
        }
        case pb::Request::kAdvanceTo:
            return advanceTo(request.advance_to().time_ns(), response);
        case pb::Request::kGroupCommand:
            return groupCommand(request.group_command(), response);
        case pb::Request::kApplyAllocation:
            return applyAllocation(request.apply_allocation(), response);
        case pb::Request::kSetSamplingInterval:
            return done(svc.setSamplingInterval(request.set_sampling_interval().interval_ns()), response);
        case pb::Request::kPollRdt:
            return done(svc.pollRdt(), response);
        case pb::Request::kStartSampling: {
            const auto r = svc.startSampling();
            if (r.ok) m_streaming = true;
            return done(r, response);
        }
        case pb::Request::kStopSampling:
            svc.stopSampling();
            m_streaming = false;
            return done(engine::CommandResult::success(), response);
        case pb::Request::kStartPmu:
            return startPmu(request.start_pmu(), response);
        case pb::Request::kPmuCommand:
            return pmuCommand(request.pmu_command(), response);
        case pb::Request::kPmuReport: {
            const auto& q = request.pmu_report();
            auto report = svc.pmuReport(q.id(), std::min<std::uint32_t>(q.top_n(), 10000));
            if (!report) return fail(response, report.error());
            return remote::toWire(*report, *response.mutable_pmu_report());
        }
        case pb::Request::kExperiment:
            return experiment(request.experiment(), response);
        case pb::Request::kResctrlSetting:
            return resctrlSetting(request.resctrl_setting(), response);
        case pb::Request::kCountGroupPmu:
            return countGroupPmu(request.count_group_pmu(), response);
        case pb::Request::kDescribeMachine: {
            auto report = svc.describeMachine();
            if (!report) return fail(response, report.error());
            return remote::toWire(*report, *response.mutable_machine_report());
        }
        default:
            return fail(response,
                makeError("this agent does not know command #" + std::to_string(request.command_case()),
                    "install the same rdtscope release on both machines"));
        }
    }

    void cancel() override { m_cancelled = true; }
    bool streaming() const override { return m_streaming; }

    void takeEvents(std::vector<Outgoing>& out) override
    {
        if (m_wake) {
            std::uint64_t count = 0;
            (void)!::read(m_wake.get(), &count, sizeof count); // re-arm; EAGAIN when nothing was signalled
        }
        if (!m_service) return;
        for (auto& e : m_service->drainEvents()) {
            if (auto* batch = std::get_if<RdtSampleBatch>(&e)) {
                out.emplace_back(std::move(*batch));
                continue;
            }
            pb::Envelope env;
            if (remote::toWire(e, *env.mutable_event())) out.emplace_back(std::move(env));
        }
        // Events the service itself dropped (nobody drained them in time) are said once per increase.
        if (const auto dropped = m_service->droppedEvents(); dropped > m_reportedDropped) {
            pb::Envelope env;
            auto* n = env.mutable_event()->mutable_notice();
            n->set_level(pb::Notice::WARNING);
            n->set_text(std::to_string(dropped - m_reportedDropped) + " engine events were dropped on the agent");
            n->set_where("agent");
            n->set_time_ns(m_service->nowNs());
            m_reportedDropped = dropped;
            out.emplace_back(std::move(env));
        }
    }

    void end(const std::string& why) override
    {
        m_streaming = false;
        if (!m_service) return;
        m_service->stopSampling();
        restoreExperiment(why); // first: --restore-on-exit then puts back what the connection found
        if (m_ctx.restoreOnExit) restoreAllocations(why);
        m_service.reset();
    }

private:
    void done(const engine::CommandResult& r, pb::Response& response)
    {
        remote::toWire(r, response);
        if (r.ok) response.mutable_done();
    }

    void openSource(const pb::OpenSource& o, pb::Response& response)
    {
        if (auto ok = checkSourceRequest(o.source(), o.scenario(), o.preset(), m_peer); !ok)
            return fail(response, ok.error());
        if (m_service) end("the client opened another source");
        m_streaming = false;
        m_restore.clear();
        m_experiment.clear();
        engine::ServiceOptions opt;
        opt.rdt.spec = o.source();
        if (!o.scenario().empty()) opt.rdt.scenario = o.scenario();
        opt.rdt.simPreset = o.preset();
        opt.openRdt = o.open_rdt();
        opt.sncNodeSamples = o.snc_node_samples();
        opt.who = "agent";
        auto svc = engine::CaptureService::open(opt);
        if (!svc) return fail(response, svc.error());
        auto* out = response.mutable_source_opened();
        if ((*svc)->hasRdt()) {
            auto machine = (*svc)->machine();
            if (!machine) return fail(response, machine.error());
            protocol::toWire(machine->capabilities, *out->mutable_capabilities());
            out->set_cpuid_json(machine->cpuidJson);
            out->set_kernel(machine->kernel);
        }
        remote::toWire((*svc)->source(), *out->mutable_source());
        out->set_now_ns((*svc)->nowNs());
        out->set_sampling_interval_ns((*svc)->samplingIntervalNs());
        out->set_hostname(m_ctx.identity.hostname);
        m_ctx.log(who() + "opened source " + (*svc)->source().kind + " (" + (*svc)->source().backend + ")");
        m_service = std::move(*svc);
        m_reportedDropped = 0;
        if (m_wake)
            m_service->setEventWakeup([fd = m_wake.get()] {
                const std::uint64_t one = 1;
                (void)!::write(fd, &one, sizeof one); // an eventfd add; the count saturates harmlessly
            });
    }

    /// Runs the simulated machine to `target` (checked against kMaxAdvanceNs) in slices, so that an ending session
    /// or a stopping agent stops it within one slice.
    void advanceTo(std::uint64_t target, pb::Response& response)
    {
        engine::CaptureService& svc = *m_service;
        for (std::uint64_t t = svc.nowNs(); svc.source().simulated && t < target && !m_cancelled;) {
            t = target - t > kAdvanceSliceNs ? t + kAdvanceSliceNs : target;
            svc.advanceTo(t);
        }
        if (m_cancelled) return fail(response, errnoError(ECANCELED, "AdvanceTo was stopped: the session is ending"));
        response.mutable_now()->set_now_ns(svc.nowNs());
    }

    void startPmu(const pb::StartPmu& s, pb::Response& response)
    {
        auto request = checkPmuRequest(s, m_peer);
        if (!request) {
            toWire(engine::PmuStarted { engine::CommandResult::failure(request.error()), engine::PmuFailure::BadRequest,
                       {} },
                response);
            return;
        }
        const auto started = m_service->startPmu(*request);
        toWire(started, response);
        if (started.result.ok)
            m_ctx.log(who() + "started PMU capture " + std::to_string(started.info.id) + " ("
                + (request->simulated ? "simulated" : started.info.pmusUsed) + ")");
    }

    static void toWire(const engine::PmuStarted& started, pb::Response& response)
    {
        remote::toWire(started.result, response);
        remote::toWire(started, *response.mutable_pmu_started());
    }

    void pmuCommand(const pb::PmuCommand& c, pb::Response& response)
    {
        engine::CaptureService& svc = *m_service;
        engine::CommandResult r;
        bool finished = false;
        switch (c.op()) {
        case pb::PmuCommand::PUMP:
            r = svc.pumpPmu(c.id());
            break;
        case pb::PmuCommand::READ_COUNTERS:
            r = svc.readPmuCounters(c.id());
            break;
        case pb::PmuCommand::STOP:
            r = svc.stopPmu(c.id());
            break;
        case pb::PmuCommand::FINISHED:
            finished = svc.pmuFinished(c.id());
            break;
        default:
            return fail(response, errnoError(EINVAL, "unknown PMU operation " + std::to_string(c.op())));
        }
        remote::toWire(r, response);
        // The batches the command queued answer it, so PMU data is paced by the client's requests.
        auto* out = response.mutable_pmu_batches();
        out->set_finished(finished);
        for (const auto& b : svc.drainPmuBatches())
            remote::toWire(b, *out->add_batches());
    }

    /// done() with the capabilities as the command left them (pb::Done).
    void doneWithCapabilities(const engine::CommandResult& r, pb::Response& response)
    {
        done(r, response);
        if (!r.ok) return;
        if (auto machine = m_service->machine())
            protocol::toWire(machine->capabilities, *response.mutable_done()->mutable_capabilities());
    }

    void groupCommand(const pb::GroupCommand& c, pb::Response& response)
    {
        engine::CaptureService& svc = *m_service;
        auto ids = checkGroupCommand(c, svc);
        if (!ids) return fail(response, ids.error());
        switch (c.op()) {
        case pb::GroupCommand::CREATE:
            return doneWithCapabilities(svc.createGroup(c.name()), response);
        case pb::GroupCommand::CREATE_MONITOR:
            return doneWithCapabilities(svc.createMonitorGroup(c.path(), c.name()), response);
        case pb::GroupCommand::DELETE:
            return doneWithCapabilities(svc.deleteGroup(c.path()), response);
        case pb::GroupCommand::ASSIGN_TASKS:
            return done(svc.assignTasks(c.path(), *ids), response);
        case pb::GroupCommand::ASSIGN_CPUS:
            return done(svc.assignCpus(c.path(), *ids), response);
        default:
            return fail(response, errnoError(EINVAL, "unknown group operation " + std::to_string(c.op())));
        }
    }

    void resctrlSetting(const pb::ResctrlSetting& s, pb::Response& response)
    {
        if (auto ok = checkResctrlSetting(s); !ok) return fail(response, ok.error());
        engine::CaptureService& svc = *m_service;
        switch (s.op()) {
        case pb::ResctrlSetting::ASSIGN_COUNTER:
        case pb::ResctrlSetting::UNASSIGN_COUNTER:
            return doneWithCapabilities(
                svc.assignCounter(s.path(), s.event(), s.domain(), s.op() == pb::ResctrlSetting::ASSIGN_COUNTER),
                response);
        case pb::ResctrlSetting::CONFIGURE_EVENT:
            return doneWithCapabilities(svc.configureMbmEvent(s.event(), s.domain(), s.transactions()), response);
        case pb::ResctrlSetting::SET_CDP:
            return doneWithCapabilities(svc.setCdp(s.enabled()), response);
        default:
            return fail(response, errnoError(EINVAL, "unknown resctrl setting " + std::to_string(s.op())));
        }
    }

    void applyAllocation(const pb::ApplyAllocation& a, pb::Response& response)
    {
        auto change = Schemata::parseStrict(a.schemata());
        if (!change) return fail(response, errnoError(EINVAL, change.error().message, change.error().advice));
        if (m_ctx.restoreOnExit && !m_restore.count(a.group())) {
            // What the group had before this connection first changed it (--restore-on-exit).
            for (const auto& g : m_service->snapshot().groups)
                if (g.info.path == a.group()) m_restore[a.group()] = g.schemata;
        }
        const auto out = m_service->applyAllocation(a.group(), *change);
        remote::toWire(out.result, response);
        // Also on failure: whether it rolled back and what each domain saw are part of the engine's answer.
        remote::toWire(out, *response.mutable_allocation_applied());
    }

    /// BEGIN saves what the named groups hold now (a group already saved keeps its first value: that is the
    /// original); END forgets them, the client having restored them itself. Unknown groups are refused.
    void experiment(const pb::Experiment& e, pb::Response& response)
    {
        if (e.op() == pb::Experiment::END) {
            m_experiment.clear();
            return done(engine::CommandResult::success(), response);
        }
        if (e.op() != pb::Experiment::BEGIN)
            return fail(response, errnoError(EINVAL, "unknown experiment operation " + std::to_string(e.op())));
        const auto snap = m_service->snapshot();
        if (!snap.result.ok) return fail(response, snap.result.error());
        std::map<std::string, Schemata> saved;
        for (const auto& name : e.groups()) {
            const auto g = std::find_if(snap.groups.begin(), snap.groups.end(),
                [&](const auto& s) { return s.info.path == name && s.info.isControl; });
            if (g == snap.groups.end())
                return fail(response,
                    errnoError(ENOENT, "experiment: no control group '" + name + "'",
                        "name the control groups the experiment writes (rdtscope-cli groups lists them)"));
            saved[name] = g->schemata;
        }
        for (auto& [name, schemata] : saved)
            m_experiment.emplace(name, std::move(schemata));
        m_ctx.log(who() + "experiment begun on " + std::to_string(saved.size()) + " groups");
        done(engine::CommandResult::success(), response);
    }

    /// A sweep step's counts of a group's tasks, by this agent's PMU (or simulated machine). A request that claimed a
    /// simulated source was authorized as Monitor only: it must not count real threads.
    void countGroupPmu(const pb::CountGroupPmu& c, pb::Response& response)
    {
        if (c.simulated() && !m_service->source().simulated)
            return fail(response,
                errnoError(EPERM, "a count asked for as simulated on a real source",
                    "count real threads without the simulated flag (needs the Profile authorization)"));
        auto counts = m_service->countGroupPmu(c.group());
        if (!counts) return fail(response, counts.error());
        remote::toWire(*counts, *response.mutable_group_pmu_counts());
    }

    /// The client went during an experiment: its groups get back what they held at BEGIN, through the same
    /// transactional write as any allocation.
    void restoreExperiment(const std::string& why)
    {
        for (const auto& [group, schemata] : m_experiment) {
            const auto r = m_service->applyAllocation(group, schemata);
            m_ctx.log(who() + (r.result.ok ? "restored" : "could not restore") + " the allocation of '" + group
                + "' after an unfinished experiment (" + why + ")" + (r.result.ok ? "" : ": " + r.result.toString()));
        }
        m_experiment.clear();
    }

    void restoreAllocations(const std::string& why)
    {
        for (const auto& [group, schemata] : m_restore) {
            const auto r = m_service->applyAllocation(group, schemata);
            m_ctx.log(who() + (r.result.ok ? "restored" : "could not restore") + " the allocation of '" + group + "' ("
                + why + ")" + (r.result.ok ? "" : ": " + r.result.toString()));
        }
        m_restore.clear();
    }

    /// Whom polkit is asked about: the socket peer, or pkexec's caller (the agent's parent, as pkexec execs the
    /// agent in its own process); none for an ssh client, whom sshd authenticated.
    static std::optional<Subject> subject(const AgentContext& ctx, const std::optional<protocol::PeerCredentials>& peer)
    {
        Result<Subject> s = peer ? subjectOf(peer->pid, peer->uid)
            : ctx.pkexecUid      ? subjectOf(::getppid(), *ctx.pkexecUid)
                                 : Result<Subject>(makeError("no subject"));
        if (!s) return std::nullopt;
        s->interactive = !peer; // pkexec's caller has an authentication agent (pkexec needed one too)
        return *s;
    }

    std::string who() const { return m_peer ? m_peer->userName + ": " : std::string {}; }

    const AgentContext& m_ctx;
    std::optional<protocol::PeerCredentials> m_peer;
    UniqueFd m_wake; ///< eventfd the service's wakeup writes, polled by the agent's loop
    Authorizer m_auth;
    std::unique_ptr<engine::CaptureService> m_service;
    std::map<std::string, Schemata> m_restore;
    std::map<std::string, Schemata> m_experiment; ///< an unfinished experiment's groups as they were at BEGIN
    std::uint64_t m_reportedDropped = 0;
    std::atomic<bool> m_cancelled { false }; ///< the session is ending (set from the agent's loop)
    std::atomic<bool> m_streaming { false }; ///< StartSampling's batches flow to the client (read by the loop)
};
}

std::unique_ptr<RequestHandler> makeServiceHandler(
    const AgentContext& context, const std::optional<protocol::PeerCredentials>& peer)
{
    return std::make_unique<ServiceHandler>(context, peer);
}

} // namespace rdt::agent
