// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent --metrics on a copy of the SNC fixture tree (tests/data/resctrl/intel.snc: two L3 domains of two
// sub-NUMA nodes each): one series per node, labelled `node` after mon_sub_L3_YY, with that node's own values.
#include "FleetHelpers.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
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
