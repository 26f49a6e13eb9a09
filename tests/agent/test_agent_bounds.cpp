// SPDX-License-Identifier: GPL-3.0-or-later
// The agent under one greedy client (docs/PROTOCOL.md "Work bounds"): a real rdtscope-agent on a unix socket in a
// temp dir. A client that asks for more simulated time than the bound is refused at once with the bound named; one
// that asks for the most work allowed keeps its own worker busy while a second client's Pings are answered within a
// second, and SIGTERM still ends the agent within a second. Idle clients give their slot to new ones when all are
// taken, and --stdio answers every request it read before its input ended.
#include "AgentTestHelpers.h"
#include "agent/CommandChecks.h"
#include "protocol/AgentClient.h"
#include "protocol/Frame.h"
#include "protocol/Handshake.h"
#include "protocol/Preamble.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <thread>
#include <unistd.h>

using namespace rdt;
using namespace rdt::test;
using namespace rdt::protocol;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct SocketAgent {
    std::string dir = makeTempDir("rdtscope-agent-bounds");
    std::string path = dir + "/agent.sock";
    std::unique_ptr<BackgroundProcess> proc;
    explicit SocketAgent(std::vector<std::string> extra = {})
    {
        std::vector<std::string> args { "--listen", "unix:" + path, "--allow-group", "users", "--no-polkit" };
        args.insert(args.end(), extra.begin(), extra.end());
        proc = std::make_unique<BackgroundProcess>(RDTSCOPE_AGENT, args, dir + "/agent.log");
        for (int i = 0; i < 1000 && proc->log().find("listening on unix:") == std::string::npos; ++i)
            ::usleep(10000);
    }
    ~SocketAgent()
    {
        proc.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    Result<std::unique_ptr<AgentClient>> connect(const std::string& name) const
    {
        auto url = parseAgentUrl("unix:" + path);
        if (!url) return url.error();
        ClientOptions o;
        o.software = name;
        o.connectTimeoutMs = 10000;
        return AgentClient::connect(*url, o);
    }
};

/// OpenSource on the simulated noisy neighbour; the source clock after it.
std::uint64_t openSimulated(AgentClient& client)
{
    pb::Request open;
    open.mutable_open_source()->set_source("sim");
    open.mutable_open_source()->set_scenario("noisy-neighbour");
    open.mutable_open_source()->set_open_rdt(true);
    auto r = client.call(open, 30000);
    EXPECT_TRUE(r) << (r ? "" : r.error().toString());
    return r ? r->source_opened().now_ns() : 0;
}

pb::Request advanceTo(std::uint64_t t)
{
    pb::Request req;
    req.mutable_advance_to()->set_time_ns(t);
    return req;
}

} // namespace

TEST(AgentBounds, SecondClientIsAnsweredWhileTheFirstAsksForTheMostWorkAndSigtermEndsIt)
{
    SocketAgent agent;
    auto first = agent.connect("greedy");
    ASSERT_TRUE(first) << first.error().toString() << agent.proc->log();
    const std::uint64_t now = openSimulated(**first);

    // 2^64-1: refused at once, the bound named.
    auto t0 = std::chrono::steady_clock::now();
    auto refused = (*first)->call(advanceTo(std::numeric_limits<std::uint64_t>::max()), 5000);
    const double refusedAfter = secondsSince(t0);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("at most 3600 s per request"), std::string::npos) << refused.error().message;
    EXPECT_LT(refusedAfter, 1.0);

    // The most work allowed: an hour of simulated time, running on the first client's worker.
    std::atomic<bool> greedyAnswered { false };
    std::thread greedy([&] {
        (void)(*first)->call(advanceTo(now + agent::kMaxAdvanceNs), 120000);
        greedyAnswered = true;
    });
    ::usleep(300000);

    auto second = agent.connect("patient");
    ASSERT_TRUE(second) << second.error().toString() << agent.proc->log();
    double slowest = 0;
    for (int i = 0; i < 10; ++i) {
        pb::Request ping;
        ping.mutable_ping()->set_payload("p" + std::to_string(i));
        t0 = std::chrono::steady_clock::now();
        auto pong = (*second)->call(ping, 5000);
        slowest = std::max(slowest, secondsSince(t0));
        ASSERT_TRUE(pong) << pong.error().toString();
        EXPECT_EQ(pong->pong().payload(), "p" + std::to_string(i));
    }
    std::printf("slowest of 10 Pings while the other client advances an hour: %.3f s\n", slowest);
    EXPECT_LT(slowest, 1.0);
    EXPECT_FALSE(greedyAnswered) << "the hour's advance was still running while the Pings were answered";

    t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(agent.proc->pid(), SIGTERM), 0);
    const int rc = agent.proc->waitExit(3000);
    const double stoppedAfter = secondsSince(t0);
    greedy.join();
    std::printf("SIGTERM during the hour's advance: exit %d after %.3f s\n", rc, stoppedAfter);
    EXPECT_EQ(rc, 0) << agent.proc->log();
    EXPECT_LT(stoppedAfter, 1.0) << agent.proc->log();
    EXPECT_NE(agent.proc->log().find("stopped"), std::string::npos);
}

TEST(AgentBounds, AnIdleClientGivesItsSlotAndARefusalNamesTheLimits)
{
    SocketAgent agent({ "--max-clients", "2", "--idle-timeout", "2" });
    auto a = agent.connect("a");
    ASSERT_TRUE(a) << a.error().toString() << agent.proc->log();
    auto b = agent.connect("b");
    ASSERT_TRUE(b) << b.error().toString();
    pb::Request ping;
    ping.mutable_ping();
    ASSERT_TRUE((*b)->call(ping, 5000)); // b's last request is later than a's

    // Both slots taken, nobody idle for two seconds yet: refused, with both limits named.
    auto c = agent.connect("c");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("--max-clients 2"), std::string::npos) << c.error().message;
    EXPECT_NE(c.error().message.find("--idle-timeout 2 s"), std::string::npos) << c.error().message;

    ::usleep(2'400'000);
    auto d = agent.connect("d");
    ASSERT_TRUE(d) << d.error().toString() << agent.proc->log();
    EXPECT_TRUE((*d)->call(ping, 5000));
    // a, idle longest, was told why; b still has its slot.
    auto lost = (*a)->call(ping, 5000);
    ASSERT_FALSE(lost);
    EXPECT_NE(lost.error().message.find("closed the connection: idle for "), std::string::npos) << lost.error().message;
    EXPECT_NE(lost.error().message.find("--idle-timeout 2 s"), std::string::npos) << lost.error().message;
    EXPECT_TRUE((*b)->call(ping, 5000)) << agent.proc->log();
}

TEST(AgentBounds, StdioAnswersEveryRequestItReadBeforeEndOfInput)
{
    const std::string dir = makeTempDir("rdtscope-agent-stdio");
    // The whole conversation written at once, then end of file: preamble, Hello, OpenSource, three Pings and an
    // AdvanceTo beyond the bound.
    std::vector<std::uint8_t> bytes;
    const auto pre = encodePreamble();
    bytes.insert(bytes.end(), pre.begin(), pre.end());
    FrameEncoder enc;
    auto append = [&](const pb::Envelope& env) {
        std::string body;
        env.SerializeToString(&body);
        enc.append({ reinterpret_cast<const std::uint8_t*>(body.data()), body.size() }, false, bytes);
    };
    pb::Envelope hello;
    *hello.mutable_hello() = makeHello("script", "test");
    append(hello);
    std::uint64_t id = 1;
    pb::Envelope open;
    open.mutable_request()->set_id(id++);
    open.mutable_request()->mutable_open_source()->set_source("sim");
    open.mutable_request()->mutable_open_source()->set_open_rdt(true);
    append(open);
    for (int i = 0; i < 3; ++i) {
        pb::Envelope ping;
        ping.mutable_request()->set_id(id++);
        ping.mutable_request()->mutable_ping()->set_payload("p" + std::to_string(i));
        append(ping);
    }
    pb::Envelope tooFar;
    tooFar.mutable_request()->set_id(id++);
    *tooFar.mutable_request() = advanceTo(std::numeric_limits<std::uint64_t>::max());
    tooFar.mutable_request()->set_id(id - 1);
    append(tooFar);
    {
        std::ofstream in(dir + "/in", std::ios::binary);
        in.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = run(
        { "sh", "-c",
            std::string("exec '") + RDTSCOPE_AGENT + "' --stdio --no-polkit <'" + dir + "/in' >'" + dir + "/out'" },
        30, true);
    std::printf("--stdio with its input at end of file: exit %d after %.3f s\n", r.exitCode, secondsSince(t0));
    EXPECT_EQ(r.exitCode, 0) << r.err;

    // Read back everything the agent wrote.
    ConnectionOptions co;
    co.peerName = "the agent";
    Connection conn(UniqueFd(::open((dir + "/out").c_str(), O_RDONLY | O_CLOEXEC)),
        UniqueFd(::open("/dev/null", O_WRONLY | O_CLOEXEC)), co, 0);
    std::vector<Incoming> in;
    for (int i = 0; i < 1000 && !conn.peerClosed(); ++i) {
        auto st = conn.readAvailable(in, 1);
        ASSERT_TRUE(st) << st.error().toString();
    }
    EXPECT_EQ(conn.peerPreambleVersion(), kProtocolVersion);
    bool welcomed = false;
    std::map<std::uint64_t, pb::Response> answers;
    for (const auto& m : in) {
        if (m.envelope.has_welcome()) welcomed = m.envelope.welcome().accepted();
        if (m.envelope.has_response()) answers[m.envelope.response().id()] = m.envelope.response();
    }
    EXPECT_TRUE(welcomed);
    ASSERT_EQ(answers.size(), id - 1) << r.err;
    EXPECT_TRUE(answers[1].has_source_opened()) << answers[1].DebugString();
    for (std::uint64_t k = 2; k <= 4; ++k)
        EXPECT_EQ(answers[k].pong().payload(), "p" + std::to_string(k - 2));
    EXPECT_TRUE(answers[5].has_error());
    EXPECT_NE(answers[5].error().message().find("at most 3600 s"), std::string::npos);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

TEST(AgentBounds, WorkBoundsNameTheirLimit)
{
    const std::uint64_t now = 5'000'000'000;
    EXPECT_TRUE(agent::checkWorkBounds(advanceTo(now + agent::kMaxAdvanceNs), now));
    EXPECT_TRUE(agent::checkWorkBounds(advanceTo(1), now)) << "the past is a no-op";
    EXPECT_TRUE(agent::checkWorkBounds(advanceTo(std::numeric_limits<std::uint64_t>::max()), std::nullopt))
        << "a real source's AdvanceTo is a no-op";
    auto st = agent::checkWorkBounds(advanceTo(now + agent::kMaxAdvanceNs + 1), now);
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("at most 3600 s"), std::string::npos);
    pb::Request pump;
    pump.mutable_start_pmu()->set_simulated(true);
    pump.mutable_start_pmu()->set_sim_cycles_per_pump(agent::kMaxPumpCycles);
    EXPECT_TRUE(agent::checkWorkBounds(pump, now));
    pump.mutable_start_pmu()->set_sim_cycles_per_pump(agent::kMaxPumpCycles + 1);
    st = agent::checkWorkBounds(pump, now);
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("(10^7)"), std::string::npos);
    pb::Request experiment;
    for (int i = 0; i <= agent::kMaxExperimentGroups; ++i)
        experiment.mutable_experiment()->add_groups("g");
    st = agent::checkWorkBounds(experiment, now);
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("at most 4096"), std::string::npos);
    pb::Request report;
    report.mutable_pmu_report()->set_top_n(agent::kMaxReportRows + 1);
    EXPECT_FALSE(agent::checkWorkBounds(report, now));
}
