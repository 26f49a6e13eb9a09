// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent --metrics on a copy of the SNC fixture tree (tests/data/resctrl/intel.snc: two L3 domains of two
// sub-NUMA nodes each): one series per node, labelled `node` after mon_sub_L3_YY, with that node's own values.
#include "FleetHelpers.h"
#include "core/Json.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <thread>

using namespace rdt::test;
namespace fs = std::filesystem;

TEST(MetricsSnc, OneSeriesPerSubNumaNodeWithItsOwnCounters)
{
    const std::string dir = makeTempDir("rdtscope-snc");
    const std::string root = dir + "/resctrl";
    fs::copy(std::string(RDTSCOPE_TEST_DATA) + "/resctrl/intel.snc", root, fs::copy_options::recursive);
    for (const auto& e : fs::recursive_directory_iterator(root))
        fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    MetricsAgent agent({ "--source", "resctrl:" + root, "--sample-ms", "100" }, dir, "agent");
    ASSERT_TRUE(agent.ok()) << agent.log();

    auto scrapeUntil = [&](const std::string& needle) {
        std::string body;
        for (int i = 0; i < 200; ++i) { // 20 s at most
            body = httpGet(agent.port, "/metrics").body;
            if (body.find(needle) != std::string::npos) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return body;
    };
    const std::string p0 = "{group=\"p0\",ctrl_group=\"p0\",domain=\"";
    std::string body = scrapeUntil("rdtscope_mbm_total_bytes_total" + p0 + "1\",node=\"3\"} ");
    // Node values from mon_L3_XX/mon_sub_L3_YY, never the L3's sum (mon_L3_01's occupancy is 14680064).
    for (int node = 0; node < 4; ++node) {
        const std::string labels = p0 + std::to_string(node / 2) + "\",node=\"" + std::to_string(node) + "\"} ";
        EXPECT_NE(body.find("rdtscope_llc_occupancy_bytes" + labels + std::to_string((node + 1) * 2097152) + "\n"),
            std::string::npos)
            << labels << body;
        EXPECT_NE(body.find("rdtscope_mbm_total_bytes_total" + labels + std::to_string((node + 1) * 1000) + "000000\n"),
            std::string::npos)
            << labels << body;
    }
    EXPECT_EQ(body.find("rdtscope_llc_occupancy_bytes" + p0 + "1\"} "), std::string::npos) << body;
    EXPECT_EQ(body.find("14680064"), std::string::npos) << body;

    // Node 2's counter moves by 0.5 GB: its series, and only its, grows by that much.
    std::ofstream(root + "/p0/mon_data/mon_L3_01/mon_sub_L3_02/mbm_total_bytes") << "3500000000\n";
    body = scrapeUntil("rdtscope_mbm_total_bytes_total" + p0 + "1\",node=\"2\"} 3500000000\n");
    EXPECT_NE(body.find("rdtscope_mbm_total_bytes_total" + p0 + "1\",node=\"2\"} 3500000000\n"), std::string::npos)
        << body;
    EXPECT_NE(body.find("rdtscope_mbm_total_bytes_total" + p0 + "1\",node=\"3\"} 4000000000\n"), std::string::npos)
        << body;
}

// The MSR sources never label `node` (docs/RESCTRL.md "SNC and the MSR sources"): CPUID enumerates no Sub-NUMA
// Clustering (the kernel infers it from the NUMA topology, arch/x86/kernel/cpu/resctrl/monitor.c snc_get_config),
// and an MSR source reads CPUID and the MSRs only, one IA32_QM_CTR per RMID and L3; `sim-msr` builds a preset's CPU
// with SNC off. The same SNC-2 scenario under `sim` (the kernel's resctrl) has node series, so the preset is SNC,
// and under `sim-msr` the L3's series holds both nodes' traffic (a thread on each node).
TEST(MetricsSnc, MsrSourcesHaveNoNodeLabelEvenOnAnSncMachine)
{
    const std::string dir = makeTempDir("rdtscope-snc-msr");
    const std::string scenario = dir + "/snc2.txt";
    std::ofstream(scenario) << "name snc2\ntitle SNC-2 Ice Lake-SP\nmachine preset=icx-8351n-snc2\n"
                               "mkdir p0\nthread t0 group=p0 cpu=0 pattern=stream ws=1G compute=0\n"
                               "thread t1 group=p0 cpu=4 pattern=stream ws=1G compute=0\n";
    auto scrapeUntil = [](int port, const std::string& needle) {
        std::string body;
        for (int i = 0; i < 200; ++i) { // 20 s at most
            body = httpGet(port, "/metrics").body;
            if (body.find(needle) != std::string::npos) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return body;
    };
    {
        MetricsAgent resctrl({ "--source", "sim", "--scenario", scenario, "--sample-ms", "100" }, dir, "sim");
        ASSERT_TRUE(resctrl.ok()) << resctrl.log();
        const std::string body = scrapeUntil(resctrl.port, "rdtscope_mbm_total_bytes_total{group=\"p0\"");
        EXPECT_NE(body.find("rdtscope_mbm_total_bytes_total{group=\"p0\",ctrl_group=\"p0\",domain=\"0\",node=\"0\"}"),
            std::string::npos)
            << body;
        EXPECT_NE(body.find("rdtscope_mbm_total_bytes_total{group=\"p0\",ctrl_group=\"p0\",domain=\"0\",node=\"1\"}"),
            std::string::npos)
            << body;
    }
    MetricsAgent msr({ "--source", "sim-msr", "--scenario", scenario, "--sample-ms", "100" }, dir, "sim-msr");
    ASSERT_TRUE(msr.ok()) << msr.log();
    const std::string body = scrapeUntil(msr.port, "rdtscope_mbm_total_bytes_total{group=\"p0\"");
    EXPECT_NE(
        body.find("rdtscope_mbm_total_bytes_total{group=\"p0\",ctrl_group=\"p0\",domain=\"0\"}"), std::string::npos)
        << body;
    EXPECT_EQ(body.find("node=\""), std::string::npos) << body;
}

// The dashboard's TMA panel, and its `node` variable: "All" is the regex .*, which also matches series without the
// label (non-SNC machines, the MSR sources), and every per-group occupancy and bandwidth panel filters by it.
TEST(MetricsSnc, DashboardHasANodeVariableThatKeepsSeriesWithoutOne)
{
    std::ifstream in(std::string(RDTSCOPE_SOURCE_DIR) + "/resources/grafana/rdtscope.json");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto dashboard = rdt::json::parse(text);
    ASSERT_TRUE(dashboard) << dashboard.error().message;
    const rdt::json::Value* node = nullptr;
    for (const auto& v : (*dashboard)["templating"]["list"])
        if (v.value("name", "") == "node") node = &v;
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(node->value("allValue", ""), ".*");
    EXPECT_NE(node->value("definition", "").find(", node)"), std::string::npos);
    int filtered = 0, perGroup = 0;
    for (const auto& panel : (*dashboard)["panels"]) {
        if (!panel.contains("targets")) continue;
        for (const auto& target : panel["targets"]) {
            const std::string expr = target.value("expr", "");
            const bool nodeMetric = expr.find("rdtscope_llc_occupancy_bytes") != std::string::npos
                || expr.find("rdtscope_mbm_") != std::string::npos;
            if (!nodeMetric || expr.find("group=~\"$group\"") == std::string::npos) continue;
            ++perGroup;
            if (expr.find("node=~\"$node\"") != std::string::npos) ++filtered;
        }
    }
    EXPECT_EQ(perGroup, 3);
    EXPECT_EQ(filtered, perGroup);
    // The TMA panel: each category's share of a group's slots (rate of the category over the rate of all four).
    int tma = 0;
    for (const auto& panel : (*dashboard)["panels"])
        if (panel.contains("targets"))
            for (const auto& target : panel["targets"]) {
                const std::string expr = target.value("expr", "");
                if (expr.find("rate(rdtscope_tma_slots_total{") != std::string::npos
                    && expr.find("ignoring(category) group_left") != std::string::npos)
                    ++tma;
            }
    EXPECT_EQ(tma, 1);
}

// Every allocation family the exporter writes has its panel (issue #42: an AMD cap is bytes per second, not a
// throttle ratio), each filtered by instance and group.
TEST(MetricsSnc, DashboardShowsEveryAllocationFamily)
{
    std::ifstream in(std::string(RDTSCOPE_SOURCE_DIR) + "/resources/grafana/rdtscope.json");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto dashboard = rdt::json::parse(text);
    ASSERT_TRUE(dashboard) << dashboard.error().message;
    for (const char* family : { "rdtscope_l3_allocated_ways", "rdtscope_mba_throttle_ratio",
             "rdtscope_mba_limit_bytes_per_second", "rdtscope_cba_throttle_level" }) {
        int panels = 0;
        for (const auto& panel : (*dashboard)["panels"]) {
            if (!panel.contains("targets")) continue;
            for (const auto& target : panel["targets"]) {
                const std::string expr = target.value("expr", "");
                if (expr.find(std::string(family) + "{") == std::string::npos) continue;
                EXPECT_NE(expr.find("instance=~\"$instance\""), std::string::npos) << expr;
                EXPECT_NE(expr.find("group=~\"$group\""), std::string::npos) << expr;
                ++panels;
            }
        }
        EXPECT_EQ(panels, 1) << family;
    }
}
