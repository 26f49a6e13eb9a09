// SPDX-License-Identifier: GPL-3.0-or-later
// protect through the agent (RemoteEngine over an in-process agent serving a copy of the resctrl.full fixture tree):
// the loop's writes sit inside the agent's experiment bracket, so when the client falls silent mid-run the agent
// writes every best-effort group back itself, byte for byte; a run that ends normally restores them itself.
#include "../rdt/TestTree.h"
#include "agent/InProcessAgent.h"
#include "protect/Protect.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <thread>

using namespace rdt;
using namespace rdt::protect;

namespace {

std::map<std::string, std::string> schemataFiles(const test::TempTree& tree)
{
    return test::fullTreeSchemata(tree);
}

ProtectSettings unreachable()
{
    // A copied tree's counters never move: an occupancy floor of 1 TiB stays broken, so the policy moves at once.
    ProtectSettings s;
    s.lcGroup = "Guaranteed";
    s.target = *parseTarget("occupancy>=1024G", false);
    s.policy = "model";
    s.durationNs = 2'000'000'000;
    s.intervalNs = 20'000'000;
    return s;
}

} // namespace

TEST(ProtectAgent, AClientThatFallsSilentMidRunGetsTheStartAllocationBackFromTheAgent)
{
    test::TempTree tree("resctrl.full");
    const auto before = schemataFiles(tree);
    std::optional<Result<ProtectResult>> result;
    bool stalled = false;
    {
        engine::InProcessAgent agent(false, 1'000'000'000); // gives up on a client silent for 1 s
        auto remote = agent.engine("resctrl:" + tree.root(), "");
        ASSERT_TRUE(remote);
        ProtectHooks hooks;
        hooks.onDecision = [&](const Decision& d, std::uint64_t) {
            if (d.action != "write" || stalled) return;
            EXPECT_NE(schemataFiles(tree), before) << d.reason;
            std::this_thread::sleep_for(std::chrono::seconds(2));
            stalled = true;
        };
        result = runProtect(*remote, unreachable(), hooks);
        remote.reset();
    } // the agent's thread has ended: its cleanup ran
    ASSERT_TRUE(stalled);
    ASSERT_TRUE(result);
    if (*result) {
        EXPECT_FALSE((*result)->restored); // the client's own restore could not reach the agent
    }
    EXPECT_EQ(schemataFiles(tree), before);
}

TEST(ProtectAgent, ARunThatEndsRestoresItselfThroughTheAgent)
{
    test::TempTree tree("resctrl.full");
    const auto before = schemataFiles(tree);
    engine::InProcessAgent agent;
    auto remote = agent.engine("resctrl:" + tree.root(), "");
    ASSERT_TRUE(remote);
    auto r = runProtect(*remote, unreachable());
    ASSERT_TRUE(r) << r.error().toString();
    EXPECT_GT(r->writes, 0u);
    EXPECT_TRUE(r->restored);
    for (const auto& n : r->notes)
        EXPECT_EQ(n.find("will not restore"), std::string::npos) << n; // the agent took the bracket
    EXPECT_EQ(schemataFiles(tree), before);
}
