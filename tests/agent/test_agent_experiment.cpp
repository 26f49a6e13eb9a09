// SPDX-License-Identifier: GPL-3.0-or-later
// The agent's experiment bracket (docs/PROTOCOL.md "Experiments"): a client that begins an experiment and goes
// before ending it leaves the machine as it found it, whether it closed the connection or fell silent mid-sweep.
// The agent serves a copy of the resctrl.full fixture tree; every schemata file is compared byte for byte.
#include "../rdt/TestTree.h"
#include "InProcessAgent.h"
#include "experiment/Sweep.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace rdt;
using namespace rdt::engine;

namespace {

std::map<std::string, std::string> schemataFiles(const test::TempTree& tree)
{
    return test::fullTreeSchemata(tree);
}

} // namespace

TEST(AgentExperiment, AClientThatGoesMidExperimentGetsTheOriginalAllocationBack)
{
    test::TempTree tree("resctrl.full");
    const auto before = schemataFiles(tree);
    ASSERT_FALSE(before.at("Guaranteed/schemata").empty());
    {
        InProcessAgent agent; // no --restore-on-exit: the restore is the experiment's
        auto remote = agent.engine("resctrl:" + tree.root(), "");
        ASSERT_TRUE(remote);
        ASSERT_TRUE(remote->beginExperiment({ "Guaranteed", "" }).ok);
        ASSERT_TRUE(remote->applyAllocation("Guaranteed", *Schemata::parseStrict("L3:0=f;1=f")).result.ok);
        ASSERT_TRUE(remote->applyAllocation("", *Schemata::parseStrict("L3:0=ffff0")).result.ok);
        EXPECT_NE(tree.read("Guaranteed/schemata"), before.at("Guaranteed/schemata"));
        remote.reset(); // EOF in a step's state
    } // the agent's thread has ended: its cleanup ran
    EXPECT_EQ(schemataFiles(tree), before);
}

TEST(AgentExperiment, AnEndedExperimentIsNotWrittenBack)
{
    // The control: after END the client's own restore counts, so what it left is what stays.
    test::TempTree tree("resctrl.full");
    {
        InProcessAgent agent;
        auto remote = agent.engine("resctrl:" + tree.root(), "");
        ASSERT_TRUE(remote);
        ASSERT_TRUE(remote->beginExperiment({ "Guaranteed" }).ok);
        ASSERT_TRUE(remote->applyAllocation("Guaranteed", *Schemata::parseStrict("L3:0=f;1=f")).result.ok);
        ASSERT_TRUE(remote->endExperiment().ok);
    }
    EXPECT_NE(tree.read("Guaranteed/schemata").find("L3:0=f;1=f;"), std::string::npos)
        << tree.read("Guaranteed/schemata");
}

TEST(AgentExperiment, BeginRefusesAGroupThatIsNotThere)
{
    test::TempTree tree("resctrl.full");
    InProcessAgent agent;
    auto remote = agent.engine("resctrl:" + tree.root(), "");
    ASSERT_TRUE(remote);
    const auto r = remote->beginExperiment({ "nosuchgroup" });
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.toString().find("nosuchgroup"), std::string::npos) << r.toString();
}

TEST(AgentExperiment, ASweepWhoseClientFallsSilentMidSweepIsRestoredByTheAgent)
{
    // The agent gives up on a client silent for 1 s; the sweep's hook stalls 2 s after its second step's write,
    // so the agent drops the connection with the machine in that step's state.
    test::TempTree tree("resctrl.full");
    const auto before = schemataFiles(tree);
    experiment::SweepResult result;
    {
        InProcessAgent agent(false, 1'000'000'000);
        auto remote = agent.engine("resctrl:" + tree.root(), "");
        ASSERT_TRUE(remote);
        experiment::SweepSettings s;
        s.group = "Guaranteed";
        s.settleNs = 20'000'000;
        s.measureNs = 40'000'000;
        s.pollNs = 20'000'000;
        experiment::SweepHooks hooks;
        bool stalled = false;
        hooks.onStepStart = [&](unsigned index, std::uint64_t, const std::string&, std::uint64_t) {
            if (index != 2) return;
            EXPECT_NE(tree.read("Guaranteed/schemata"), before.at("Guaranteed/schemata"));
            std::this_thread::sleep_for(std::chrono::seconds(2));
            stalled = true;
        };
        auto r = experiment::runSweep(*remote, s, hooks);
        ASSERT_TRUE(r) << r.error().toString();
        result = *r;
        EXPECT_TRUE(stalled);
        remote.reset();
    }
    // The client's own restore could not reach the agent; the agent's did.
    EXPECT_FALSE(result.completed);
    EXPECT_FALSE(result.restored);
    EXPECT_EQ(schemataFiles(tree), before);
}
