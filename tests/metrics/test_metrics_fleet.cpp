// SPDX-License-Identifier: GPL-3.0-or-later
// Scale: fifty rdtscope-agent --metrics processes, each on its own port with its own simulated machine and
// scenario (written here: small two-core machines whose workloads differ per agent, so fifty fit on a small
// build machine), scraped by one real Prometheus every second for 60 s. All targets stay up and no scrape comes
// near its timeout. Prints the ingestion rate.
#include "FleetHelpers.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <thread>

using namespace rdt;
using namespace rdt::test;

namespace {
constexpr int kAgents = 50;

std::string writeScenario(const std::string& dir, int i)
{
    const std::string path = dir + "/fleet-" + std::to_string(i) + ".scn";
    std::ofstream(path) << "# fleet agent " << i << ": a small simulated machine for the 50-agent scale test\n"
                        << "name fleet-" << i << "\ntitle Fleet agent " << i << " (simulated)\n"
                        << "machine preset=skx-6154 cores=2 sampling=256 tick=10ms\nduration 600s\n"
                        << "mkdir web\nmkdir batch\n"
                        << "thread web-0 group=web cpu=0 pattern=random ws=" << 1 + i % 8 << "M compute=" << 200 + i
                        << "\nthread batch-1 group=batch cpu=1 pattern=stream ws=" << 64 + 16 * i
                        << "M compute=" << 100 + i % 10 << "\n";
    return path;
}
}

TEST(MetricsFleet, FiftyAgentsScrapedByOnePrometheusFor60Seconds)
{
    const std::string dir = makeTempDir("rdtscope-fleet");
    std::vector<std::unique_ptr<MetricsAgent>> agents;
    for (int i = 0; i < kAgents; ++i)
        agents.push_back(std::make_unique<MetricsAgent>(
            std::vector<std::string> { "--source", "sim", "--scenario", writeScenario(dir, i) }, dir,
            "agent-" + std::to_string(i), false));
    std::vector<std::string> targets;
    for (auto& a : agents) {
        ASSERT_TRUE(a->waitForPort()) << a->log();
        targets.push_back("127.0.0.1:" + std::to_string(a->port));
    }
    Prometheus prometheus(targets, dir, 1);
    ASSERT_TRUE(prometheus.ok()) << prometheus.log();

    const auto start = std::chrono::steady_clock::now();
    double up = 0;
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(62)) // bounded: 62 s of scraping
        std::this_thread::sleep_for(std::chrono::seconds(2));
    up = singleValue(prometheus.query("count(up == 1)"));
    EXPECT_EQ(up, kAgents) << prometheus.lastError;
    // Every target answered every scrape of the last minute (no 0 in up), each well inside the 1 s timeout.
    EXPECT_EQ(singleValue(prometheus.query("count(min_over_time(up[1m]) == 1)")), kAgents);
    const double slowest = singleValue(prometheus.query("max(max_over_time(scrape_duration_seconds[1m]))"));
    EXPECT_LT(slowest, 1.0);
    const double scrapes = singleValue(prometheus.query("sum(count_over_time(up[1m]))"));
    EXPECT_GE(scrapes, kAgents * 50) << "scrapes in the last minute";
    const double samplesPerSecond = singleValue(prometheus.query("sum(avg_over_time(scrape_samples_scraped[1m]))"));
    std::printf("50 agents x 60 s: %.0f scrapes in the last minute, slowest scrape %.1f ms, Prometheus ingests "
                "%.0f samples/s (1 s interval)\n",
        scrapes, slowest * 1e3, samplesPerSecond);
    for (auto& a : agents)
        EXPECT_EQ(a->process->waitExit(0), -1) << "an agent exited:\n" << a->log();
}
