// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli pmu, run as a user would: the "no hardware PMU" answer on a machine without one (exit 3), and the
// simulated LBR capture's hottest call edges.
#include "../cli/CliRun.h"
#include "pmu/PerfSyscalls.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

CliRun run(const std::string& args)
{
    return runShell(std::string(RDTSCOPE_CLI) + " " + args + " 2>&1");
}

} // namespace

TEST(PmuCli, TmaWithoutHardwarePmuExplainsAndExits3)
{
    rdt::pmu::LinuxPerfSyscalls sys;
    const auto env = sys.environment();
    if (env.hasCpuPmu || env.hasCpuCorePmu) GTEST_SKIP() << "this machine has a core PMU";
    const CliRun r = run("pmu tma -- ls");
    EXPECT_EQ(r.exitCode, 3) << r.output;
    EXPECT_NE(r.output.find("no hardware PMU"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--source sim"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("Makefile"), std::string::npos) << "ls must not have run";
}

TEST(PmuCli, SimulatedLbrPrintsHottestCallEdges)
{
    const CliRun r = run("pmu lbr --source sim --duration 1 --interval 0.5");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(r.output.rfind("SIMULATED", 0), 0u) << "simulated output is labelled first";
    EXPECT_NE(r.output.find("hottest call edges"), std::string::npos);
    EXPECT_NE(r.output.find("lookup_user -> probe_table"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("(simulated data)"), std::string::npos);
}

TEST(PmuCli, TheSimulatedProgramIsChosenAndNamed)
{
    // The hash join: its probe function is what the capture names, and the header says which program ran.
    const CliRun join = run("pmu lbr --source sim --program backend --duration 1 --interval 0.5");
    ASSERT_EQ(join.exitCode, 0) << join.output;
    EXPECT_NE(join.output.find("running rdtscope's synthetic hash join (backend bound)"), std::string::npos)
        << join.output;
    EXPECT_EQ(join.output.find("lookup_user"), std::string::npos) << "the request server did not run";
    EXPECT_EQ(run("pmu tma --source sim --program compiler").exitCode, 2);
}

TEST(PmuCli, UsageErrors)
{
    EXPECT_EQ(run("pmu").exitCode, 2);
    EXPECT_EQ(run("pmu cache").exitCode, 2);
    EXPECT_EQ(run("pmu lbr --mode sideways").exitCode, 2);
    EXPECT_EQ(run("pmu tma --source perf").exitCode, 2) << "perf needs a target";
    EXPECT_EQ(run("pmu tma --source sim -- ls").exitCode, 2);
}
