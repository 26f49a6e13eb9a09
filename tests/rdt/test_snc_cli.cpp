// SPDX-License-Identifier: GPL-3.0-or-later
// Intel SNC through the real rdtscope-cli: `monitor --nodes` prints a row per sub-NUMA node of each L3 domain (the
// kernel's mon_L3_XX/mon_sub_L3_YY) on the intel.snc fixture and on the simulated icx-8351n-snc2 preset, the
// nodes adding up to the L3 domain's reading; a machine without SNC is refused with exit 3 and advice.
#include "../cli/CliRun.h"
#include "TestTree.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <tuple>
#include <vector>

namespace {

std::vector<std::vector<std::string>> csvRows(const std::string& text, const std::string& header)
{
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    bool seen = false;
    for (std::string line; std::getline(in, line);) {
        if (line == header) {
            seen = true;
            continue;
        }
        if (!seen || line.empty() || !std::isdigit(static_cast<unsigned char>(line[0]))) continue;
        std::vector<std::string> cells;
        std::istringstream l(line);
        for (std::string c; std::getline(l, c, ',');)
            cells.push_back(c);
        rows.push_back(cells);
    }
    return rows;
}

constexpr const char* kNodeHeader = "time_s,group,domain,node,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps";
constexpr const char* kL3Header = "time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps";

} // namespace

TEST(SncCli, MonitorNodesOnTheFixtureAddsUpToTheL3)
{
    rdt::test::TempTree t("intel.snc");
    const auto nodes = runCli("monitor --duration 1 --csv --nodes --source resctrl:" + t.root());
    ASSERT_EQ(nodes.exitCode, 0) << nodes.output;
    const auto perNode = csvRows(nodes.output, kNodeHeader);
    ASSERT_FALSE(perNode.empty()) << nodes.output;
    std::map<std::tuple<std::string, std::string>, unsigned long long> summed;
    std::map<std::string, int> nodesOfDomain;
    for (const auto& r : perNode) {
        ASSERT_EQ(r.size(), 7u);
        summed[{ r[1], r[2] }] += std::stoull(r[4]);
        if (r[1] == "default") ++nodesOfDomain[r[2]];
    }
    EXPECT_EQ(nodesOfDomain.size(), 2u); // two L3 domains, two nodes each (the fixture's README)
    for (const auto& [d, n] : nodesOfDomain)
        EXPECT_EQ(n, 2) << "domain " << d;
    const auto l3 = runCli("monitor --duration 1 --csv --source resctrl:" + t.root());
    ASSERT_EQ(l3.exitCode, 0) << l3.output;
    const auto whole = csvRows(l3.output, kL3Header);
    ASSERT_FALSE(whole.empty()) << l3.output;
    for (const auto& r : whole)
        EXPECT_EQ((summed[{ r[1], r[2] }]), std::stoull(r[3])) << r[1] << " domain " << r[2];
    // The table has a NODE column.
    const auto table = runCli("monitor --duration 1 --nodes --source resctrl:" + t.root());
    EXPECT_EQ(table.exitCode, 0) << table.output;
    EXPECT_NE(table.output.find("GROUP                        DOMAIN   NODE"), std::string::npos) << table.output;
}

TEST(SncCli, MonitorNodesOnTheSimulatedSncPreset)
{
    const auto r = runCli("monitor --source sim --preset icx-8351n-snc2 --duration 2 --csv --nodes");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const auto rows = csvRows(r.output, kNodeHeader);
    std::map<std::string, int> nodes;
    for (const auto& row : rows)
        if (row[1] == "streamer") ++nodes[row[3]];
    EXPECT_EQ(nodes.size(), 2u) << r.output; // SNC-2: nodes 0 and 1 under L3 domain 0
    EXPECT_NE(r.output.find("SIMULATED"), std::string::npos);
}

TEST(SncCli, NodesWithoutSncSayWhy)
{
    const auto r = runCli("monitor --source sim --duration 1 --nodes");
    EXPECT_EQ(r.exitCode, 3) << r.output;
    EXPECT_NE(r.output.find("has no SNC sub-NUMA nodes"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--preset icx-8351n-snc2"), std::string::npos) << r.output;
    EXPECT_EQ(runCli("monitor --source sim --duration 1 --nodes --telemetry").exitCode, 2);
}
