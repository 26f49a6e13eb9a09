// SPDX-License-Identifier: GPL-3.0-or-later
// Blame through the agent (RemoteEngine over an in-process agent): the same verdict as in process, every schemata
// of the agent's machine back as before, and the probe inside the agent's experiment bracket.
#include "agent/InProcessAgent.h"
#include "blame/Blame.h"

#include <gtest/gtest.h>

#include <map>

using namespace rdt;
using namespace rdt::blame;

TEST(BlameAgent, ProbeThroughTheAgentNamesTheStreamerAndRestores)
{
    engine::InProcessAgent agent;
    auto remote = agent.engine("sim", "noisy-neighbour");
    ASSERT_TRUE(remote);
    const auto schemata = [&] {
        std::map<std::string, std::string> out;
        for (const auto& g : remote->snapshot().groups)
            if (g.info.isControl) out[g.info.path] = g.schemata.format();
        return out;
    };
    const auto before = schemata();
    BlameSettings s;
    s.victim = "victim";
    s.durationNs = 6'000'000'000;
    s.windowNs = 1'000'000'000;
    s.probe = true;
    s.probeSettleNs = 500'000'000;
    s.probeMeasureNs = 1'000'000'000;
    auto r = runBlame(*remote, s);
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_FALSE(r->ranking.empty());
    EXPECT_EQ(r->ranking[0].group, "streamer");
    ASSERT_TRUE(r->ranking[0].probe);
    EXPECT_EQ(r->ranking[0].probe->verdict, "culprit") << r->ranking[0].probe->sentence;
    EXPECT_TRUE(r->restored);
    EXPECT_TRUE(r->harm.ipc); // the agent's simulated machine counts the victim's tasks (CountGroupPmu)
    EXPECT_EQ(schemata(), before);
    for (const auto& n : r->notes)
        EXPECT_EQ(n.find("will not restore"), std::string::npos) << n; // the agent took the bracket
}
