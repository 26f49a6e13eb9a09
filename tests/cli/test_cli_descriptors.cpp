// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #44: monitoring does not stop at ordinary numbers of groups. With the default soft limit of 1024
// descriptors, `monitor` on a tree of 400 monitor groups (4 domains, 4,800 counter files) prints every group's
// rows, and exits 0 only because every poll succeeded.
#include "../rdt/ServerTree.h"
#include "CliRun.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

TEST(Descriptors, MonitorPrintsEveryGroupOf400WithALimitOf1024)
{
    char tmpl[] = "/tmp/rdtscope-fds-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl, root = dir + "/tree";
    rdt::test::ServerTreeShape shape;
    shape.monitorGroups = 400;
    const auto groups
        = rdt::test::makeServerTree(std::string(RDTSCOPE_TEST_DATA) + "/resctrl/resctrl.full", root, shape);
    ASSERT_EQ(groups.monitor.size(), 400u);
    // The hard limit too, so the CLI cannot raise its way out of the test.
    const CliRun r = runCli("monitor --source resctrl:" + root + " --duration 1 --csv 2>&1", 120, "ulimit -n 1024; ");
    EXPECT_EQ(r.exitCode, 0) << r.output.substr(0, 2000);
    std::map<std::string, int> rows;
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
        const auto a = line.find(','), b = line.find(',', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        ++rows[line.substr(a + 1, b - a - 1)];
    }
    for (const auto& g : groups.monitor)
        EXPECT_EQ(rows[g], shape.domains) << g;
    for (const auto& g : groups.control)
        EXPECT_EQ(rows[g], shape.domains) << g;
    EXPECT_EQ(r.output.find("Too many open files"), std::string::npos) << r.output.substr(0, 2000);
    fs::remove_all(dir);
}
