// SPDX-License-Identifier: GPL-3.0-or-later
// The agent's ServiceHandler serving the capture engine, driven through RemoteEngine over a socketpair: the agent
// loop (AgentServer::serveStdio) runs on a thread with one end, the client holds the other. Every answer is
// compared with what a local CaptureService returns for the same calls (the simulator is deterministic), and
// the agent's checks of client input are exercised with hand-made requests.
#include "../rdt/TestTree.h"
#include "InProcessAgent.h"
#include "agent/AgentServer.h"
#include "agent/ServiceHandler.h"
#include "engine/CaptureService.h"
#include "rdt/ResctrlFeatures.h"
#include "remote/RemoteEngine.h"

#include <gtest/gtest.h>

#include <set>
#include <sys/socket.h>
#include <thread>
#include <tuple>
#include <unistd.h>

using namespace rdt;
using namespace rdt::engine;

namespace {

std::unique_ptr<CaptureService> local(
    const std::string& source, const std::string& scenario = "noisy-neighbour", const std::string& preset = "")
{
    ServiceOptions o;
    o.rdt.spec = source;
    o.rdt.scenario = scenario;
    o.rdt.simPreset = preset;
    auto s = CaptureService::open(o);
    EXPECT_TRUE(s) << (s ? "" : s.error().toString());
    return s ? std::move(*s) : nullptr;
}

std::vector<RdtSampleBatch> batches(Engine& e)
{
    std::vector<RdtSampleBatch> out;
    for (auto& ev : e.drainEvents())
        if (auto* b = std::get_if<RdtSampleBatch>(&ev)) out.push_back(std::move(*b));
    return out;
}

std::vector<std::string> simulationTexts(const std::vector<EngineEvent>& events)
{
    std::vector<std::string> out;
    for (const auto& ev : events)
        if (const auto* s = std::get_if<SimulationEvent>(&ev)) out.push_back(s->text);
    return out;
}
}

TEST(AgentEngine, OpensTheSameSimulatedMachineAsALocalService)
{
    InProcessAgent agent;
    auto remote = agent.engine("sim");
    auto mine = local("sim");
    ASSERT_TRUE(remote && mine);
    EXPECT_EQ(remote->source().why, mine->source().why);
    EXPECT_EQ(remote->source().backend, mine->source().backend);
    EXPECT_TRUE(remote->source().simulated);
    EXPECT_EQ(remote->source().simulation, mine->source().simulation);
    auto rm = remote->machine();
    auto lm = mine->machine();
    ASSERT_TRUE(rm && lm);
    ASSERT_EQ(rm->capabilities.resources.size(), lm->capabilities.resources.size());
    for (std::size_t i = 0; i < lm->capabilities.resources.size(); ++i) {
        EXPECT_EQ(rm->capabilities.resources[i].name, lm->capabilities.resources[i].name);
        EXPECT_EQ(rm->capabilities.resources[i].cbmMask, lm->capabilities.resources[i].cbmMask);
    }
    EXPECT_EQ(rm->capabilities.monitoring.counterWidth, lm->capabilities.monitoring.counterWidth);
    EXPECT_EQ(rm->cpuidJson, lm->cpuidJson);
    EXPECT_EQ(remote->nowNs(), mine->nowNs());
    EXPECT_EQ(remote->samplingIntervalNs(), mine->samplingIntervalNs());
    EXPECT_EQ(remote->location(), "the agent at unix:socketpair");
    EXPECT_EQ(remote->hostname(), "testhost");
    EXPECT_EQ(rm->hostname, "testhost");
    EXPECT_EQ(rm->kernel, lm->kernel);
    EXPECT_EQ(rm->kernel.rfind("Linux ", 0), 0u) << rm->kernel;
}

TEST(AgentEngine, SimulatesTheCpuPresetTheClientAsksFor)
{
    InProcessAgent agent;
    auto remote = agent.engine("sim", "noisy-neighbour", "epyc-genoa");
    auto mine = local("sim", "noisy-neighbour", "epyc-genoa");
    auto intel = local("sim");
    ASSERT_TRUE(remote && mine && intel);
    EXPECT_EQ(remote->source().why, mine->source().why);
    EXPECT_NE(remote->source().why.find("preset epyc-genoa"), std::string::npos) << remote->source().why;
    auto rm = remote->machine();
    auto lm = mine->machine();
    auto im = intel->machine();
    ASSERT_TRUE(rm && lm && im);
    EXPECT_EQ(rm->cpuidJson, lm->cpuidJson);
    EXPECT_NE(rm->cpuidJson, im->cpuidJson); // the preset reached the agent's simulator, not the scenario's CPU
    EXPECT_EQ(rm->capabilities.resources.size(), lm->capabilities.resources.size());
    const auto rs = remote->snapshot(false);
    const auto ls = mine->snapshot(false);
    ASSERT_EQ(rs.groups.size(), ls.groups.size());
    for (std::size_t i = 0; i < ls.groups.size(); ++i)
        EXPECT_EQ(rs.groups[i].schemata.format(), ls.groups[i].schemata.format()) << ls.groups[i].info.path;
}

TEST(AgentEngine, SnapshotsPollsAndEventsMatchTheLocalEngine)
{
    InProcessAgent agent;
    auto remote = agent.engine("sim");
    auto mine = local("sim");
    ASSERT_TRUE(remote && mine);
    Engine* both[] = { remote.get(), mine.get() };
    std::vector<std::string> texts[2];
    std::vector<RdtSampleBatch> polled[2];
    for (int i = 0; i < 2; ++i) {
        Engine& e = *both[i];
        const auto t0 = e.nowNs();
        ASSERT_TRUE(e.setSamplingInterval(250'000'000).ok);
        texts[i] = simulationTexts(e.drainEvents());
        for (int k = 1; k <= 8; ++k) {
            e.advanceTo(t0 + static_cast<std::uint64_t>(k) * 250'000'000);
            ASSERT_TRUE(e.pollRdt().ok);
            auto b = batches(e);
            ASSERT_EQ(b.size(), 1u) << "poll " << k << " on engine " << i;
            polled[i].push_back(std::move(b[0]));
        }
    }
    EXPECT_FALSE(texts[0].empty());
    EXPECT_EQ(texts[0], texts[1]);
    ASSERT_EQ(polled[0].size(), polled[1].size());
    for (std::size_t k = 0; k < polled[0].size(); ++k) {
        const auto& r = polled[0][k];
        const auto& l = polled[1][k];
        EXPECT_EQ(r.timeNs, l.timeNs);
        ASSERT_EQ(r.samples.size(), l.samples.size());
        for (std::size_t s = 0; s < l.samples.size(); ++s) {
            EXPECT_EQ(r.samples[s].group, l.samples[s].group);
            EXPECT_EQ(r.samples[s].domain, l.samples[s].domain);
            EXPECT_EQ(r.samples[s].occupancyBytes, l.samples[s].occupancyBytes);
            EXPECT_EQ(r.samples[s].mbmTotalBytes, l.samples[s].mbmTotalBytes);
            EXPECT_EQ(r.samples[s].mbmLocalBytes, l.samples[s].mbmLocalBytes);
            EXPECT_EQ(r.samples[s].flags, l.samples[s].flags);
        }
    }
    const auto rs = remote->snapshot();
    const auto ls = mine->snapshot();
    ASSERT_TRUE(rs.result.ok) << rs.result.toString();
    EXPECT_EQ(rs.timeNs, ls.timeNs);
    ASSERT_EQ(rs.groups.size(), ls.groups.size());
    for (std::size_t g = 0; g < ls.groups.size(); ++g) {
        EXPECT_EQ(rs.groups[g].info.path, ls.groups[g].info.path);
        EXPECT_EQ(rs.groups[g].schemata.format(), ls.groups[g].schemata.format());
        EXPECT_EQ(rs.groups[g].cpus, ls.groups[g].cpus);
        EXPECT_EQ(rs.groups[g].cpusKnown, ls.groups[g].cpusKnown);
        EXPECT_TRUE(ls.groups[g].taskCount.has_value());
        EXPECT_EQ(rs.groups[g].taskCount, ls.groups[g].taskCount);
        EXPECT_EQ(rs.groups[g].schemataError, ls.groups[g].schemataError);
    }
}

TEST(AgentEngine, AllocationsAreOneTransactionWithTheEngineAnswerBothWays)
{
    InProcessAgent agent;
    auto remote = agent.engine("sim");
    ASSERT_TRUE(remote);
    auto ok = remote->applyAllocation("streamer", *Schemata::parseStrict("L3:0=3"));
    ASSERT_TRUE(ok.result.ok) << ok.result.toString();
    EXPECT_FALSE(ok.rolledBack);
    EXPECT_EQ(ok.applied.formatLine("L3"), "L3:0=3\n");
    ASSERT_EQ(ok.changes.size(), 1u);
    EXPECT_EQ(ok.changes[0].newValue, "3");
    EXPECT_EQ(ok.changes[0].who, "agent");
    bool changedEvent = false;
    for (const auto& e : remote->drainEvents())
        if (const auto* c = std::get_if<AllocationChanged>(&e)) changedEvent = c->group == "streamer" && c->ok;
    EXPECT_TRUE(changedEvent);

    // A refused change: the engine's reason, advice and errno-style code arrive as they are.
    auto bad = remote->applyAllocation("streamer", *Schemata::parseStrict("L3:0=0"));
    EXPECT_FALSE(bad.result.ok);
    EXPECT_EQ(bad.result.code, EINVAL) << bad.result.toString();
    EXPECT_NE(bad.result.advice.find("min_cbm_bits"), std::string::npos) << bad.result.toString();
    for (const auto& g : remote->snapshot().groups)
        if (g.info.path == "streamer") {
            EXPECT_EQ(g.schemata.formatLine("L3"), "L3:0=3\n");
        }
}

TEST(AgentEngine, GroupCommandsAreCheckedByTheAgentBeforeTheEngine)
{
    InProcessAgent agent;
    auto remote = agent.engine("sim");
    ASSERT_TRUE(remote);
    ASSERT_TRUE(remote->createGroup("batch").ok);
    EXPECT_TRUE(remote->assignCpus("batch", { 6, 7 }).ok);
    const auto snap = remote->snapshot();
    bool found = false;
    for (const auto& g : snap.groups)
        if (g.info.path == "batch") {
            found = true;
            EXPECT_EQ(g.cpus, (std::vector<unsigned> { 6, 7 }));
        }
    EXPECT_TRUE(found);
    // Names that escape the tree, PID 0 (resctrl would move the agent itself), CPUs that do not exist.
    const auto escape = remote->createGroup("../../etc");
    EXPECT_FALSE(escape.ok);
    EXPECT_EQ(escape.code, EINVAL);
    const auto pid0 = remote->assignTasks("batch", { 0 });
    EXPECT_FALSE(pid0.ok);
    EXPECT_NE(pid0.reason.find("0"), std::string::npos) << pid0.reason;
    const auto cpus = remote->assignCpus("batch", { 4096 });
    EXPECT_FALSE(cpus.ok);
    EXPECT_FALSE(remote->assignCpus("batch", {}).ok);
    EXPECT_FALSE(remote->deleteGroup("mon_groups/../x").ok);
    EXPECT_TRUE(remote->deleteGroup("batch").ok);
}

TEST(AgentEngine, ScenarioFilesAndUnknownSourcesAreRefusedWithAdvice)
{
    {
        InProcessAgent agent;
        auto c = agent.client();
        ASSERT_TRUE(c);
        ServiceOptions o;
        o.rdt.spec = "sim";
        o.rdt.scenario = "/etc/passwd";
        auto e = remote::RemoteEngine::open(std::move(c), o);
        ASSERT_FALSE(e);
        EXPECT_NE(e.error().message.find("built-in scenarios only"), std::string::npos) << e.error().toString();
        EXPECT_NE(e.error().advice.find("noisy-neighbour"), std::string::npos) << e.error().toString();
    }
    {
        InProcessAgent agent;
        auto c = agent.client();
        ASSERT_TRUE(c);
        ServiceOptions o;
        o.rdt.spec = "sim";
        o.rdt.simPreset = "/etc/passwd";
        auto e = remote::RemoteEngine::open(std::move(c), o);
        ASSERT_FALSE(e);
        EXPECT_EQ(e.error().code, EINVAL);
        EXPECT_NE(e.error().message.find("unknown CPU preset"), std::string::npos) << e.error().toString();
        EXPECT_NE(e.error().advice.find("epyc-genoa"), std::string::npos) << e.error().toString();
    }
    {
        InProcessAgent agent;
        auto c = agent.client();
        ASSERT_TRUE(c);
        ServiceOptions o;
        o.rdt.spec = "tcp:0.0.0.0";
        auto e = remote::RemoteEngine::open(std::move(c), o);
        ASSERT_FALSE(e);
        EXPECT_EQ(e.error().code, EINVAL);
    }
}

TEST(AgentEngine, CommandsBeforeOpenSourceSayWhatIsMissing)
{
    InProcessAgent agent;
    auto c = agent.client();
    ASSERT_TRUE(c);
    rdtscope::agent::v1::Request req;
    req.mutable_poll_rdt();
    auto r = c->exchange(req, 5000);
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_TRUE(r->has_error());
    EXPECT_EQ(r->error().code(), ENODEV);
    EXPECT_NE(r->error().advice().find("OpenSource"), std::string::npos);
}

TEST(AgentEngine, WritesAFixtureResctrlTreeAndRestoresItWhenAsked)
{
    test::TempTree tree("resctrl.full");
    const std::string before = tree.read("Guaranteed/schemata");
    {
        InProcessAgent agent(/*restoreOnExit=*/true);
        auto remote = agent.engine("resctrl:" + tree.root(), "");
        ASSERT_TRUE(remote);
        EXPECT_FALSE(remote->source().simulated);
        const auto r = remote->applyAllocation("Guaranteed", *Schemata::parseStrict("L3:0=ff;1=ff"));
        ASSERT_TRUE(r.result.ok) << r.result.toString();
        EXPECT_NE(tree.read("Guaranteed/schemata").find("L3:0=ff;1=ff;"), std::string::npos)
            << tree.read("Guaranteed/schemata");
    } // the client goes: --restore-on-exit puts back what the group had
    EXPECT_EQ(tree.read("Guaranteed/schemata"), before);
}

TEST(AgentEngine, BackgroundSamplingStreamsBatchesUntilStopped)
{
    InProcessAgent agent;
    auto remote = agent.engine("sim");
    ASSERT_TRUE(remote);
    ASSERT_TRUE(remote->setSamplingInterval(20'000'000).ok);
    ASSERT_TRUE(remote->startSampling().ok);
    std::size_t got = 0;
    for (int i = 0; i < 200 && got < 3; ++i) { // bounded: 200 x 10 ms
        got += batches(*remote).size();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    remote->stopSampling();
    EXPECT_GE(got, 3u);
    // Synchronous polls are refused while the sampler runs, and allowed again after stop.
    EXPECT_TRUE(remote->pollRdt().ok);
}

// A front end that paces itself through the engine (monitor --interval 60000 on a wide counter polls rarely) keeps
// its connection: waitUntil sends heartbeats. The agent here gives up after 3 s of silence; the client's heartbeat
// interval is 2 s. The second test is the control: the same wait as a plain sleep loses the connection.
TEST(AgentEngine, WaitingThroughTheEngineKeepsAnIdleConnectionAlive)
{
    InProcessAgent agent(false, 3'000'000'000);
    auto remote = agent.engine("sim");
    ASSERT_TRUE(remote);
    remote->waitUntil(std::chrono::steady_clock::now() + std::chrono::milliseconds(4500));
    const auto r = remote->pollRdt();
    EXPECT_TRUE(r.ok) << r.toString();
    EXPECT_FALSE(remote->connectionLost());
}

TEST(AgentEngine, AClientSilentBeyondTheLimitIsDroppedAndSaysSo)
{
    InProcessAgent agent(false, 3'000'000'000);
    auto remote = agent.engine("sim");
    ASSERT_TRUE(remote);
    std::this_thread::sleep_for(std::chrono::milliseconds(4500));
    EXPECT_FALSE(remote->pollRdt().ok);
    ASSERT_TRUE(remote->connectionLost());
    EXPECT_NE(agent.log().find("silent"), std::string::npos) << agent.log();
}

// rdtscope-cli --connect URL info: the agent describes its own machine with the local report's code, line for line
// (the agent here is this machine); only the CPUID source says whose machine it is.
TEST(AgentEngine, DescribesItsMachineAsTheLocalInfoDoes)
{
    InProcessAgent agent;
    ServiceOptions o;
    o.openRdt = false;
    auto c = agent.client();
    ASSERT_TRUE(c);
    auto remote = remote::RemoteEngine::open(std::move(c), o);
    ASSERT_TRUE(remote) << remote.error().toString();
    auto mine = CaptureService::open(o);
    ASSERT_TRUE(mine);
    const auto theirs = (*remote)->describeMachine();
    const auto ours = (*mine)->describeMachine();
    ASSERT_TRUE(theirs) << theirs.error().toString();
    ASSERT_TRUE(ours);
    EXPECT_EQ(theirs->source, ours->source + " on testhost (the agent's machine)");
    EXPECT_EQ(theirs->rdtWhyNot, ours->rdtWhyNot);
    EXPECT_TRUE(theirs->environmentProbed);
    ASSERT_GT(ours->lines.size(), 20u);
    ASSERT_EQ(theirs->lines.size(), ours->lines.size());
    for (std::size_t i = 0; i < ours->lines.size(); ++i) {
        const auto &a = theirs->lines[i], &b = ours->lines[i];
        EXPECT_EQ(std::tie(a.group, a.name, a.value, a.present, a.origin, a.sdmSection, a.whyNot),
            std::tie(b.group, b.name, b.value, b.present, b.origin, b.sdmSection, b.whyNot))
            << i << ": " << b.name;
    }
    // The same text below the source line: one formatter for both.
    auto body = [](std::string text) { return text.substr(text.find('\n')); };
    EXPECT_EQ(body(formatCapabilityReportText(*theirs)), body(formatCapabilityReportText(*ours)));
}

TEST(AgentEngine, CountersAndCdpAreSetThroughTheAgentAsLocally)
{
    InProcessAgent agent;
    auto remote = agent.engine("sim", "noisy-neighbour", "epyc-genoa");
    auto mine = local("sim", "noisy-neighbour", "epyc-genoa");
    ASSERT_TRUE(remote && mine);
    auto freeIn = [](Engine& e, int domain) {
        auto m = e.machine();
        EXPECT_TRUE(m) << (m ? "" : m.error().toString());
        return m ? valueOfDomain(m->capabilities.monitoring.availableMbmCounters, domain, 999) : 999;
    };
    const auto before = freeIn(*remote, 0);
    ASSERT_EQ(before, freeIn(*mine, 0));
    ASSERT_LT(before, 8u);
    // Freeing one of the victim's counters in domain 0 frees one counter, there as here.
    const auto r = remote->assignCounter("victim", "mbm_total_bytes", 0, false);
    const auto l = mine->assignCounter("victim", "mbm_total_bytes", 0, false);
    ASSERT_TRUE(r.ok) << r.reason;
    ASSERT_TRUE(l.ok) << l.reason;
    EXPECT_EQ(freeIn(*remote, 0), before + 1);
    EXPECT_EQ(freeIn(*mine, 0), before + 1);
    EXPECT_TRUE(remote->assignCounter("victim", "mbm_total_bytes", 0, true).ok);
    EXPECT_EQ(freeIn(*remote, 0), before);
    // The engine's own checks answer through the agent; the agent's refuse hostile values first.
    const auto unknown = remote->assignCounter("victim", "mbm_nonsense", 0, true);
    EXPECT_FALSE(unknown.ok);
    EXPECT_NE(unknown.reason.find("no assignable event"), std::string::npos) << unknown.reason;
    EXPECT_FALSE(remote->assignCounter("../../etc", "mbm_total_bytes", 0, true).ok);
    const auto farDomain = remote->assignCounter("victim", "mbm_total_bytes", 1 << 20, true);
    EXPECT_FALSE(farDomain.ok);
    EXPECT_NE(farDomain.reason.find("no L3 domain"), std::string::npos) << farDomain.reason;
}

TEST(AgentEngine, CdpIsSwitchedThroughTheAgent)
{
    InProcessAgent agent;
    auto remote = agent.engine("sim");
    ASSERT_TRUE(remote);
    auto m = remote->machine();
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->capabilities.cdpL3);
    const auto on = remote->setCdp(true);
    ASSERT_TRUE(on.ok) << on.reason;
    m = remote->machine();
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->capabilities.cdpL3);
    const auto snap = remote->snapshot(false);
    ASSERT_FALSE(snap.groups.empty());
    EXPECT_TRUE(snap.groups.front().schemata.has("L3CODE")) << snap.groups.front().schemata.format();
}

TEST(AgentEngine, TelemetryReachesTheClientAsTheLocalEngineReadsIt)
{
    // icx-8351n-snc2 simulates PERF_PKG_MON: every poll's batch carries each group's package events.
    InProcessAgent agent;
    auto remote = agent.engine("sim", "noisy-neighbour", "icx-8351n-snc2");
    auto mine = local("sim", "noisy-neighbour", "icx-8351n-snc2");
    ASSERT_TRUE(remote && mine);
    for (int i = 0; i < 3; ++i) {
        remote->advanceTo(remote->nowNs() + 500'000'000);
        mine->advanceTo(mine->nowNs() + 500'000'000);
        ASSERT_TRUE(remote->pollRdt().ok);
        ASSERT_TRUE(mine->pollRdt().ok);
    }
    const auto rb = batches(*remote);
    const auto lb = batches(*mine);
    ASSERT_EQ(rb.size(), lb.size());
    ASSERT_FALSE(lb.empty());
    std::size_t rows = 0;
    for (std::size_t b = 0; b < lb.size(); ++b) {
        ASSERT_EQ(rb[b].telemetry.size(), lb[b].telemetry.size()) << "batch " << b;
        for (std::size_t i = 0; i < lb[b].telemetry.size(); ++i) {
            const auto& r = rb[b].telemetry[i];
            const auto& l = lb[b].telemetry[i];
            EXPECT_EQ(r.group, l.group);
            EXPECT_EQ(r.package, l.package);
            EXPECT_EQ(r.event, l.event);
            EXPECT_EQ(r.value, l.value) << l.group << " " << l.event;
            EXPECT_EQ(r.perSecond, l.perSecond);
            EXPECT_EQ(r.flags, l.flags);
            ++rows;
        }
    }
    EXPECT_GT(rows, 0u); // the preset does simulate telemetry: an empty comparison would prove nothing
    EXPECT_TRUE(remote->machine()->capabilities.telemetry.present);
}

// Intel SNC over the protocol (`rdtscope-cli --connect URL monitor --nodes`): the client asks for per-node samples
// when it opens the source, and every sample comes back with its sub-NUMA node.
TEST(AgentEngine, SncNodeSamplesTravel)
{
    InProcessAgent agent;
    auto c = agent.client();
    ASSERT_TRUE(c);
    ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.simPreset = "icx-8351n-snc2";
    o.sncNodeSamples = true;
    auto e = remote::RemoteEngine::open(std::move(c), o);
    ASSERT_TRUE(e) << e.error().toString();
    ASSERT_TRUE((*e)->pollRdt().ok);
    std::vector<RdtSampleBatch> got;
    for (int i = 0; i < 50 && got.empty(); ++i) {
        got = batches(**e);
        if (got.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_FALSE(got.empty());
    std::set<int> nodes;
    for (const auto& s : got.front().nodeSamples)
        nodes.insert(s.node);
    EXPECT_EQ(nodes, (std::set<int> { 0, 1 }));
    for (const auto& s : got.front().samples)
        EXPECT_EQ(s.node, -1); // the L3 rows, summed on this side
    EXPECT_FALSE(got.front().samples.empty());
}

// Issue #42: the machine report (api/MachineReport.h) of an agent's engine is the one a local engine gives for the
// same source: the simulated EPYC's CPUID decoded once on the client from what the protocol carries, only the
// location saying whose machine it is.
TEST(AgentEngine, ReportsItsMachineAsALocalEngineDoes)
{
    InProcessAgent agent;
    auto remote = agent.engine("sim", "mba", "epyc-genoa");
    auto mine = local("sim", "mba", "epyc-genoa");
    ASSERT_TRUE(remote && mine);
    const auto theirs = remote->machineReport();
    const auto ours = mine->machineReport();
    ASSERT_TRUE(theirs) << theirs.error().toString();
    ASSERT_TRUE(ours) << ours.error().toString();
    EXPECT_TRUE(theirs->cpu.isAmd());
    EXPECT_TRUE(theirs->cpu.simulated);
    EXPECT_EQ(theirs->cpu.brand, ours->cpu.brand);
    EXPECT_EQ(theirs->location, remote->location());
    EXPECT_FALSE(theirs->location.empty());
    EXPECT_TRUE(ours->location.empty());
    ASSERT_EQ(theirs->caches.size(), ours->caches.size());
    for (std::size_t i = 0; i < ours->caches.size(); ++i) {
        const auto &a = theirs->caches[i], &b = ours->caches[i];
        EXPECT_EQ(
            std::tie(a.level, a.type, a.bytes, a.ways, a.leaf), std::tie(b.level, b.type, b.bytes, b.ways, b.leaf));
    }
    const auto l3 = theirs->cache(3);
    ASSERT_TRUE(l3);
    EXPECT_EQ(l3->leaf, "CPUID.8000001DH");
    EXPECT_EQ(theirs->rdt.l3CbmLength, ours->rdt.l3CbmLength);
    EXPECT_EQ(theirs->pmu.simulatedPmuName, ours->pmu.simulatedPmuName);
    EXPECT_EQ(theirs->lines.size(), ours->lines.size());
    EXPECT_NE(theirs->linesFrom.find("the agent's machine"), std::string::npos) << theirs->linesFrom;
}

// Issue #50: the controls of every dialect reach `--connect` as they are locally (role, region, budget, the
// resource_schemata description), so the GUI builds the same bandwidth editors from the agent's layout.
TEST(AgentEngine, DialectControlsReachTheClientAsLocally)
{
    for (const char* preset : { "riscv-cbqri", "xeon-mbregion", "arm-mpam" }) {
        SCOPED_TRACE(preset);
        InProcessAgent agent;
        auto remote = agent.engine("sim", "noisy-neighbour", preset);
        auto mine = local("sim", "noisy-neighbour", preset);
        ASSERT_TRUE(remote && mine);
        auto rl = remote->allocationLayout();
        auto ll = mine->allocationLayout();
        ASSERT_TRUE(rl && ll);
        ASSERT_EQ(rl->bandwidths.size(), ll->bandwidths.size());
        ASSERT_FALSE(ll->bandwidths.empty());
        int described = 0;
        for (std::size_t i = 0; i < ll->bandwidths.size(); ++i) {
            const auto& r = rl->bandwidths[i];
            const auto& l = ll->bandwidths[i];
            SCOPED_TRACE(l.resource);
            EXPECT_EQ(r.resource, l.resource);
            EXPECT_EQ(r.role, l.role);
            EXPECT_EQ(r.region, l.region);
            EXPECT_EQ(r.unit, l.unit);
            EXPECT_EQ(r.minValue, l.minValue);
            EXPECT_EQ(r.maxValue, l.maxValue);
            EXPECT_EQ(r.budget, l.budget);
            EXPECT_EQ(r.budgetSource, l.budgetSource);
            EXPECT_EQ(r.domains, l.domains);
            ASSERT_EQ(r.description.has_value(), l.description.has_value());
            if (l.description) {
                EXPECT_EQ(r.description->summary(), l.description->summary());
                ++described;
            }
        }
        // The CBQRI and region-aware machines describe their controls; MPAM's MB does not.
        EXPECT_EQ(described > 0, std::string(preset) != "arm-mpam");
    }
}
