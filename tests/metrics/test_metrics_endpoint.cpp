// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent --metrics as users run it: alone (no --stdio), on a loopback port, checked by promtool and
// scraped by a real Prometheus started here on the simulated machine (every figure below is simulated).
#include "FleetHelpers.h"
#include "engine/CaptureService.h"
#include "metrics/Exposition.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <httplib.h>
#include <set>
#include <sstream>
#include <thread>

using namespace rdt;
using namespace rdt::test;

namespace {

/// The simulator's own bandwidth of a group (bytes/s, domain 0), averaged over simulated [fromS, toS): the same
/// scenario run in-process and polled every 100 ms of simulated time.
double simulatedBandwidth(
    const std::string& spec, const std::string& scenario, const std::string& group, int fromS, int toS)
{
    engine::ServiceOptions options;
    options.rdt.spec = spec;
    options.rdt.scenario = scenario;
    auto service = engine::CaptureService::open(options);
    if (!service) return std::nan("");
    (void)(*service)->setSamplingInterval(100'000'000);
    double sum = 0;
    int n = 0;
    for (std::uint64_t t = 100'000'000; t <= std::uint64_t(toS) * 1'000'000'000; t += 100'000'000) {
        (*service)->advanceTo(t);
        (void)(*service)->pollRdt();
        for (auto& e : (*service)->drainEvents())
            if (auto* b = std::get_if<RdtSampleBatch>(&e))
                for (const auto& s : b->samples)
                    if (s.group == group && s.domain == 0 && t > std::uint64_t(fromS) * 1'000'000'000) {
                        sum += s.mbmTotalBps;
                        ++n;
                    }
    }
    return n ? sum / n : std::nan("");
}

} // namespace

TEST(MetricsEndpoint, RunsAloneAndServesBothFormatsThatPromtoolAccepts)
{
    const std::string dir = makeTempDir("rdtscope-metrics");
    MetricsAgent agent({ "--source", "sim", "--scenario", "noisy-neighbour", "--dashboard",
                           std::string(RDTSCOPE_SOURCE_DIR) + "/resources/grafana/rdtscope.json" },
        dir, "agent");
    ASSERT_TRUE(agent.ok()) << agent.log();
    EXPECT_NE(agent.log().find("SIMULATED"), std::string::npos) << agent.log();

    HttpReply prom;
    for (int i = 0; i < 100; ++i) { // the first batch comes after one sampling interval (1 s); 10 s at most
        prom = httpGet(agent.port, "/metrics");
        if (prom.body.find("rdtscope_mbm_total_bytes_total{") != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_EQ(prom.status, 200);
    EXPECT_EQ(prom.contentType, "text/plain; version=0.0.4; charset=utf-8");
    for (const char* name : { "rdtscope_llc_occupancy_bytes{", "rdtscope_mbm_total_bytes_total{",
             "rdtscope_mbm_local_bytes_total{", "rdtscope_l3_allocated_ways{", "rdtscope_mba_throttle_ratio{",
             "rdtscope_sample_errors_total{reason=", "rdtscope_scrape_duration_seconds ", "rdtscope_build_info{" })
        EXPECT_NE(prom.body.find(name), std::string::npos) << name << "\n" << prom.body;
    EXPECT_NE(prom.body.find("group=\"streamer\",ctrl_group=\"streamer\",domain=\"0\""), std::string::npos);
    const auto lint = promtoolCheck(prom.body, dir);
    EXPECT_EQ(lint.exitCode, 0) << lint.out;
    EXPECT_EQ(lint.out, "");

    const auto om = httpGet(agent.port, "/metrics", { { "Accept", "application/openmetrics-text" } });
    ASSERT_EQ(om.status, 200);
    EXPECT_EQ(om.contentType, "application/openmetrics-text; version=1.0.0; charset=utf-8");
    EXPECT_NE(om.body.find("# UNIT rdtscope_mbm_total_bytes bytes\n"), std::string::npos);
    EXPECT_NE(om.body.find("rdtscope_mbm_total_bytes_created{"), std::string::npos);
    ASSERT_GE(om.body.size(), 6u);
    EXPECT_EQ(om.body.substr(om.body.size() - 6), "# EOF\n");
    // promtool 2.42 lints with the Prometheus 0.0.4 parser: it reads the OpenMetrics text (no parse error) but,
    // not knowing that OpenMetrics puts a counter's metadata on the name without _total, reports exactly the
    // counters' _total and _created samples as lacking help. Nothing else may be reported.
    const auto omLint = promtoolCheck(om.body, dir);
    EXPECT_NE(omLint.exitCode, 1) << omLint.out;
    std::istringstream lines(omLint.out);
    int complaints = 0;
    for (std::string line; std::getline(lines, line); ++complaints) {
        const bool known = line.rfind("rdtscope_mbm_", 0) == 0 || line.rfind("rdtscope_sample_errors_", 0) == 0;
        EXPECT_TRUE(known && line.find("no help text") != std::string::npos
            && (line.find("_total no help") != std::string::npos || line.find("_created no help") != std::string::npos))
            << line;
    }
    EXPECT_EQ(complaints, 5) << omLint.out; // mbm total/local x _total/_created, sample_errors_total

    // Read-only: no method but GET/HEAD is served.
    httplib::Client client("127.0.0.1", agent.port);
    auto post = client.Post("/metrics", "x", "text/plain");
    ASSERT_TRUE(post);
    EXPECT_EQ(post->status, 405);
    const auto dashboard = httpGet(agent.port, "/dashboard");
    EXPECT_EQ(dashboard.status, 200);
    EXPECT_NE(dashboard.body.find("rdtscope_mbm_total_bytes_total"), std::string::npos);

    ::kill(agent.process->pid(), SIGTERM);
    EXPECT_EQ(agent.process->waitExit(10000), 0) << agent.log();
}

// The index page links /dashboard: an agent run from its build tree (as the README's commands run it) serves the
// checkout's dashboard without --dashboard; an installed one serves the installed file (tests/packaging).
TEST(MetricsEndpoint, TheBuildTreesAgentServesTheCheckoutsDashboard)
{
    const std::string dir = makeTempDir("rdtscope-metrics");
    MetricsAgent agent({ "--source", "sim", "--scenario", "noisy-neighbour" }, dir, "agent");
    ASSERT_TRUE(agent.ok()) << agent.log();
    EXPECT_NE(httpGet(agent.port, "/").body.find("/dashboard"), std::string::npos);
    const auto dashboard = httpGet(agent.port, "/dashboard");
    EXPECT_EQ(dashboard.status, 200) << dashboard.body;
    EXPECT_NE(dashboard.body.find("rdtscope_mbm_total_bytes_total"), std::string::npos);
    ::kill(agent.process->pid(), SIGTERM);
    EXPECT_EQ(agent.process->waitExit(10000), 0) << agent.log();
}

TEST(MetricsEndpoint, RefusesBadOptionsWithAdvice)
{
    auto r = run({ RDTSCOPE_AGENT, "--metrics", "127.0.0.1:99999" }, 30);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.out.find("port from 0 to 65535"), std::string::npos) << r.out;
    r = run({ RDTSCOPE_AGENT, "--source", "sim", "--metrics", "127.0.0.1:0", "--web-config", "/nonexistent.yml" }, 30);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("cannot open web configuration /nonexistent.yml"), std::string::npos) << r.out;
}

TEST(MetricsEndpoint, RealPrometheusSeesEverySeriesTheRightRateAndNoResetAcrossWraps)
{
    const std::string dir = makeTempDir("rdtscope-prometheus");
    // sim-msr: 24-bit MSR counters that wrap every few seconds in counter-wrap (mbm_scale=4096).
    MetricsAgent agent({ "--source", "sim-msr", "--scenario", "counter-wrap", "--sample-ms", "100" }, dir, "agent");
    ASSERT_TRUE(agent.ok()) << agent.log();
    Prometheus prometheus({ "127.0.0.1:" + std::to_string(agent.port) }, dir, 1);
    ASSERT_TRUE(prometheus.ok()) << prometheus.log();

    // Scrape for 24 s (bounded), enough for a 20 s rate window.
    const auto start = std::chrono::steady_clock::now();
    double samples = 0;
    for (int i = 0; i < 60; ++i) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        samples = singleValue(prometheus.query("count_over_time(rdtscope_mbm_total_bytes_total{group=\"bulk\"}[1m])"));
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(24) && samples >= 22) break;
    }
    ASSERT_GE(samples, 22) << prometheus.lastError << prometheus.log();

    // Every group x domain of the simulated machine is a series.
    engine::ServiceOptions options;
    options.rdt.spec = "sim-msr";
    options.rdt.scenario = "counter-wrap";
    auto sim = engine::CaptureService::open(options);
    ASSERT_TRUE(sim);
    (*sim)->advanceTo(1'000'000'000);
    auto machine = (*sim)->machine();
    ASSERT_TRUE(machine);
    std::set<std::string> expected, seen;
    for (const auto& g : (*sim)->snapshot().groups)
        for (int d : machine->capabilities.monitoring.domains)
            expected.insert(
                metrics::escapeLabelValue(g.info.path.empty() ? "/" : g.info.path) + "@" + std::to_string(d));
    for (const char* name :
        { "rdtscope_mbm_total_bytes_total", "rdtscope_mbm_local_bytes_total", "rdtscope_llc_occupancy_bytes" }) {
        seen.clear();
        for (const auto& s : prometheus.query(name))
            seen.insert(s["metric"]["group"].get<std::string>() + "@" + s["metric"]["domain"].get<std::string>());
        EXPECT_EQ(seen, expected) << name;
    }
    EXPECT_EQ(singleValue(prometheus.query("up")), 1);

    // The rate over 20 s matches the simulator's own bandwidth of the group within 5 %. Simulated time lags the
    // wall clock on a loaded machine, so the byte rate is divided by the rate of the source clock (simulated
    // seconds per second): bytes per simulated second, as the simulator counts them.
    const double expectedBps = simulatedBandwidth("sim-msr", "counter-wrap", "bulk", 2, 12);
    const double rate
        = singleValue(prometheus.query("rate(rdtscope_mbm_total_bytes_total{group=\"bulk\",domain=\"0\"}[20s]) / "
                                       "scalar(rate(rdtscope_source_time_seconds[20s]))"));
    std::printf("Prometheus rate %.4g B/s per simulated second, simulator %.4g B/s, simulated time runs at %.2fx\n",
        rate, expectedBps, singleValue(prometheus.query("rate(rdtscope_source_time_seconds[20s])")));
    ASSERT_GT(expectedBps, 1e9);
    EXPECT_NEAR(rate, expectedBps, 0.05 * expectedBps) << "simulated " << expectedBps << " B/s";

    // The 24-bit counters wrapped (more than 2^24 x 4096 bytes moved) and Prometheus saw no reset.
    const double moved
        = singleValue(prometheus.query("increase(rdtscope_mbm_total_bytes_total{group=\"bulk\",domain=\"0\"}[1m])"));
    EXPECT_GT(moved, 2.0 * 16777216.0 * 4096.0);
    const auto resets = prometheus.query("resets(rdtscope_mbm_total_bytes_total[1m])");
    ASSERT_EQ(resets.size(), expected.size());
    for (const auto& r : resets)
        EXPECT_EQ(r["value"][1], "0") << r.dump();
}
