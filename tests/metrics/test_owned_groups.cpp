// SPDX-License-Identifier: GPL-3.0-or-later
// The agent's own monitor groups (metrics/OwnedGroups.h, PodGroups.h) on the simulated kernel (SimResctrlFs behind
// the real ResctrlBackend), with the pods of tests/data/kubernetes/sim-*: made with the agent's prefix, removed on
// stop, reclaimed from a dead agent, and never a foreign group or its counters touched.
#include "engine/CaptureService.h"
#include "metrics/OwnedGroups.h"
#include "metrics/PodGroups.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

using namespace rdt;
using namespace rdt::metrics;

namespace {
const std::string kData = std::string(RDTSCOPE_TEST_DATA) + "/kubernetes/";
const std::string kFrontend = "5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e";
const std::string kReport = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";

std::unique_ptr<engine::CaptureService> simulated()
{
    engine::ServiceOptions options;
    options.rdt.spec = "sim";
    options.rdt.scenario = "noisy-neighbour";
    auto service = engine::CaptureService::open(options);
    EXPECT_TRUE(service) << service.error().toString();
    return service ? std::move(*service) : nullptr;
}

/// Group path -> its tasks, sorted (nullopt when the group does not exist).
std::optional<std::vector<unsigned>> tasksOf(engine::Engine& e, const std::string& path)
{
    for (auto& g : e.snapshot(true).groups)
        if (g.info.path == path) {
            std::sort(g.tasks.begin(), g.tasks.end());
            return g.tasks;
        }
    return std::nullopt;
}

/// The foreign group's (a streaming thread's) total MBM bytes after the simulated machine ran to `timeNs` (-1 when
/// absent).
double foreignBytes(engine::Engine& e, std::uint64_t timeNs, std::uint32_t* flags)
{
    e.advanceTo(timeNs);
    (void)e.pollRdt();
    double bytes = -1;
    for (auto& event : e.drainEvents())
        if (auto* b = std::get_if<RdtSampleBatch>(&event))
            for (const auto& s : b->samples)
                if (s.group == "streamer/mon_groups/mine" && s.domain == 0) {
                    bytes = static_cast<double>(s.mbmTotalBytes);
                    *flags |= s.flags;
                }
    return bytes;
}
} // namespace

TEST(OwnedGroups, NamesCarryThePrefixAndTheAgentsPid)
{
    EXPECT_EQ(ownedGroupName(4242, "pod-x"), "rdtscope-agent.4242.pod-x");
    EXPECT_EQ(ownedGroupOwner("mon_groups/rdtscope-agent.4242.pod-x"), 4242u);
    EXPECT_EQ(ownedGroupOwner("p0/mon_groups/rdtscope-agent.7.a.b"), 7u);
    for (const char* foreign : { "mon_groups/mine", "rdtscope-agent.4242.c", "p0/mon_groups/rdtscope-agent.x.pod",
             "mon_groups/rdtscope-agent.4242", "mon_groups/rdtscope-agent.4242.", "mon_groups/rdtscope-agent..a",
             "mon_groups/rdtscope-agent.0.a", "mon_groups/rdtscope-agentx.1.a", "mon_groups/xrdtscope-agent.1.a",
             "xmon_groups/rdtscope-agent.1.a", "" })
        EXPECT_FALSE(ownedGroupOwner(foreign)) << foreign;
    EXPECT_FALSE(isRunningAgent(1)); // init is not an agent
}

TEST(OwnedGroups, MadeGroupsAreRemovedOnStopAndReclaimedAfterACrash)
{
    auto e = simulated();
    ASSERT_TRUE(e);
    ASSERT_EQ(tasksOf(*e, "victim"), (std::vector<unsigned> { 1001, 1002 }));
    ASSERT_TRUE(e->createMonitorGroup("streamer", "mine").ok);
    ASSERT_TRUE(e->assignTasks("streamer/mon_groups/mine", { 1004 }).ok);

    // Agent 100 stops normally: what it made goes, its tasks back to the control group; the foreign group stays.
    {
        OwnedGroups agent(*e, 100, [](unsigned) { return false; });
        auto made = agent.create("victim", "pod-a", { 1001 });
        ASSERT_TRUE(made) << made.error().toString();
        EXPECT_EQ(*made, "victim/mon_groups/rdtscope-agent.100.pod-a");
        EXPECT_EQ(tasksOf(*e, *made), (std::vector<unsigned> { 1001 }));
        EXPECT_FALSE(agent.create("", "pod-gone", { 99999 })); // no such task: refused, and no group left behind
        EXPECT_FALSE(tasksOf(*e, "mon_groups/rdtscope-agent.100.pod-gone"));
        EXPECT_FALSE(agent.remove("streamer/mon_groups/mine").ok); // not its own
        const auto log = agent.removeAll();
        ASSERT_EQ(log.size(), 1u);
        EXPECT_EQ(log[0], "removed monitor group victim/mon_groups/rdtscope-agent.100.pod-a");
        EXPECT_FALSE(tasksOf(*e, *made));
    }
    EXPECT_EQ(tasksOf(*e, "victim"), (std::vector<unsigned> { 1001, 1002 }));
    EXPECT_EQ(tasksOf(*e, "streamer/mon_groups/mine"), (std::vector<unsigned> { 1004 }));

    // Agent 200 crashes (nothing removed); agent 300 runs. A new agent reclaims 200's groups only.
    std::set<unsigned> running { 300 };
    auto alive = [&](unsigned pid) { return running.count(pid) > 0; };
    OwnedGroups crashed(*e, 200, alive);
    ASSERT_TRUE(crashed.create("victim", "pod-a", { 1002 }));
    ASSERT_TRUE(crashed.create("", "pod-b", { 1005 }));
    OwnedGroups other(*e, 300, alive);
    ASSERT_TRUE(other.create("streamer", "pod-c", { 1003 }));
    ASSERT_TRUE(e->createGroup("rdtscope-agent.200.ctrl").ok); // a control group: never the agent's
    ASSERT_TRUE(e->createMonitorGroup("", "rdtscope-agent.200").ok); // not the agent's name format

    std::uint32_t flags = 0;
    const double before = foreignBytes(*e, 1'000'000'000, &flags);
    OwnedGroups restarted(*e, 400, alive);
    const auto log = restarted.reclaim();
    ASSERT_EQ(log.size(), 2u) << log[0];
    EXPECT_EQ(log[0].rfind("reclaimed monitor group mon_groups/rdtscope-agent.200.pod-b (agent 200", 0), 0u) << log[0];
    EXPECT_EQ(log[1].rfind("reclaimed monitor group victim/mon_groups/rdtscope-agent.200.pod-a", 0), 0u) << log[1];
    EXPECT_FALSE(tasksOf(*e, "victim/mon_groups/rdtscope-agent.200.pod-a"));
    EXPECT_FALSE(tasksOf(*e, "mon_groups/rdtscope-agent.200.pod-b"));
    EXPECT_EQ(tasksOf(*e, "victim"), (std::vector<unsigned> { 1001, 1002 }));
    EXPECT_EQ(tasksOf(*e, "streamer/mon_groups/rdtscope-agent.300.pod-c"), (std::vector<unsigned> { 1003 }));
    EXPECT_TRUE(tasksOf(*e, "rdtscope-agent.200.ctrl"));
    EXPECT_TRUE(tasksOf(*e, "mon_groups/rdtscope-agent.200"));
    EXPECT_EQ(tasksOf(*e, "streamer/mon_groups/mine"), (std::vector<unsigned> { 1004 }));
    // The foreign group's counter kept counting across the reclaim: its RMID was neither freed nor reset.
    const double after = foreignBytes(*e, 2'000'000'000, &flags);
    EXPECT_GT(before, 0);
    EXPECT_GT(after, before);
    EXPECT_EQ(flags & SampleCounterReset, 0u);

    // Once agent 300 is gone too, its group goes at the next start.
    running.clear();
    OwnedGroups third(*e, 500, alive);
    EXPECT_EQ(third.reclaim().size(), 1u);
    EXPECT_FALSE(tasksOf(*e, "streamer/mon_groups/rdtscope-agent.300.pod-c"));
}

TEST(PodGroups, OneGroupPerPodAndControlGroupWithTheKubeletsNamingInBothLayouts)
{
    for (const char* layout : { "sim-v2-systemd", "sim-v1-cgroupfs" }) {
        SCOPED_TRACE(layout);
        auto e = simulated();
        ASSERT_TRUE(e);
        // Someone else's monitor group holds 1002: it stays there, out of the pod's group.
        ASSERT_TRUE(e->createMonitorGroup("victim", "mine").ok);
        ASSERT_TRUE(e->assignTasks("victim/mon_groups/mine", { 1002 }).ok);
        OwnedGroups owned(*e, 100, [](unsigned) { return false; });
        PodGroups pods(owned, kData + layout + "/proc");

        auto first = pods.update(e->snapshot(true));
        EXPECT_TRUE(first.changed);
        ASSERT_EQ(first.log.size(), 2u);
        const std::string frontend = "victim/mon_groups/rdtscope-agent.100.pod-" + kFrontend;
        const std::string report = "mon_groups/rdtscope-agent.100.pod-" + kReport;
        EXPECT_EQ(pods.groupOf("victim", kFrontend), frontend);
        EXPECT_EQ(pods.groupOf("", kReport), report);
        EXPECT_EQ(tasksOf(*e, frontend), (std::vector<unsigned> { 1001 }));
        EXPECT_EQ(tasksOf(*e, report), (std::vector<unsigned> { 1005 }));
        EXPECT_EQ(tasksOf(*e, "victim/mon_groups/mine"), (std::vector<unsigned> { 1002 }));

        auto second = pods.update(e->snapshot(true));
        EXPECT_FALSE(second.changed);
        EXPECT_TRUE(second.log.empty());

        // The pod's task leaves (here: into the foreign group): the empty group is removed at the next update.
        ASSERT_TRUE(e->assignTasks("victim/mon_groups/mine", { 1001 }).ok);
        auto third = pods.update(e->snapshot(true));
        EXPECT_TRUE(third.changed);
        ASSERT_EQ(third.log.size(), 1u);
        EXPECT_EQ(third.log[0], "removed monitor group " + frontend + " (its pod has no task left)");
        EXPECT_FALSE(tasksOf(*e, frontend));
        EXPECT_EQ(owned.paths(), (std::set<std::string> { report }));

        // Someone else removes the other group: forgotten, and its task (back in the default group) gets a new one.
        ASSERT_TRUE(e->deleteGroup(report).ok);
        auto fourth = pods.update(e->snapshot(true));
        EXPECT_TRUE(fourth.changed);
        EXPECT_EQ(tasksOf(*e, report), (std::vector<unsigned> { 1005 }));
        EXPECT_EQ(owned.removeAll().size(), 1u);
    }
}
