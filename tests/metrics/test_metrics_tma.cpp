// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent --metrics --metrics-tma on the simulated machine: rdtscope_tma_slots_total per group, derived from
// the machine model's counts of the group's tasks (metrics/ModelTma.h); every figure here is simulated.
#include "FleetHelpers.h"
#include "metrics/ModelTma.h"

#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <thread>

using namespace rdt;
using namespace rdt::test;

namespace {

/// rdtscope_tma_slots_total samples of a Prometheus text: "group|category" -> value.
std::map<std::string, double> tmaSamples(const std::string& text)
{
    std::map<std::string, double> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("rdtscope_tma_slots_total{", 0) != 0) continue;
        const auto label = [&](const std::string& name) {
            const auto at = line.find(name + "=\"");
            if (at == std::string::npos) return std::string();
            const auto from = at + name.size() + 2;
            return line.substr(from, line.find('"', from) - from);
        };
        out[label("group") + "|" + label("category")] = std::stod(line.substr(line.rfind(' ') + 1));
    }
    return out;
}

HttpReply scrapeWithTma(int port)
{
    HttpReply reply;
    for (int i = 0; i < 100; ++i) { // the first batch comes after one sampling interval; 10 s at most
        reply = httpGet(port, "/metrics");
        if (reply.body.find("rdtscope_tma_slots_total{") != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return reply;
}

} // namespace

TEST(MetricsTma, ModelCountsSplitIntoFourCategoriesThatSumToTheSlots)
{
    engine::GroupPmuCounts c;
    c.cycles = 1000;
    c.instructions = 1500;
    c.memoryStallCycles = 300;
    const auto t = metrics::tmaFromModelCounts(c);
    EXPECT_DOUBLE_EQ(t.retiring, 1500);
    EXPECT_DOUBLE_EQ(t.frontendBound + t.badSpeculation + t.retiring + t.backendBound, 4000);
    EXPECT_GT(t.backendBound, 1200); // every memory-stall cycle's 4 slots plus the core share
    EXPECT_GT(t.frontendBound, 0);
    EXPECT_GT(t.badSpeculation, t.frontendBound); // 0.32 : 0.2
    // More instructions than slots: retiring is capped, nothing is negative.
    c.instructions = 10'000;
    const auto capped = metrics::tmaFromModelCounts(c);
    EXPECT_DOUBLE_EQ(capped.retiring, 4000);
    EXPECT_DOUBLE_EQ(capped.backendBound + capped.frontendBound + capped.badSpeculation, 0);
}

TEST(MetricsTma, SimulatedAgentServesFourGrowingCategoriesPerGroupThatPromtoolAccepts)
{
    const std::string dir = makeTempDir("rdtscope-metrics-tma");
    MetricsAgent agent({ "--source", "sim", "--scenario", "noisy-neighbour", "--metrics-tma" }, dir, "agent");
    ASSERT_TRUE(agent.ok()) << agent.log();
    EXPECT_NE(agent.log().find("--metrics-tma: SIMULATED"), std::string::npos) << agent.log();

    const auto first = scrapeWithTma(agent.port);
    ASSERT_EQ(first.status, 200);
    const auto before = tmaSamples(first.body);
    ASSERT_FALSE(before.empty()) << first.body;
    std::map<std::string, int> categories;
    for (const auto& [key, value] : before)
        ++categories[key.substr(0, key.find('|'))];
    for (const auto& [group, n] : categories)
        EXPECT_EQ(n, 4) << group;
    EXPECT_TRUE(categories.contains("streamer")) << first.body;
    for (const char* c : { "frontend_bound", "bad_speculation", "retiring", "backend_bound" })
        EXPECT_TRUE(before.contains(std::string("streamer|") + c)) << c;

    std::ofstream(dir + "/scrape.txt") << first.body;
    const auto lint = run({ "sh", "-c", "promtool check metrics < '" + dir + "/scrape.txt'" }, 60);
    EXPECT_EQ(lint.exitCode, 0) << lint.out;
    EXPECT_EQ(lint.out, "");

    std::this_thread::sleep_for(std::chrono::milliseconds(2500)); // two sample periods (1 s each)
    const auto after = tmaSamples(httpGet(agent.port, "/metrics").body);
    for (const char* c : { "frontend_bound", "bad_speculation", "retiring", "backend_bound" }) {
        const std::string key = std::string("streamer|") + c;
        ASSERT_TRUE(after.contains(key)) << key;
        EXPECT_GT(after.at(key), before.at(key)) << key;
    }
}

TEST(MetricsTma, OptionOnlyAppliesToMetrics)
{
    const auto out = run({ RDTSCOPE_AGENT, "--stdio", "--metrics-tma" }, 30);
    EXPECT_NE(out.exitCode, 0);
    EXPECT_NE(out.out.find("--metrics-tma"), std::string::npos) << out.out;
}
