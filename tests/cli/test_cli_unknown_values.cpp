// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #43: one missing counter file marks only its own column unknown. A resctrl tree whose mon_L3_01 has no
// mbm_local_bytes (resctrl.rst "Monitoring": each event is its own file) still shows that domain's occupancy and
// total bandwidth; its local and remote bandwidth are "-" in the table and empty fields in the CSV, never 0.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split(const std::string& line, char sep)
{
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, sep))
        out.push_back(field);
    if (!line.empty() && line.back() == sep) out.emplace_back();
    return out;
}

std::vector<std::string> words(const std::string& line)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

} // namespace

TEST(UnknownValues, AMissingLocalCounterBlanksOnlyLocalAndRemote)
{
    char tmpl[] = "/tmp/rdtscope-unknown-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl, root = dir + "/tree";
    fs::copy(std::string(RDTSCOPE_TEST_DATA) + "/resctrl/resctrl.full", root, fs::copy_options::recursive);
    ASSERT_TRUE(fs::remove(root + "/mon_data/mon_L3_01/mbm_local_bytes"));

    const CliRun csv = runCli("monitor --source resctrl:" + root + " --duration 1 --csv", 60);
    EXPECT_EQ(csv.exitCode, 0) << csv.output;
    int checked = 0;
    std::istringstream lines(csv.output);
    for (std::string line; std::getline(lines, line);) {
        const auto f = split(line, ',');
        // time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps,...
        if (f.size() < 6 || f[1] != "default") continue;
        ASSERT_FALSE(f[3].empty()) << line; // occupancy read fine everywhere
        ASSERT_FALSE(f[4].empty()) << line; // so did every total
        if (f[2] == "1") {
            EXPECT_TRUE(f[5].empty()) << line; // no local counter: unknown
            ++checked;
        } else {
            EXPECT_FALSE(f[5].empty()) << line;
        }
    }
    EXPECT_GT(checked, 0) << csv.output;

    const CliRun table = runCli("monitor --source resctrl:" + root + " --duration 1", 60);
    EXPECT_EQ(table.exitCode, 0) << table.output;
    checked = 0;
    std::istringstream rows(table.output);
    for (std::string line; std::getline(rows, line);) {
        const auto w = words(line);
        // GROUP DOMAIN LLC[KB] MBL[MB/s] MBR[MB/s] MBT[MB/s] FLAGS
        if (w.size() != 7 || w[0] != "default") continue;
        if (w[1] == "1") {
            EXPECT_NE(w[2], "-") << line;
            EXPECT_EQ(w[3], "-") << line;
            EXPECT_EQ(w[4], "-") << line;
            EXPECT_NE(w[5], "-") << line;
            EXPECT_EQ(w[6], "A") << line; // ENOENT: no counter behind the file
            ++checked;
        } else {
            EXPECT_NE(w[3], "-") << line;
        }
    }
    EXPECT_GT(checked, 0) << table.output;
    fs::remove_all(dir);
}
