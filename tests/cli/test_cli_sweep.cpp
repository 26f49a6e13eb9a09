// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli sweep as a user runs it: one CSV row per step and the knee on the simulated machine, a refusal that
// says why, the victim's columns of an MBA sweep, SIGTERM sent to a running sweep leaving the machine's registers as
// they were (MSR by MSR), and sweeps and advisor runs recorded into sessions.
#include "CliRun.h"

#include <gtest/gtest.h>

#include "session/SessionReader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
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

std::vector<std::string> split(const std::string& line, char by)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string f; std::getline(in, f, by);)
        if (by != ' ' || !f.empty()) out.push_back(f);
    return out;
}

/// The column named `name` of a header, or npos.
std::size_t columnOf(const std::vector<std::string>& header, const std::string& name)
{
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? std::string::npos : static_cast<std::size_t>(it - header.begin());
}

} // namespace

TEST(CliSweep, MbaShowsTheVictimAtEveryStepInTheCsvAndTheTable)
{
    const std::string cmd = "sweep mba --group streamer --victim victim --source sim --settle 0.2 --measure 0.5";
    const auto csv = runCli(cmd + " --csv 2>/dev/null", 120);
    ASSERT_EQ(csv.exitCode, 0) << csv.output;
    const auto headers = linesStartingWith(csv.output, "step,");
    ASSERT_EQ(headers.size(), 1u) << csv.output;
    const auto header = split(headers[0], ',');
    const auto occ = columnOf(header, "victim_llc_occupancy_bytes"), bw = columnOf(header, "victim_mbm_total_bps");
    ASSERT_NE(occ, std::string::npos) << headers[0];
    ASSERT_NE(bw, std::string::npos) << headers[0];
    std::vector<double> victimOcc, victimBw;
    for (int step = 1; step <= 10; ++step) {
        const auto rows
            = linesStartingWith(csv.output, std::to_string(step) + "," + std::to_string(110 - 10 * step) + ",");
        ASSERT_EQ(rows.size(), 1u) << step << "\n" << csv.output;
        const auto row = split(rows[0], ',');
        ASSERT_GT(row.size(), std::max(occ, bw)) << rows[0];
        ASSERT_FALSE(row[occ].empty() || row[bw].empty()) << rows[0];
        victimOcc.push_back(std::stod(row[occ]));
        victimBw.push_back(std::stod(row[bw]));
        EXPECT_GT(victimOcc.back(), 0) << rows[0];
        EXPECT_GT(victimBw.back(), 0) << rows[0];
    }
    // The capped streamer inserts fewer lines: the victim keeps more of the cache and misses less.
    EXPECT_GT(victimOcc.back(), 2 * victimOcc.front());
    EXPECT_LT(victimBw.back(), victimBw.front());
    EXPECT_EQ(linesStartingWith(csv.output, "# victim knee: ").size(), 1u) << csv.output;

    // The table: the victim's columns named in the header and filled in every row (KiB and MB/s of the same run).
    const auto table = runCli(cmd + " 2>/dev/null", 120);
    ASSERT_EQ(table.exitCode, 0) << table.output;
    const auto tableHeaders = linesStartingWith(table.output, "STEP ");
    ASSERT_EQ(tableHeaders.size(), 1u) << table.output;
    const auto names = split(tableHeaders[0], ' ');
    const auto kib = columnOf(names, "VICTIM[KB]"), mbps = columnOf(names, "VMBT[MB/s]");
    ASSERT_NE(kib, std::string::npos) << tableHeaders[0];
    ASSERT_NE(mbps, std::string::npos) << tableHeaders[0];
    for (const int step : { 1, 10 }) {
        const auto rows = linesStartingWith(table.output, (step < 10 ? "   " : "  ") + std::to_string(step) + " ");
        ASSERT_EQ(rows.size(), 1u) << table.output;
        const auto cells = split(rows[0], ' ');
        ASSERT_GT(cells.size(), std::max(kib, mbps)) << rows[0];
        const auto i = static_cast<std::size_t>(step - 1);
        EXPECT_NEAR(std::stod(cells[kib]), victimOcc[i] / 1024.0, 0.1) << rows[0];
        EXPECT_NEAR(std::stod(cells[mbps]), victimBw[i] / 1e6, 0.1) << rows[0];
    }
    // Without a victim there are no victim columns (not columns of zeros).
    const auto alone
        = runCli("sweep mba --group streamer --source sim --settle 0.2 --measure 0.5 --csv 2>/dev/null", 120);
    ASSERT_EQ(alone.exitCode, 0) << alone.output;
    EXPECT_EQ(alone.output.find("victim_"), std::string::npos) << alone.output;
}

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

/// The configuration registers of a sim-msr:DIR machine as its file holds them: (CPU, MSR) -> value (the file's
/// format: docs/SAFE-WRITES.md; its lines are in the order written, so only the values are compared).
std::map<std::pair<std::string, std::string>, std::string> registersIn(const std::string& machineDir)
{
    std::map<std::pair<std::string, std::string>, std::string> out;
    std::ifstream in(machineDir + "/msrs");
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        const auto words = split(line, ' ');
        if (words.size() == 3) out[{ words[0], words[1] }] = words[2];
    }
    return out;
}

TEST(CliSweep, SigtermRestoresTheRegisters)
{
    // A way sweep writes IA32_L3_QOS_MASK_n (0xc90 + n, SDM 20.19.4.2), an MBA sweep IA32_L2_QoS_Ext_BW_Thrtl_n
    // (0xd50 + n, SDM 20.19.7.2): after SIGTERM every register holds its value from before the sweep again.
    for (const std::string sweep : { "ways --group victim", "mba --group streamer" }) {
        SCOPED_TRACE(sweep);
        char tmpl[] = "/tmp/rdtscope-sweep-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        const std::string dir = tmpl;
        const std::string src = "--source sim-msr:" + dir + "/machine";
        // The first run programs the machine; the second shows it as every later run will.
        ASSERT_EQ(runCli("alloc show " + src).exitCode, 0);
        const auto before = runCli("alloc show " + src);
        ASSERT_EQ(before.exitCode, 0) << before.output;
        const auto registersBefore = registersIn(dir + "/machine");
        ASSERT_GE(registersBefore.size(), 4u);
        // A real-time sweep of 10 or 11 steps of 0.5 s, stopped by SIGTERM after 3 s.
        const std::string cmd = "timeout -s TERM 3 " + std::string(RDTSCOPE_CLI) + " sweep " + sweep + " " + src
            + " --realtime --settle 0.2 --measure 0.3 --interval 100 </dev/null 2>&1; echo exit=$?";
        std::string out;
        std::map<std::pair<std::string, std::string>, std::string> registersDuring;
        FILE* p = ::popen(cmd.c_str(), "r");
        ASSERT_NE(p, nullptr);
        char buf[4096];
        while (std::fgets(buf, sizeof buf, p)) {
            out += buf;
            // Step 2 is measured: its registers are written (step 1 is the allocation the group already had).
            if (std::string(buf).rfind("   2 ", 0) == 0) registersDuring = registersIn(dir + "/machine");
        }
        ::pclose(p);
        EXPECT_NE(out.find("stopped by SIGTERM"), std::string::npos) << out;
        EXPECT_NE(out.find("original allocation restored"), std::string::npos) << out;
        EXPECT_NE(out.find("exit=1"), std::string::npos) << out;
        EXPECT_EQ(linesStartingWith(out, "  10 ").size(), 0u) << "it did not run to the end\n" << out;
        ASSERT_FALSE(registersDuring.empty()) << "step 2 was not reached\n" << out;
        EXPECT_NE(registersDuring, registersBefore) << "the sweep wrote nothing to compare against";
        EXPECT_EQ(registersIn(dir + "/machine"), registersBefore);
        const auto after = runCli("alloc show " + src);
        ASSERT_EQ(after.exitCode, 0) << after.output;
        EXPECT_EQ(after.output, before.output);
        std::filesystem::remove_all(dir);
    }
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
    // Every sample the recorder took is in the file: a measurement starting where its settle ended polls that instant
    // once (a second batch at one time was a duplicate row, and replay then called the file damaged).
    const auto replay = runCli("replay " + file + " --speed max >/dev/null");
    EXPECT_EQ(replay.exitCode, 0) << replay.output;
    EXPECT_EQ(replay.output.find("could not be read"), std::string::npos) << replay.output;
    // A session from before the table existed has no sweeps and is not damaged for it.
    auto old
        = rdt::session::SessionReader::open(std::string(RDTSCOPE_TEST_DATA) + "/session/corpus/hardware-samples.rdts");
    ASSERT_TRUE(old.ok());
    auto none = (*old)->sweepSteps();
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->empty());
    std::filesystem::remove_all(tmpl);
}

TEST(CliAdvise, RecordsItsSweepsAndTheProposalIntoASession)
{
    char tmpl[] = "/tmp/rdtscope-advise-rec-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string file = std::string(tmpl) + "/advise.rdts";
    const auto r = runCli("advise --groups streamer,victim --source sim --quiet --apply --settle 0.2 --measure 0.5 "
                          "--record "
            + file + " 2>/dev/null",
        120);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    auto reader = rdt::session::SessionReader::open(file);
    ASSERT_TRUE(reader.ok()) << reader.error().toString();
    // The table: sweep N is the N-th group's curve alone, 10 ways down to 1 (the other group keeps one).
    auto steps = (*reader)->sweepSteps();
    ASSERT_TRUE(steps.ok()) << steps.error().toString();
    ASSERT_EQ(steps->size(), 20u);
    for (std::size_t i = 0; i < steps->size(); ++i) {
        const auto& s = (*steps)[i];
        EXPECT_EQ(s.sweep, i < 10 ? 1u : 2u);
        EXPECT_EQ(s.group, i < 10 ? "streamer" : "victim");
        EXPECT_EQ(s.kind, "ways");
        EXPECT_EQ(s.value, 10 - i % 10);
        EXPECT_LT(s.startNs, s.endNs);
    }
    EXPECT_GT((*steps)[19].totalBps, 2 * (*steps)[10].totalBps) << "the victim misses more on one way than on ten";
    // The proposal as markers, the same masks as the printed table, then the measured change.
    std::vector<std::string> advise;
    std::size_t stepMarkers = 0;
    for (const auto& m : (*reader)->markers()) {
        if (m.kind == "advise") advise.push_back(m.text);
        stepMarkers += m.kind == "sweep" && m.text.find(" ways step ") != std::string::npos;
    }
    EXPECT_EQ(stepMarkers, 20u);
    const auto has = [&](const std::string& prefix) {
        return std::count_if(
            advise.begin(), advise.end(), [&](const std::string& t) { return t.rfind(prefix, 0) == 0; });
    };
    const auto victim = linesStartingWith(r.output, "victim "); // the proposal, then the measured row
    ASSERT_EQ(victim.size(), 2u) << r.output;
    ASSERT_NE(victim[0].find(" 10  L3:0=3ff "), std::string::npos) << victim[0];
    EXPECT_EQ(has("advise victim: 10 ways, L3:0=3ff (knee "), 1) << ::testing::PrintToString(advise);
    EXPECT_EQ(has("advise streamer: 1 ways, L3:0=400 (knee "), 1) << ::testing::PrintToString(advise);
    EXPECT_EQ(has("advise proposal (objective misses): applied"), 1) << ::testing::PrintToString(advise);
    EXPECT_EQ(has("advise victim measured: LLC "), 1) << ::testing::PrintToString(advise);
    EXPECT_EQ(has("advise: sweeping victim alone"), 1) << ::testing::PrintToString(advise);
    // The applied proposal is the victim's last allocation event.
    std::string lastVictimL3;
    for (const auto& a : (*reader)->allocations())
        if (a.group == "victim" && a.resource == "L3" && a.ok) lastVictimL3 = a.newValue;
    EXPECT_EQ(lastVictimL3, "3ff");
    std::filesystem::remove_all(tmpl);
}
