// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli record --metrics: the samples being recorded are served to Prometheus too, with the agent's
// exposition (promtool accepts it, the MBM counters grow between scrapes), while the session file is written as
// without it. A bad endpoint is refused before any file is made. Simulated machine; every wait bounded.
#include "FleetHelpers.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <regex>
#include <thread>

using namespace rdt;
using namespace rdt::test;

namespace {

/// The streamer's MBM total in domain 0 from a 0.0.4 scrape; -1 when absent.
double streamerTotal(const std::string& body)
{
    const std::regex line(
        R"(rdtscope_mbm_total_bytes_total\{group="streamer",ctrl_group="streamer",domain="0"\} ([0-9.e+]+))");
    std::smatch m;
    return std::regex_search(body, m, line) ? std::stod(m[1]) : -1;
}

int portFromLog(BackgroundProcess& p)
{
    const std::regex serving("serving metrics on http://127\\.0\\.0\\.1:([0-9]+)/metrics");
    for (int i = 0; i < 200; ++i) { // 20 s at most
        std::smatch m;
        const std::string text = p.log();
        if (std::regex_search(text, m, serving)) return std::stoi(m[1]);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return 0;
}

} // namespace

TEST(MetricsRecord, ServesWhatItRecords)
{
    const std::string dir = makeTempDir("rdtscope-record-metrics");
    const std::string session = dir + "/s.rdts";
    BackgroundProcess rec(RDTSCOPE_CLI,
        { "record", "-o", session, "--source", "sim", "--duration", "30", "--realtime", "--metrics", "127.0.0.1:0" },
        dir + "/record.log");
    const int port = portFromLog(rec);
    ASSERT_GT(port, 0) << rec.log();
    EXPECT_NE(rec.log().find("(SIMULATED data)"), std::string::npos) << rec.log();

    HttpReply first;
    for (int i = 0; i < 100 && streamerTotal(first.body) <= 0; ++i) { // 10 s at most
        first = httpGet(port, "/metrics");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_EQ(first.status, 200) << rec.log();
    ASSERT_GT(streamerTotal(first.body), 0) << first.body;
    for (const char* name : { "rdtscope_llc_occupancy_bytes{", "rdtscope_l3_allocated_ways{", "rdtscope_build_info{" })
        EXPECT_NE(first.body.find(name), std::string::npos) << name;
    const auto lint = promtoolCheck(first.body, dir);
    EXPECT_EQ(lint.exitCode, 0) << lint.out;
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const auto second = httpGet(port, "/metrics");
    EXPECT_GT(streamerTotal(second.body), streamerTotal(first.body)) << "the counter grows as the recording goes on";
    EXPECT_EQ(httpGet(port, "/metrics", { { "Accept", "application/openmetrics-text" } })
                  .contentType.rfind("application/openmetrics-text", 0),
        0u);

    ASSERT_EQ(::kill(rec.pid(), SIGINT), 0);
    EXPECT_EQ(rec.waitExit(20'000), 0) << rec.log();
    EXPECT_NE(rec.log().find("recorded "), std::string::npos) << rec.log();
    EXPECT_NE(rec.log().find("(SIGINT)"), std::string::npos) << rec.log();
    const auto summary = run({ RDTSCOPE_CLI, "summary", session });
    EXPECT_EQ(summary.exitCode, 0) << summary.out;
    EXPECT_NE(summary.out.find("streamer"), std::string::npos) << summary.out;
}

// The simulated EPYC's MBA caps are absolute (1/8 GB/s): the recording's endpoint exports them as bytes per second,
// AMD's maximum as +Inf, and no throttle ratio (issue: an AMD cap exported as a throttle ratio).
TEST(MetricsRecord, AmdCapsAreBytesPerSecondNotAThrottleRatio)
{
    const std::string dir = makeTempDir("rdtscope-record-metrics-amd");
    BackgroundProcess rec(RDTSCOPE_CLI,
        { "record", "-o", dir + "/a.rdts", "--source", "sim", "--preset", "epyc-genoa", "--scenario", "mba",
            "--duration", "30", "--realtime", "--metrics", "127.0.0.1:0" },
        dir + "/record.log");
    const int port = portFromLog(rec);
    ASSERT_GT(port, 0) << rec.log();
    const std::string capped
        = R"(rdtscope_mba_limit_bytes_per_second{group="hogs",ctrl_group="hogs",domain="0",resource="MB"} 8750000000)";
    HttpReply reply;
    for (int i = 0; i < 250 && reply.body.find(capped) == std::string::npos; ++i) { // 25 s at most (cap at 10 s)
        reply = httpGet(port, "/metrics");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_NE(reply.body.find(capped), std::string::npos) << reply.body << rec.log();
    EXPECT_NE(reply.body.find(R"(rdtscope_mba_limit_bytes_per_second{group="service",ctrl_group="service",)"
                              R"(domain="0",resource="MB"} +Inf)"),
        std::string::npos)
        << reply.body;
    EXPECT_EQ(reply.body.find("rdtscope_mba_throttle_ratio"), std::string::npos) << reply.body;
    const auto lint = promtoolCheck(reply.body, dir);
    EXPECT_EQ(lint.exitCode, 0) << lint.out;
    ASSERT_EQ(::kill(rec.pid(), SIGINT), 0);
    EXPECT_EQ(rec.waitExit(20'000), 0) << rec.log();
}

TEST(MetricsRecord, ABadEndpointLeavesNoFile)
{
    const std::string dir = makeTempDir("rdtscope-record-metrics-bad");
    const auto badPort = run({ RDTSCOPE_CLI, "record", "-o", dir + "/a.rdts", "--source", "sim", "--duration", "1",
        "--metrics", "127.0.0.1:99999" });
    EXPECT_EQ(badPort.exitCode, 2) << badPort.out;
    EXPECT_NE(badPort.out.find("port from 0 to 65535"), std::string::npos) << badPort.out;
    EXPECT_FALSE(std::filesystem::exists(dir + "/a.rdts"));
    const auto webAlone = run(
        { RDTSCOPE_CLI, "record", "-o", dir + "/b.rdts", "--source", "sim", "--duration", "1", "--web-config", "x" });
    EXPECT_EQ(webAlone.exitCode, 2) << webAlone.out;
    EXPECT_FALSE(std::filesystem::exists(dir + "/b.rdts"));
    // A port another process holds: the recorder says so and makes no file.
    const int taken = freeLoopbackPort();
    BackgroundProcess holder(RDTSCOPE_CLI,
        { "record", "-o", dir + "/holder.rdts", "--source", "sim", "--duration", "30", "--realtime", "--metrics",
            "127.0.0.1:" + std::to_string(taken) },
        dir + "/holder.log");
    ASSERT_EQ(portFromLog(holder), taken) << holder.log();
    const auto inUse = run({ RDTSCOPE_CLI, "record", "-o", dir + "/c.rdts", "--source", "sim", "--duration", "1",
        "--metrics", "127.0.0.1:" + std::to_string(taken) });
    EXPECT_EQ(inUse.exitCode, 1) << inUse.out;
    EXPECT_FALSE(std::filesystem::exists(dir + "/c.rdts"));
    ::kill(holder.pid(), SIGINT);
    EXPECT_EQ(holder.waitExit(20'000), 0) << holder.log();
}
