// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent --metrics as a process: with --monitor-pods on the simulated machine and the fixture /proc and
// kubelet trees of tests/data/kubernetes, each pod's group reaches /metrics with its namespace, pod and container
// labels, and SIGTERM removes the groups; on a copied resctrl fixture tree, the agent reclaims at start the groups
// a dead agent left and leaves a running agent's and everyone else's alone.
#include "FleetHelpers.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace rdt::test;
namespace fs = std::filesystem;

namespace {
const std::string kData = std::string(RDTSCOPE_TEST_DATA);
const std::string kFrontend = "5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e";
const std::string kReport = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";

/// /metrics once it holds `needle` (bounded: 20 s), else the last reply.
std::string scrapeUntil(int port, const std::string& needle)
{
    std::string body;
    for (int i = 0; i < 200; ++i) {
        body = httpGet(port, "/metrics").body;
        if (body.find(needle) != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return body;
}

/// A PID that no process has now: a child that exited and was reaped.
unsigned deadPid()
{
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return static_cast<unsigned>(child);
}
} // namespace

TEST(MetricsPods, PodGroupsReachMetricsWithTheirLabelsAndGoOnSigterm)
{
    for (const char* layout : { "sim-v2-systemd", "sim-v1-cgroupfs" }) {
        SCOPED_TRACE(layout);
        const std::string dir = makeTempDir("rdtscope-pods");
        const std::string tree = kData + "/kubernetes/" + layout;
        MetricsAgent agent({ "--source", "sim", "--scenario", "noisy-neighbour", "--monitor-pods", "--proc-root",
                               tree + "/proc", "--kubelet-root", tree + "/kubelet" },
            dir, "agent");
        ASSERT_TRUE(agent.ok()) << agent.log();
        const std::string pid = std::to_string(agent.process->pid());
        const std::string frontend = "victim/mon_groups/rdtscope-agent." + pid + ".pod-" + kFrontend;
        const std::string report = "mon_groups/rdtscope-agent." + pid + ".pod-" + kReport;
        const std::string frontendSeries = "rdtscope_mbm_total_bytes_total{group=\"" + frontend
            + "\",ctrl_group=\"victim\",domain=\"0\",namespace=\"shop\",pod=\"frontend-0\",pod_uid=\"" + kFrontend
            + "\",container=\"frontend\"} ";
        const std::string reportSeries = "rdtscope_llc_occupancy_bytes{group=\"" + report
            + "\",ctrl_group=\"/\",domain=\"0\",namespace=\"batch\",pod=\"report-28340915-7x2kq\",pod_uid=\"" + kReport
            + "\",container=\"report\"} ";
        const std::string body = scrapeUntil(agent.port, reportSeries);
        EXPECT_NE(body.find(frontendSeries), std::string::npos) << body;
        EXPECT_NE(body.find(reportSeries), std::string::npos) << body;
        // The default group holds a system service's task (1006) too: it is not the report pod's.
        EXPECT_NE(
            body.find("rdtscope_llc_occupancy_bytes{group=\"/\",ctrl_group=\"/\",domain=\"0\"} "), std::string::npos)
            << body;
        // 1006 is in no pod and 1003/1004 have no /proc entry: two groups of the agent's, one L3 domain each.
        std::size_t owned = 0;
        std::istringstream lines(body);
        for (std::string line; std::getline(lines, line);)
            if (line.rfind("rdtscope_llc_occupancy_bytes{", 0) == 0
                && line.find("rdtscope-agent.") != std::string::npos)
                ++owned;
        EXPECT_EQ(owned, 2u) << body;

        ASSERT_EQ(::kill(agent.process->pid(), SIGTERM), 0);
        EXPECT_EQ(agent.process->waitExit(20'000), 0) << agent.log();
        const std::string log = agent.log();
        EXPECT_NE(
            log.find("made monitor group " + frontend + " for pod " + kFrontend + " (2 tasks)"), std::string::npos)
            << log;
        EXPECT_NE(log.find("removed monitor group " + frontend + "\n"), std::string::npos) << log;
        EXPECT_NE(log.find("removed monitor group " + report + "\n"), std::string::npos) << log;
        EXPECT_EQ(log.find("could not"), std::string::npos) << log;
    }
}

TEST(MetricsPods, StartReclaimsOnlyTheGroupsOfAgentsThatNoLongerRun)
{
    const std::string dir = makeTempDir("rdtscope-reclaim");
    const std::string root = dir + "/resctrl";
    fs::copy(kData + "/resctrl/resctrl.full", root, fs::copy_options::recursive);
    for (const auto& e : fs::recursive_directory_iterator(root))
        fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    // Another agent that runs now (its PID is an rdtscope-agent's) and one that died (SIGKILL, a crash).
    MetricsAgent running({ "--source", "sim" }, dir, "running");
    ASSERT_TRUE(running.ok()) << running.log();
    const std::string live = std::to_string(running.process->pid());
    const std::string dead = std::to_string(deadPid());
    const std::vector<std::string> left { "mon_groups/rdtscope-agent." + dead + ".pod-a",
        "Guaranteed/mon_groups/rdtscope-agent." + dead + ".pod-b" };
    const std::vector<std::string> kept { "mon_groups/rdtscope-agent." + live + ".pod-c", "mon_groups/mine",
        "mon_groups/rdtscope-agent.x.pod-d", "rdtscope-agent." + dead + ".ctrl" };
    for (const auto& path : left)
        fs::create_directories(root + "/" + path);
    for (const auto& path : kept)
        fs::create_directories(root + "/" + path);

    MetricsAgent agent({ "--source", "resctrl:" + root }, dir, "agent");
    ASSERT_TRUE(agent.ok()) << agent.log();
    const std::string log = agent.log();
    for (const auto& path : left) {
        EXPECT_FALSE(fs::exists(root + "/" + path)) << path;
        EXPECT_NE(
            log.find("reclaimed monitor group " + path + " (agent " + dead + " no longer runs"), std::string::npos)
            << log;
    }
    for (const auto& path : kept)
        EXPECT_TRUE(fs::is_directory(root + "/" + path)) << path;
    EXPECT_TRUE(fs::is_directory(root + "/mon_groups/example")); // the fixture's own groups
    EXPECT_TRUE(fs::is_directory(root + "/mon_groups/non_goresctrl.group"));
    EXPECT_EQ(log.find("could not reclaim"), std::string::npos) << log;
}
