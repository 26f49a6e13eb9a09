// SPDX-License-Identifier: GPL-3.0-or-later
// A simulated program in a group of the agent's simulated machine, over the protocol (docs/PROTOCOL.md "PMU
// captures", "Events"): StartPmu carries the program and the group, the agent's engine runs the program on its own
// machine's caches in that group's class of service, and announces the capture (PmuCaptureStarted) to the client as
// a local engine announces it, so a lesson over --connect sees the recipe it waits for. A group the machine does not
// have, a hostile path, and a group on an engine without RDT are refused with the engine's reason.
#include "InProcessAgent.h"
#include "engine/CaptureService.h"
#include "remote/RemoteEngine.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::engine;

namespace {

std::unique_ptr<remote::RemoteEngine> remoteOn(InProcessAgent& agent, bool rdt)
{
    ServiceOptions o;
    o.openRdt = rdt;
    o.rdt.spec = "sim";
    o.rdt.scenario = "noisy-neighbour";
    o.rdt.scenarioSetupOnly = true;
    auto c = agent.client();
    if (!c) return nullptr;
    auto e = remote::RemoteEngine::open(std::move(c), o);
    EXPECT_TRUE(e) << (e ? "" : e.error().toString());
    return e ? std::move(*e) : nullptr;
}

PmuRequest joinInVictim()
{
    PmuRequest r;
    r.kind = PmuCaptureKind::Tma;
    r.simulated = true;
    r.program = "backend";
    r.memoryScale = 0.5;
    r.catGroup = "victim";
    return r;
}

std::vector<PmuCaptureStarted> announced(Engine& e)
{
    std::vector<PmuCaptureStarted> out;
    for (auto& ev : e.drainEvents())
        if (auto* s = std::get_if<PmuCaptureStarted>(&ev)) out.push_back(std::move(*s));
    return out;
}

} // namespace

TEST(AgentPmuGroup, TheProgramRunsInTheAgentsGroupAndIsAnnounced)
{
    InProcessAgent agent;
    auto remote = remoteOn(agent, true);
    ASSERT_TRUE(remote);
    (void)remote->drainEvents();
    auto request = joinInVictim();
    request.command = {}; // a simulated capture has none; the announcement never carries one
    const auto started = remote->startPmu(request);
    ASSERT_TRUE(started.result.ok) << started.result.toString();
    EXPECT_EQ(started.info.caches, "the engine's simulated machine");
    EXPECT_EQ(started.info.pmusUsed, "simulated Skylake-SP-class core"); // the machine's CPU (a Xeon Gold 6154)
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(remote->pumpPmu(started.info.id).ok);
    std::vector<PmuCaptureStarted> seen;
    for (int i = 0; i < 50 && seen.empty(); ++i) { // events arrive with the next messages from the agent
        (void)remote->pumpPmu(started.info.id);
        seen = announced(*remote);
    }
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].info.id, started.info.id);
    EXPECT_EQ(seen[0].info.caches, started.info.caches);
    ASSERT_EQ(seen[0].info.parts.size(), started.info.parts.size());
    EXPECT_EQ(seen[0].request.kind, PmuCaptureKind::Tma);
    EXPECT_TRUE(seen[0].request.simulated);
    EXPECT_EQ(seen[0].request.program, "backend");
    EXPECT_EQ(seen[0].request.catGroup, "victim");
    EXPECT_DOUBLE_EQ(seen[0].request.memoryScale, 0.5);
    EXPECT_TRUE(remote->stopPmu(started.info.id).ok);
}

TEST(AgentPmuGroup, GroupsTheEngineCannotRunInAreRefused)
{
    InProcessAgent agent;
    auto remote = remoteOn(agent, true);
    ASSERT_TRUE(remote);
    auto missing = joinInVictim();
    missing.catGroup = "no-such-group";
    const auto a = remote->startPmu(missing);
    EXPECT_FALSE(a.result.ok);
    EXPECT_EQ(a.failure, PmuFailure::BadRequest);
    EXPECT_NE(a.result.toString().find("no control group 'no-such-group'"), std::string::npos) << a.result.toString();
    auto hostile = joinInVictim();
    hostile.catGroup = "../../etc";
    const auto b = remote->startPmu(hostile);
    EXPECT_FALSE(b.result.ok);
    EXPECT_EQ(b.failure, PmuFailure::BadRequest);
    auto real = joinInVictim();
    real.simulated = false;
    real.systemWide = true;
    const auto c = remote->startPmu(real);
    EXPECT_FALSE(c.result.ok);
    EXPECT_NE(c.result.toString().find("only the simulated PMU's program runs in a group"), std::string::npos)
        << c.result.toString();
    EXPECT_TRUE(announced(*remote).empty()); // nothing started, nothing announced

    InProcessAgent pmuOnlyAgent;
    auto pmuOnly = remoteOn(pmuOnlyAgent, false);
    ASSERT_TRUE(pmuOnly);
    const auto d = pmuOnly->startPmu(joinInVictim());
    EXPECT_FALSE(d.result.ok);
    EXPECT_NE(d.result.toString().find("this engine has no RDT source"), std::string::npos) << d.result.toString();
    // Without a group the program runs in the PMU's own caches, as before.
    auto plain = joinInVictim();
    plain.catGroup.clear();
    const auto e = pmuOnly->startPmu(plain);
    ASSERT_TRUE(e.result.ok) << e.result.toString();
    EXPECT_EQ(e.info.caches, "the PMU's own L1/L2/L3 model");
}
