// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent --metrics on a copy of the PERF_PKG_MON fixture tree (tests/data/resctrl/intel.perfpkg): one
// counter family per telemetry event, labelled by group and package, in base units, accepted by promtool.
#include "FleetHelpers.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <thread>

using namespace rdt::test;
namespace fs = std::filesystem;

TEST(MetricsTelemetry, EnergyActivityAndCountsPerGroupAndPackage)
{
    const std::string dir = makeTempDir("rdtscope-tel");
    const std::string root = dir + "/resctrl";
    fs::copy(std::string(RDTSCOPE_TEST_DATA) + "/resctrl/intel.perfpkg", root, fs::copy_options::recursive);
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
    const std::string p0 = "{group=\"p0\",ctrl_group=\"p0\",package=\"";
    std::string body = scrapeUntil("rdtscope_core_energy_joules_total" + p0 + "1\"} ");
    EXPECT_NE(body.find("# TYPE rdtscope_core_energy_joules_total counter\n"), std::string::npos) << body;
    EXPECT_NE(body.find("rdtscope_core_energy_joules_total" + p0 + "0\"} 1234.5\n"), std::string::npos) << body;
    EXPECT_NE(body.find("rdtscope_activity_farads_total" + p0 + "1\"} 57.25\n"), std::string::npos) << body;
    EXPECT_NE(body.find("rdtscope_telemetry_uops_retired_total" + p0 + "1\"} 7000022\n"), std::string::npos) << body;
    EXPECT_NE(body.find("rdtscope_core_energy_joules_total{group=\"/\",ctrl_group=\"/\",package=\"0\"} 3703.5\n"),
        std::string::npos)
        << body;
    const auto lint = promtoolCheck(body, dir);
    EXPECT_EQ(lint.exitCode, 0) << lint.out;
    EXPECT_EQ(lint.out, "");

    // The kernel's counter moves: the series follows it.
    std::ofstream(root + "/p0/mon_data/mon_PERF_PKG_00/core_energy") << "1300.250000\n";
    body = scrapeUntil("rdtscope_core_energy_joules_total" + p0 + "0\"} 1300.25\n");
    EXPECT_NE(body.find("rdtscope_core_energy_joules_total" + p0 + "0\"} 1300.25\n"), std::string::npos) << body;

    const auto om = httpGet(agent.port, "/metrics", { { "Accept", "application/openmetrics-text" } });
    EXPECT_NE(om.body.find("# UNIT rdtscope_core_energy_joules joules\n"), std::string::npos) << om.body;
    EXPECT_NE(om.body.find("# UNIT rdtscope_activity_farads farads\n"), std::string::npos) << om.body;
}
