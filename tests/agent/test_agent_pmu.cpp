// SPDX-License-Identifier: GPL-3.0-or-later
// PMU captures through the agent (docs/PROTOCOL.md "PMU captures"): RemoteEngine over a socketpair to the agent's
// ServiceHandler answers as a local CaptureService does (the simulated PMU is deterministic), a real cpu-clock
// capture of a launched program names its functions on the agent's side, and the agent's checks of a client's
// PMU request (who may launch a command, PID ranges, polkit action) refuse what they must.
#include "InProcessAgent.h"
#include "agent/AgentServer.h"
#include "agent/Authorization.h"
#include "agent/CommandChecks.h"
#include "agent/ServiceHandler.h"
#include "engine/CaptureService.h"
#include "remote/PmuCodec.h"
#include "remote/RemoteEngine.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace rdt;
using namespace rdt::engine;

namespace {

struct Capture {
    PmuStarted started;
    std::vector<PmuBatch> batches;
    Result<PmuReport> report = makeError("not run");
};

/// Runs a capture through `e`: `pumps` pumps (or until the command exits), then stop and report.
Capture runCapture(Engine& e, const PmuRequest& request, int pumps, bool paced = false)
{
    Capture c;
    c.started = e.startPmu(request);
    if (!c.started.result.ok) return c;
    const auto id = c.started.info.id;
    for (int i = 0; i < pumps && !e.pmuFinished(id); ++i) {
        if (paced) e.waitUntil(std::chrono::steady_clock::now() + std::chrono::milliseconds(25));
        EXPECT_TRUE(e.pumpPmu(id).ok);
        EXPECT_TRUE(e.readPmuCounters(id).ok);
    }
    EXPECT_TRUE(e.stopPmu(id).ok);
    c.batches = e.drainPmuBatches();
    c.report = e.pmuReport(id, 10);
    return c;
}

std::unique_ptr<CaptureService> pmuOnly()
{
    ServiceOptions o;
    o.openRdt = false;
    auto s = CaptureService::open(o);
    return s ? std::move(*s) : nullptr;
}

std::unique_ptr<remote::RemoteEngine> remotePmuOnly(InProcessAgent& agent)
{
    ServiceOptions o;
    o.openRdt = false;
    auto c = agent.client();
    if (!c) return nullptr;
    auto e = remote::RemoteEngine::open(std::move(c), o);
    EXPECT_TRUE(e) << (e ? "" : e.error().toString());
    return e ? std::move(*e) : nullptr;
}

} // namespace

TEST(AgentPmu, SimulatedCapturesMatchTheLocalEngine)
{
    // The last one is the GUI's simulated PMU: every recipe at once, a Skylake-SP PMU, on a paced clock. The wire
    // carries the simulated settings, or the agent's capture would differ from the local one.
    PmuRequest gui;
    gui.kind = PmuCaptureKind::All;
    gui.simPmu = "skx";
    gui.simCyclesPerPump = 2'000'000;
    gui.simGhz = 0.08;
    const auto only = [](PmuCaptureKind k) {
        PmuRequest r;
        r.kind = k;
        return r;
    };
    for (PmuRequest r :
        { only(PmuCaptureKind::LbrCallStack), only(PmuCaptureKind::LoadLatency), only(PmuCaptureKind::Tma), gui }) {
        const auto kind = r.kind;
        SCOPED_TRACE(static_cast<int>(kind));
        InProcessAgent agent;
        auto remote = remotePmuOnly(agent);
        auto mine = pmuOnly();
        ASSERT_TRUE(remote && mine);
        EXPECT_FALSE(remote->hasRdt());
        r.simulated = true;
        r.keepSamples = true;
        const auto theirs = runCapture(*remote, r, 20);
        const auto ours = runCapture(*mine, r, 20);
        ASSERT_TRUE(theirs.started.result.ok) << theirs.started.result.toString();
        ASSERT_TRUE(ours.started.result.ok);
        EXPECT_EQ(theirs.started.info.pmusUsed, ours.started.info.pmusUsed);
        ASSERT_EQ(theirs.started.info.parts.size(), ours.started.info.parts.size());
        EXPECT_EQ(theirs.started.info.parts[0].description, ours.started.info.parts[0].description);
        EXPECT_EQ(theirs.started.info.parts[0].counting, ours.started.info.parts[0].counting);
        // The same batches: counts, decoded samples and the engine's names.
        ASSERT_EQ(theirs.batches.size(), ours.batches.size());
        std::size_t decoded = 0, names = 0;
        for (std::size_t i = 0; i < ours.batches.size(); ++i) {
            const auto& a = theirs.batches[i];
            const auto& b = ours.batches[i];
            EXPECT_EQ(a.samples, b.samples);
            ASSERT_EQ(a.decoded.size(), b.decoded.size());
            for (std::size_t j = 0; j < b.decoded.size(); ++j) {
                EXPECT_EQ(a.decoded[j].ip, b.decoded[j].ip);
                EXPECT_EQ(a.decoded[j].timeNs, b.decoded[j].timeNs);
                EXPECT_EQ(a.decoded[j].branches.size(), b.decoded[j].branches.size());
                EXPECT_EQ(a.decoded[j].latency, b.decoded[j].latency);
                // The call trees' thread, CPU and callchain cross the protocol as the engine kept them.
                EXPECT_EQ(a.decoded[j].tid, b.decoded[j].tid);
                EXPECT_EQ(a.decoded[j].cpu, b.decoded[j].cpu);
                EXPECT_EQ(a.decoded[j].callchain, b.decoded[j].callchain);
                EXPECT_EQ(a.decoded[j].userStack, b.decoded[j].userStack);
            }
            ASSERT_EQ(a.names.size(), b.names.size());
            for (std::size_t j = 0; j < b.names.size(); ++j)
                EXPECT_EQ(a.names[j].symbol.function, b.names[j].symbol.function);
            ASSERT_EQ(a.tma.size(), b.tma.size());
            for (std::size_t j = 0; j < b.tma.size(); ++j) {
                EXPECT_EQ(a.tma[j].timeNs, b.tma[j].timeNs);
                EXPECT_DOUBLE_EQ(a.tma[j].breakdown.level1.retiring, b.tma[j].breakdown.level1.retiring);
            }
            decoded += b.decoded.size();
            names += b.names.size();
        }
        if (kind != PmuCaptureKind::Tma) {
            EXPECT_GT(decoded, 100u);
            EXPECT_GT(names, 5u);
        }
        // The same report.
        ASSERT_TRUE(theirs.report.ok()) << theirs.report.error().toString();
        ASSERT_TRUE(ours.report.ok());
        EXPECT_EQ(theirs.report->branches.has_value(), ours.report->branches.has_value());
        if (ours.report->branches) {
            ASSERT_EQ(theirs.report->branches->functions.size(), ours.report->branches->functions.size());
            for (std::size_t i = 0; i < ours.report->branches->functions.size(); ++i) {
                EXPECT_EQ(theirs.report->branches->functions[i].name, ours.report->branches->functions[i].name);
                EXPECT_EQ(theirs.report->branches->functions[i].self, ours.report->branches->functions[i].self);
            }
            ASSERT_EQ(theirs.report->branches->edges.size(), ours.report->branches->edges.size());
            if (!ours.report->branches->edges.empty()) {
                EXPECT_EQ(theirs.report->branches->edges[0].stats.count, ours.report->branches->edges[0].stats.count);
            }
        }
        EXPECT_EQ(theirs.report->loads.has_value(), ours.report->loads.has_value());
        if (ours.report->loads) {
            EXPECT_EQ(theirs.report->loads->histogram, ours.report->loads->histogram);
            EXPECT_EQ(theirs.report->loads->total.count, ours.report->loads->total.count);
            ASSERT_EQ(theirs.report->loads->functions.size(), ours.report->loads->functions.size());
            for (std::size_t i = 0; i < ours.report->loads->functions.size(); ++i)
                EXPECT_EQ(theirs.report->loads->functions[i].key, ours.report->loads->functions[i].key);
        }
        ASSERT_EQ(theirs.report->tmaTotals.size(), ours.report->tmaTotals.size());
        for (std::size_t i = 0; i < ours.report->tmaTotals.size(); ++i)
            EXPECT_DOUBLE_EQ(
                theirs.report->tmaTotals[i].level1.backendBound, ours.report->tmaTotals[i].level1.backendBound);
        ASSERT_EQ(theirs.report->parts.size(), ours.report->parts.size());
        EXPECT_EQ(theirs.report->parts[0].ring.records, ours.report->parts[0].ring.records);
        EXPECT_DOUBLE_EQ(theirs.report->simulatedCpuMs, ours.report->simulatedCpuMs);
        if (kind == PmuCaptureKind::All) {
            EXPECT_NE(theirs.started.info.pmusUsed.find("Skylake-SP"), std::string::npos);
            EXPECT_EQ(theirs.started.info.parts.size(), 3u);
            EXPECT_TRUE(theirs.report->branches && theirs.report->loads);
            EXPECT_EQ(theirs.report->tmaTotals.size(), 1u);
            EXPECT_GT(decoded, 100u);
        }
    }
}

TEST(AgentPmu, ARealCaptureOfALaunchedProgramIsNamedOnTheAgent)
{
    // cpu-clock needs no hardware PMU: a real perf_event_open capture on the agent's side of the connection.
    InProcessAgent agent;
    auto remote = remotePmuOnly(agent);
    ASSERT_TRUE(remote);
    PmuRequest r;
    r.kind = PmuCaptureKind::CpuClock;
    r.command = { PMU_LIVE_TARGET, "0.5" };
    r.keepSamples = true;
    const auto c = runCapture(*remote, r, 400, /*paced=*/true);
    if (!c.started.result.ok) GTEST_SKIP() << "perf_event_open refused here: " << c.started.result.toString();
    ASSERT_TRUE(c.report.ok()) << c.report.error().toString();
    std::map<std::string, std::uint64_t> byName;
    for (const auto& f : c.report->hotFunctions)
        byName[f.name] += f.self;
    EXPECT_GT(byName["rdtscope_live_inner"], 0u);
    // The batches carry the same samples with the agent's names: a client aggregating them agrees.
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::string> names;
    for (const auto& b : c.batches)
        for (const auto& n : b.names)
            names[{ n.pid, n.addr }] = n.symbol.function;
    std::map<std::string, std::uint64_t> fromBatches;
    for (const auto& b : c.batches)
        for (const auto& s : b.decoded)
            ++fromBatches[names.at({ s.pid, s.ip })];
    EXPECT_EQ(fromBatches, byName);
    EXPECT_TRUE(c.batches.back().finished);
}

TEST(AgentPmu, RefusalsComeBackAsTheEngineSaysThem)
{
    InProcessAgent agent;
    auto remote = remotePmuOnly(agent);
    ASSERT_TRUE(remote);
    PmuRequest simWithTarget;
    simWithTarget.simulated = true;
    simWithTarget.pids = { 1 };
    const auto a = remote->startPmu(simWithTarget);
    EXPECT_FALSE(a.result.ok);
    EXPECT_EQ(a.failure, PmuFailure::BadRequest);
    PmuRequest badPid;
    badPid.kind = PmuCaptureKind::CpuClock;
    badPid.pids = { 0 };
    const auto b = remote->startPmu(badPid);
    EXPECT_FALSE(b.result.ok);
    EXPECT_EQ(b.failure, PmuFailure::BadRequest);
    EXPECT_FALSE(remote->pumpPmu(99).ok);
    EXPECT_FALSE(remote->pmuReport(99, 10).ok());
    EXPECT_FALSE(remote->pmuFinished(99));
}

TEST(AgentPmu, WhoMayAskForWhat)
{
    namespace pb = rdtscope::agent::v1;
    pb::Request real;
    real.mutable_start_pmu()->set_kind(pb::PMU_CPU_CLOCK);
    real.mutable_start_pmu()->add_pids(1);
    EXPECT_EQ(agent::actionFor(real), agent::Action::Profile); // org.rdtscope.agent.profile
    pb::Request sim;
    sim.mutable_start_pmu()->set_simulated(true);
    EXPECT_EQ(agent::actionFor(sim), agent::Action::Monitor);

    pb::StartPmu launch;
    launch.set_kind(pb::PMU_CPU_CLOCK);
    launch.add_command("/bin/true");
    launch.set_ldlat(30);
    launch.set_memory_scale(1);
    protocol::PeerCredentials user;
    user.uid = 1000;
    auto refused = agent::checkPmuRequest(launch, user);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, EACCES);
    EXPECT_NE(refused.error().message.find("only root may make the agent launch a command"), std::string::npos);
    protocol::PeerCredentials root;
    EXPECT_TRUE(agent::checkPmuRequest(launch, root));
    EXPECT_TRUE(agent::checkPmuRequest(launch, std::nullopt)); // stdio: ssh or pkexec authenticated the client

    pb::StartPmu bad = launch;
    bad.clear_command();
    bad.set_kind(static_cast<pb::PmuCaptureKind>(42));
    EXPECT_FALSE(agent::checkPmuRequest(bad, std::nullopt));
    bad.set_kind(pb::PMU_LOAD_LATENCY);
    bad.set_ldlat(0);
    EXPECT_FALSE(agent::checkPmuRequest(bad, std::nullopt));
    bad.set_ldlat(30);
    bad.add_pids(0);
    EXPECT_FALSE(agent::checkPmuRequest(bad, std::nullopt));
}

// A sample's thread, CPU and callchain (the call trees' inputs) survive the wire; a CPU that was not recorded stays
// unknown instead of becoming CPU 0.
TEST(AgentPmu, SampleThreadCpuAndCallchainCrossTheWire)
{
    PmuBatch in;
    PmuSampleRecord known;
    known.pid = 10;
    known.tid = 11;
    known.cpu = 3;
    known.callchain = { pmu::perf::ContextUser, 0x401000, 0x402000 };
    PmuSampleRecord unknown;
    unknown.pid = unknown.tid = 12;
    unknown.userStack = true;
    in.decoded = { known, unknown };
    remote::pb::PmuBatch wire;
    remote::toWire(in, wire);
    const auto out = remote::fromWire(wire);
    ASSERT_EQ(out.decoded.size(), 2u);
    EXPECT_EQ(out.decoded[0].tid, 11u);
    EXPECT_EQ(out.decoded[0].cpu, 3u);
    EXPECT_EQ(out.decoded[0].callchain, known.callchain);
    EXPECT_EQ(out.decoded[1].cpu, pmu::kUnknownCpu);
    EXPECT_TRUE(out.decoded[1].userStack);
    EXPECT_TRUE(out.decoded[1].callchain.empty());
}
