// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli sweep as a user runs it: one CSV row per step and the knee on the simulated machine, a refusal that
// says why, and SIGTERM sent to a running sweep leaving the machine's registers as they were.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace {

std::vector<std::string> linesStartingWith(const std::string& text, const std::string& prefix)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) out.push_back(line);
    return out;
}

} // namespace

TEST(CliSweep, WaysCsvHasOneRowPerStepAndTheKnee)
{
    const auto r = runCli("sweep ways --group victim --source sim --scenario noisy-neighbour --csv 2>/dev/null", 120);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(linesStartingWith(r.output, "step,ways,written,").size(), 1u) << r.output;
    // The victim starts with all 11 ways of the simulated Xeon Gold 6154 and goes down to 1.
    for (int ways = 11; ways >= 1; --ways) {
        const auto step = std::to_string(12 - ways) + "," + std::to_string(ways) + ",L3:0=";
        EXPECT_EQ(linesStartingWith(r.output, step).size(), 1u) << step << "\n" << r.output;
    }
    EXPECT_EQ(linesStartingWith(r.output, "# knee: ").size(), 1u) << r.output;
}

TEST(CliSweep, RefusalExplains)
{
    const auto r = runCli("sweep ways --group nobody --source sim");
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find("no group nobody"), std::string::npos) << r.output;
    const auto usage = runCli("sweep ways --source sim");
    EXPECT_EQ(usage.exitCode, 2) << usage.output;
}

TEST(CliSweep, SigtermRestoresTheRegisters)
{
    char tmpl[] = "/tmp/rdtscope-sweep-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl;
    const std::string src = "--source sim-msr:" + dir + "/machine";
    // The first run programs the machine; the second shows it as every later run will.
    ASSERT_EQ(runCli("alloc show " + src).exitCode, 0);
    const auto before = runCli("alloc show " + src);
    ASSERT_EQ(before.exitCode, 0) << before.output;
    // A real-time sweep of 11 steps of 0.5 s, stopped by SIGTERM after 2 s.
    const std::string cmd = "timeout -s TERM 2 " + std::string(RDTSCOPE_CLI) + " sweep ways --group victim " + src
        + " --realtime --settle 0.2 --measure 0.3 --interval 100 </dev/null 2>&1; echo exit=$?";
    std::string out;
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        out.append(buf, n);
    ::pclose(p);
    EXPECT_NE(out.find("stopped by SIGTERM"), std::string::npos) << out;
    EXPECT_NE(out.find("original allocation restored"), std::string::npos) << out;
    EXPECT_NE(out.find("exit=1"), std::string::npos) << out;
    EXPECT_EQ(linesStartingWith(out, "  11 ").size(), 0u) << "it did not run to the end\n" << out;
    const auto after = runCli("alloc show " + src);
    ASSERT_EQ(after.exitCode, 0) << after.output;
    EXPECT_EQ(after.output, before.output);
    std::filesystem::remove_all(dir);
}

TEST(CliAdvise, ProposesMasksAndSaysWhatItExpects)
{
    const auto r = runCli("advise --groups streamer,victim --source sim --quiet 2>/dev/null", 120);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const auto streamer = linesStartingWith(r.output, "streamer ");
    const auto victim = linesStartingWith(r.output, "victim ");
    ASSERT_EQ(streamer.size(), 1u) << r.output;
    ASSERT_EQ(victim.size(), 1u) << r.output;
    EXPECT_NE(streamer[0].find(" 1  L3:0=400 "), std::string::npos) << streamer[0];
    EXPECT_NE(victim[0].find(" 10  L3:0=3ff "), std::string::npos) << victim[0];
    EXPECT_NE(victim[0].find("occupancy +"), std::string::npos) << victim[0];
    EXPECT_NE(r.output.find("Not applied"), std::string::npos);
    const auto bad = runCli("advise --groups streamer,victim --objective fastest --source sim");
    EXPECT_EQ(bad.exitCode, 2) << bad.output;
}
