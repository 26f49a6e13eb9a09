// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli sweep as a user runs it: one CSV row per step and the knee on the simulated machine, a refusal that
// says why, and SIGTERM sent to a running sweep leaving the machine's registers as they were.
#include "CliRun.h"

#include <gtest/gtest.h>

#include "session/SessionReader.h"

#include <cmath>
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
    EXPECT_EQ(linesStartingWith(r.output,
                  "step,ways,written,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps,ipc,mpki,"
                  "memory_bound,disturbed")
                  .size(),
        1u)
        << r.output;
    // The victim starts with all 11 ways of the simulated Xeon Gold 6154 and goes down to 1.
    for (int ways = 11; ways >= 1; --ways) {
        const auto step = std::to_string(12 - ways) + "," + std::to_string(ways) + ",L3:0=";
        EXPECT_EQ(linesStartingWith(r.output, step).size(), 1u) << step << "\n" << r.output;
    }
    EXPECT_EQ(linesStartingWith(r.output, "# knee: ").size(), 1u) << r.output;
    // The simulated source counts the victim's threads: the figures' source is stated, and labelled simulated.
    const auto pmu = linesStartingWith(r.output, "# pmu: victim's IPC, MPKI");
    ASSERT_EQ(pmu.size(), 1u) << r.output;
    EXPECT_NE(pmu[0].find("simulated"), std::string::npos) << pmu[0];
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

TEST(CliSweep, RecordsTheSweepIntoASession)
{
    char tmpl[] = "/tmp/rdtscope-sweep-rec-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string file = std::string(tmpl) + "/sweep.rdts";
    const auto r = runCli("sweep mba --group streamer --victim victim --source sim --settle 0.2 --measure 0.5 --record "
        + file + " --csv 2>/dev/null");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    auto reader = rdt::session::SessionReader::open(file);
    ASSERT_TRUE(reader.ok()) << reader.error().toString();
    auto steps = (*reader)->sweepSteps();
    ASSERT_TRUE(steps.ok()) << steps.error().toString();
    ASSERT_EQ(steps->size(), 10u);
    EXPECT_EQ(steps->front().kind, "mba");
    EXPECT_EQ(steps->front().group, "streamer");
    EXPECT_EQ(steps->front().value, 100u);
    EXPECT_EQ(steps->front().victim, "victim");
    EXPECT_EQ(steps->back().value, 10u);
    EXPECT_LT(steps->front().startNs, steps->front().endNs);
    EXPECT_GT(steps->front().totalBps, 2 * steps->back().totalBps);
    // The streamer's PMU figures per step, with their source (a 10 % cap slows it: fewer instructions per cycle).
    ASSERT_TRUE(steps->front().ipc && steps->back().ipc && steps->front().mpki);
    EXPECT_LT(*steps->back().ipc, *steps->front().ipc);
    EXPECT_NE(steps->front().pmuSource.find("simulated"), std::string::npos) << steps->front().pmuSource;
    // The same numbers as the CSV printed: row 1's memory bandwidth.
    const auto row1 = linesStartingWith(r.output, "1,100,");
    ASSERT_EQ(row1.size(), 1u) << r.output;
    EXPECT_NE(row1[0].find("," + std::to_string(static_cast<long long>(std::llround(steps->front().totalBps))) + ","),
        std::string::npos)
        << row1[0];
    std::size_t stepMarkers = 0, endMarkers = 0;
    for (const auto& m : (*reader)->markers()) {
        if (m.kind != "sweep") continue;
        stepMarkers += m.text.find(" step ") != std::string::npos;
        endMarkers += m.text.find("done: knee") != std::string::npos && m.text.find("restored") != std::string::npos;
    }
    EXPECT_EQ(stepMarkers, 10u);
    EXPECT_EQ(endMarkers, 1u);
    EXPECT_GT((*reader)->sampleCount(), 0u);
    std::size_t capped = 0;
    for (const auto& a : (*reader)->allocations())
        capped += a.group == "streamer" && a.resource == "MB" && a.newValue == "10" && a.ok;
    EXPECT_EQ(capped, 1u) << "the last step's write is an allocation event";
    // A session from before the table existed has no sweeps and is not damaged for it.
    auto old
        = rdt::session::SessionReader::open(std::string(RDTSCOPE_TEST_DATA) + "/session/corpus/hardware-samples.rdts");
    ASSERT_TRUE(old.ok());
    auto none = (*old)->sweepSteps();
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->empty());
    std::filesystem::remove_all(tmpl);
}
