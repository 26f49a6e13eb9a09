// SPDX-License-Identifier: GPL-3.0-or-later
// MSR state between processes (issue #14, docs/SAFE-WRITES.md "MSR state between runs"): consecutive rdtscope-cli
// processes on one simulated machine whose registers live on in a directory (`--source sim-msr:DIR`) keep each
// other's groups, as two `--source msr` runs on a real server must.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/file.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

class MsrStateCli : public ::testing::Test {
protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/rdtscope-msrstate-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
        machine = (dir / "xeon").string();
    }
    void TearDown() override { fs::remove_all(dir); }
    CliRun cli(const std::string& args) { return runCli(args + " --source sim-msr:" + machine); }
    fs::path dir;
    std::string machine;
};

struct Row {
    int clos = -1;
    std::string cpus;
};

/// `groups list` rows by group name: its CLOS and CPU list.
std::map<std::string, Row> groupsOf(const std::string& listing)
{
    std::map<std::string, Row> rows;
    std::istringstream in(listing);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream w(line);
        std::string name, type, mode, tasks;
        Row r;
        if (w >> name >> type >> mode >> r.clos >> tasks >> r.cpus && (type == "control" || type == "monitor"))
            rows[name] = r;
    }
    return rows;
}

} // namespace

TEST_F(MsrStateCli, ConsecutiveProcessesKeepEachOthersGroups)
{
    auto made = cli("groups create web");
    ASSERT_EQ(made.exitCode, 0) << made.output;
    auto assigned = cli("groups assign web --cpus 3");
    ASSERT_EQ(assigned.exitCode, 0) << assigned.output;
    auto masked = cli("alloc set --group web L3:0=3");
    ASSERT_EQ(masked.exitCode, 0) << masked.output;

    // A later process: web is still there with its CPU and mask, and a new group gets a CLOS of its own.
    auto second = cli("groups create batch");
    ASSERT_EQ(second.exitCode, 0) << second.output;
    auto listed = cli("groups list");
    ASSERT_EQ(listed.exitCode, 0) << listed.output;
    const auto rows = groupsOf(listed.output);
    ASSERT_TRUE(rows.count("web")) << listed.output;
    ASSERT_TRUE(rows.count("batch")) << listed.output;
    EXPECT_EQ(rows.at("web").cpus, "3") << listed.output;
    EXPECT_EQ(rows.at("batch").cpus, "-") << listed.output;
    std::map<int, std::string> byClos;
    for (const auto& [name, r] : rows)
        EXPECT_TRUE(byClos.emplace(r.clos, name).second)
            << name << " and " << byClos[r.clos] << " share CLOS " << r.clos << "\n"
            << listed.output;
    auto shown = cli("alloc show");
    ASSERT_EQ(shown.exitCode, 0) << shown.output;
    const auto web = shown.output.find("\nweb ");
    ASSERT_NE(web, std::string::npos) << shown.output;
    EXPECT_EQ(shown.output.find("L3:0=3\n", web), shown.output.find("L3:0=", web)) << shown.output;
    // The groups found in the registers are named from the state file, not "clos3".
    EXPECT_NE(listed.output.find("found victim (CLOS 1)"), std::string::npos) << listed.output;
    EXPECT_EQ(listed.output.find("clos3"), std::string::npos) << listed.output;

    // Removing a group in one process frees it for the next.
    auto removed = cli("groups delete web");
    ASSERT_EQ(removed.exitCode, 0) << removed.output;
    const auto after = groupsOf(cli("groups list").output);
    EXPECT_FALSE(after.count("web"));
    EXPECT_TRUE(after.count("batch"));
}

TEST_F(MsrStateCli, AMachineInUseByAnotherProcessIsRefused)
{
    ASSERT_EQ(cli("groups list").exitCode, 0);
    const int fd = ::open((machine + "/lock").c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
    auto busy = cli("groups create web");
    ::close(fd);
    EXPECT_NE(busy.exitCode, 0) << busy.output;
    EXPECT_NE(busy.output.find("in use by another rdtscope process"), std::string::npos) << busy.output;
    EXPECT_EQ(groupsOf(cli("groups list").output).count("web"), 0u) << "the refused process changed the machine";
}

TEST_F(MsrStateCli, ADamagedRegisterFileIsRefusedWithItsLine)
{
    ASSERT_EQ(cli("groups create web").exitCode, 0);
    {
        std::ofstream out(machine + "/msrs", std::ios::app);
        out << "0 0xc8f banana\n";
    }
    auto r = cli("groups list");
    EXPECT_GT(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("/msrs:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("not a register line"), std::string::npos) << r.output;

    // A register the machine refuses (#GP: a reserved PQR_ASSOC bit) stops the source too, naming the WRMSR.
    {
        std::ofstream out(machine + "/msrs", std::ios::trunc);
        out << "0 0xc8f 0xffffffffffffffff\n";
    }
    auto gp = cli("groups list");
    EXPECT_NE(gp.exitCode, 0) << gp.output;
    EXPECT_NE(gp.output.find("refused WRMSR 0xc8f on CPU 0"), std::string::npos) << gp.output;
}
