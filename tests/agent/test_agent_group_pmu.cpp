// SPDX-License-Identifier: GPL-3.0-or-later
// A sweep's per-step PMU figures over --connect (docs/PROTOCOL.md "Experiments", CountGroupPmu): the agent counts
// the group's tasks itself and returns the counts with each step, so a remote sweep on the simulated machine gives
// exactly the IPC, MPKI and memory-bound share the same sweep gives in process; an unknown group's error crosses
// with its code; counting real threads needs the Profile authorization, and a count claimed as simulated on a real
// source is refused (it was authorized as Monitor only).
#include "../rdt/TestTree.h"
#include "InProcessAgent.h"
#include "agent/Authorization.h"
#include "engine/CaptureService.h"
#include "experiment/Sweep.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::engine;
namespace pb = rdtscope::agent::v1;

namespace {

experiment::SweepSettings quickSweep()
{
    experiment::SweepSettings s;
    s.group = "victim";
    s.settleNs = 200'000'000;
    s.measureNs = 500'000'000;
    s.pollNs = 100'000'000;
    return s;
}

} // namespace

TEST(AgentGroupPmu, ARemoteSweepGetsTheSameStepFiguresAsALocalOne)
{
    ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = "noisy-neighbour";
    auto local = CaptureService::open(o);
    ASSERT_TRUE(local.ok()) << local.error().toString();
    auto here = experiment::runSweep(**local, quickSweep());
    ASSERT_TRUE(here.ok()) << here.error().toString();

    InProcessAgent agent;
    auto remote = agent.engine("sim", "noisy-neighbour");
    ASSERT_TRUE(remote);
    auto there = experiment::runSweep(*remote, quickSweep());
    ASSERT_TRUE(there.ok()) << there.error().toString();
    ASSERT_TRUE(there->pmu.available) << there->pmu.unavailable;
    EXPECT_EQ(there->pmu.method, here->pmu.method);
    EXPECT_NE(there->pmu.method.find("simulated"), std::string::npos) << there->pmu.method;
    ASSERT_EQ(there->steps.size(), here->steps.size());
    ASSERT_GE(there->steps.size(), 3u);
    for (std::size_t i = 0; i < there->steps.size(); ++i) {
        const auto& a = there->steps[i];
        const auto& b = here->steps[i];
        ASSERT_TRUE(a.ipc && a.mpki && a.memoryBound) << "step " << a.index << ": " << a.pmuSource;
        ASSERT_TRUE(b.ipc && b.mpki && b.memoryBound);
        EXPECT_DOUBLE_EQ(*a.ipc, *b.ipc) << "step " << a.index;
        EXPECT_DOUBLE_EQ(*a.mpki, *b.mpki) << "step " << a.index;
        EXPECT_DOUBLE_EQ(*a.memoryBound, *b.memoryBound) << "step " << a.index;
    }
    // The figures mean something: the victim misses more once its ways shrink.
    EXPECT_GT(*there->steps.back().mpki, *there->steps.front().mpki);

    const auto unknown = remote->countGroupPmu("nosuchgroup");
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().code, ENOENT) << unknown.error().toString();
}

TEST(AgentGroupPmu, ACountClaimedAsSimulatedOnARealSourceIsRefused)
{
    pb::Request real;
    real.mutable_count_group_pmu()->set_group("victim");
    EXPECT_EQ(agent::actionFor(real), agent::Action::Profile); // it sees what the group's threads execute
    pb::Request simulated = real;
    simulated.mutable_count_group_pmu()->set_simulated(true);
    EXPECT_EQ(agent::actionFor(simulated), agent::Action::Monitor);

    test::TempTree tree("resctrl.full");
    InProcessAgent agent;
    auto client = agent.client();
    ASSERT_TRUE(client);
    pb::Request open;
    open.mutable_open_source()->set_source("resctrl:" + tree.root());
    open.mutable_open_source()->set_open_rdt(true);
    auto opened = client->exchange(std::move(open));
    ASSERT_TRUE(opened.ok()) << opened.error().toString();
    ASSERT_FALSE(opened->has_error()) << opened->error().message();
    pb::Request count;
    count.mutable_count_group_pmu()->set_group("Guaranteed");
    count.mutable_count_group_pmu()->set_simulated(true);
    auto r = client->exchange(std::move(count));
    ASSERT_TRUE(r.ok()) << r.error().toString();
    ASSERT_TRUE(r->has_error());
    EXPECT_EQ(r->error().code(), EPERM) << r->error().message();
    EXPECT_FALSE(r->has_group_pmu_counts());
}
