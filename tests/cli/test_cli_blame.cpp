// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli blame as a user runs it: the issue's command names the streamer with a causal verdict, --json is one
// object whose ranking carries group, resource, effect, uncertainty and verdict, and on a sim-msr:DIR machine every
// register the probes wrote holds its old value afterwards, also after SIGTERM mid-probe.
#include "CliRun.h"
#include "core/Json.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace {

std::vector<std::string> words(const std::string& line)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

std::map<std::pair<std::string, std::string>, std::string> msrRegisters(const std::string& machineDir)
{
    std::map<std::pair<std::string, std::string>, std::string> out;
    std::ifstream in(machineDir + "/msrs");
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        const auto w = words(line);
        if (w.size() == 3) out[{ w[0], w[1] }] = w[2];
    }
    return out;
}

} // namespace

TEST(CliBlame, TheIssueCommandNamesTheStreamerAndRestores)
{
    const auto r = runCli("blame --victim victim --source sim --scenario noisy-neighbour --duration 15 --probe", 120);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("   1  streamer             cache"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("probe: fencing streamer (L3:0=1) gave victim back"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(": culprit"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("probe: streamer: restore wrote L3:0=7ff"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("every probed allocation reads back as before"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("all values above are simulated"), std::string::npos) << r.output;
}

TEST(CliBlame, JsonRankingHasTheIssuesFields)
{
    const auto r = runCli("blame --victim victim --source sim --duration 6 --probe --json 2>/dev/null", 120);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    auto doc = rdt::json::parse(r.output);
    ASSERT_TRUE(doc) << doc.error().toString() << r.output;
    const auto& ranking = (*doc)["ranking"];
    ASSERT_TRUE(ranking.is_array());
    ASSERT_EQ(ranking.size(), 2u);
    EXPECT_EQ(ranking[0]["group"], "streamer");
    EXPECT_EQ(ranking[0]["resource"], "cache");
    EXPECT_GT(ranking[0]["effect"].get<double>(), 0.5);
    EXPECT_TRUE(ranking[0]["uncertainty"].is_number());
    EXPECT_EQ(ranking[0]["verdict"], "culprit");
    EXPECT_EQ(ranking[1]["group"], "default"); // the root group's spelling, never ""
    EXPECT_FALSE(ranking[1].contains("verdict")); // not probed: nothing of it reaches the victim's ways
    EXPECT_EQ((*doc)["simulated"], true);
    EXPECT_EQ((*doc)["restored"], true);
    EXPECT_EQ((*doc)["probe_writes"], 2);
}

TEST(CliBlame, RegistersComeBackAfterProbesAndAfterSigterm)
{
    char tmpl[] = "/tmp/rdtscope-blame-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl;
    const std::string src = "--source sim-msr:" + dir + "/machine";
    ASSERT_EQ(runCli("alloc show " + src).exitCode, 0); // programs the machine
    const auto before = msrRegisters(dir + "/machine");
    ASSERT_GE(before.size(), 4u);
    const auto done = runCli("blame --victim victim --duration 4 --probe " + src, 120);
    ASSERT_EQ(done.exitCode, 0) << done.output;
    EXPECT_NE(done.output.find("fence wrote L3:0=1"), std::string::npos) << done.output;
    EXPECT_EQ(msrRegisters(dir + "/machine"), before);
    // Real time: 2 s passive, 2 s of the victim before the fence, then 3 s fenced; SIGTERM at 5 s lands in the fence.
    const auto stopped = runShell("timeout --preserve-status -s TERM 5 " + std::string(RDTSCOPE_CLI)
        + " blame --victim victim " + "--duration 2 --probe --realtime " + src + " </dev/null 2>&1; echo exit=$?");
    EXPECT_NE(stopped.output.find("fencing streamer"), std::string::npos) << stopped.output;
    EXPECT_NE(stopped.output.find("stopped by SIGTERM"), std::string::npos) << stopped.output;
    EXPECT_NE(stopped.output.find("exit=1"), std::string::npos) << stopped.output;
    EXPECT_EQ(msrRegisters(dir + "/machine"), before);
    std::filesystem::remove_all(dir);
}

TEST(CliBlame, NamesTheVictimOnce)
{
    EXPECT_EQ(runCli("blame --source sim").exitCode, 2);
    EXPECT_EQ(runCli("blame --victim victim --victim-pid 1001 --source sim").exitCode, 2);
    const auto pid = runCli("blame --victim-pid 1003 --source sim --duration 2 --json 2>&1");
    ASSERT_EQ(pid.exitCode, 0) << pid.output;
    EXPECT_NE(pid.output.find("PID 1003 is in group streamer"), std::string::npos) << pid.output;
}

TEST(CliBlame, RecordedRunReplaysItsRankingProbesAndContainment)
{
    char tmpl[] = "/tmp/rdtscope-blame-rec-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string file = std::string(tmpl) + "/blame.rdts";
    const auto r = runCli("blame --victim victim --source sim --duration 4 --probe --contain --record " + file, 120);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("contain: victim's knee: 7 way(s)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("contained streamer (L3:0=f, 7 way(s) left to victim)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("undo: rdtscope-cli alloc set 'L3:0=7ff' --group streamer"), std::string::npos) << r.output;
    const auto replay = runCli("replay " + file + " --speed max >/dev/null");
    ASSERT_EQ(replay.exitCode, 0) << replay.output;
    EXPECT_NE(replay.output.find(": blame: observing victim"), std::string::npos) << replay.output;
    EXPECT_NE(
        replay.output.find(": blame probe streamer: fencing streamer (L3:0=1) gave victim back"), std::string::npos)
        << replay.output;
    EXPECT_NE(replay.output.find(": blame rank 1 streamer (cache): effect"), std::string::npos) << replay.output;
    EXPECT_NE(replay.output.find(", verdict culprit"), std::string::npos) << replay.output;
    EXPECT_NE(replay.output.find(": blame contain streamer: contained streamer"), std::string::npos) << replay.output;
    EXPECT_NE(replay.output.find(": blame ended; every probed allocation restored"), std::string::npos)
        << replay.output;
    // The probe's fence and restore and the containment are allocation events of the session, in order.
    const auto fence = replay.output.find("streamer L3:0 7ff -> 1");
    const auto restore = replay.output.find("streamer L3:0 1 -> 7ff");
    const auto contain = replay.output.find("streamer L3:0 7ff -> f");
    ASSERT_NE(fence, std::string::npos) << replay.output;
    ASSERT_NE(restore, std::string::npos) << replay.output;
    ASSERT_NE(contain, std::string::npos) << replay.output;
    EXPECT_LT(fence, restore);
    EXPECT_LT(restore, contain);

    // diff of the one session around the containment: the victim and the culprit before and after it.
    const auto diff = runCli("diff " + file + " --around-marker 'blame: contain:' --json 2>/dev/null");
    ASSERT_EQ(diff.exitCode, 0) << diff.output;
    auto doc = rdt::json::parse(diff.output);
    ASSERT_TRUE(doc) << diff.output;
    std::map<std::pair<std::string, std::string>, std::pair<double, double>> rdtRows;
    std::map<std::string, std::pair<std::string, std::string>> l3;
    for (const auto& row : (*doc)["rows"]) {
        const std::string section = row["section"].get<std::string>(), group = row["group"].get<std::string>();
        if (section == "rdt" && row["a"].is_number() && row["b"].is_number())
            rdtRows[{ group, row["metric"].get<std::string>() }] = { row["a"].get<double>(), row["b"].get<double>() };
        if (section == "allocation" && row["item"].get<std::string>() == "L3"
            && row["metric"].get<std::string>() == "ways")
            l3[group] = { row["text_a"].get<std::string>(), row["text_b"].get<std::string>() };
    }
    ASSERT_TRUE(rdtRows.count({ "victim", "occupancy_mean" })) << diff.output;
    const auto [occA, occB] = rdtRows[{ "victim", "occupancy_mean" }];
    EXPECT_GT(occB, 3 * occA) << "the victim holds more of L3 after the containment";
    const auto [bwA, bwB] = rdtRows[{ "victim", "total_bw_mean" }];
    EXPECT_LT(bwB, 0.1 * bwA) << "and misses less";
    const auto [sOccA, sOccB] = rdtRows[{ "streamer", "occupancy_mean" }];
    EXPECT_LT(sOccB, 0.5 * sOccA) << "the culprit holds its 4 ways only";
    EXPECT_EQ(l3["streamer"], (std::pair<std::string, std::string> { "7ff", "f" })) << diff.output;
    const auto text = runCli("diff " + file + " --around-marker 'blame: contain:'");
    ASSERT_EQ(text.exitCode, 0) << text.output;
    EXPECT_NE(text.output.find("before marker 'blame: contain:'"), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("after marker 'blame: contain:'"), std::string::npos) << text.output;
    const auto noB = runCli("diff " + file);
    EXPECT_EQ(noB.exitCode, 2) << noB.output;
    EXPECT_NE(noB.output.find("--around-marker"), std::string::npos) << noB.output;
    std::filesystem::remove_all(tmpl);
}
