// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent --metrics under hostile use (README.md, "Fleets"): files that are not what they claim to be are
// refused at start (a directory as --web-config once started the endpoint without TLS or auth), and idle or
// trickling connections on loopback neither hold the endpoint nor keep a scrape waiting. Every loop is bounded.
#include "FleetHelpers.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <chrono>
#include <crypt.h>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace rdt;
using namespace rdt::test;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The agent started with extra options; its exit code and output (bounded: 20 s).
CommandOutput startWith(const std::vector<std::string>& extra)
{
    std::vector<std::string> argv { RDTSCOPE_AGENT, "--source", "sim", "--metrics", "127.0.0.1:0" };
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run(argv, 20);
}

/// A TCP connection to 127.0.0.1:port (blocking connect; loopback answers at once).
int connectLoopback(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
    if (fd >= 0) ::close(fd);
    return -1;
}

/// True once the server closed the connection (end of file or a reset), without blocking.
bool closedByServer(int fd)
{
    char c;
    const ssize_t n = ::recv(fd, &c, 1, MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

} // namespace

TEST(MetricsHostile, WebConfigAndDashboardMustBeSmallRegularFilesAndTheDashboardADashboard)
{
    const std::string dir = makeTempDir("rdtscope-metrics-hostile");
    // A directory: before, the endpoint started with neither TLS nor basic auth.
    auto r = startWith({ "--web-config", dir });
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("web configuration " + dir + " is not a regular file"), std::string::npos) << r.out;
    r = startWith({ "--web-config", "/dev/zero" });
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("/dev/zero is not a regular file"), std::string::npos) << r.out;
    // A FIFO nobody writes: refused without waiting for a writer.
    const std::string fifo = dir + "/web.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto t0 = std::chrono::steady_clock::now();
    r = startWith({ "--web-config", fifo });
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("is not a regular file"), std::string::npos) << r.out;
    EXPECT_LT(secondsSince(t0), 10.0);
    std::ofstream(dir + "/big.yml") << std::string(70 * 1024, '#');
    r = startWith({ "--web-config", dir + "/big.yml" });
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("is larger than 64 KiB"), std::string::npos) << r.out;

    // bcrypt cost 31 (a check would take days): refused at start.
    char salt[64] = {};
    ASSERT_NE(crypt_gensalt_rn("$2b$", 31, nullptr, 0, salt, sizeof salt), nullptr);
    std::ofstream(dir + "/cost31.yml") << "basic_auth_users:\n  prometheus: '" << salt
                                       << "OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO'\n";
    r = startWith({ "--web-config", dir + "/cost31.yml" });
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("has bcrypt cost 31; rdtscope-agent accepts 4 to 14"), std::string::npos) << r.out;

    // --dashboard: a readable file that is not a dashboard is never served.
    for (const std::string& notDashboard : { std::string("/etc/passwd"), std::string("/dev/zero"), dir }) {
        r = startWith({ "--dashboard", notDashboard });
        EXPECT_EQ(r.exitCode, 1) << notDashboard << ": " << r.out;
        EXPECT_NE(r.out.find("--dashboard: "), std::string::npos) << r.out;
    }
    std::ofstream(dir + "/other.json") << R"({"apiVersion": "v1", "kind": "Pod"})";
    r = startWith({ "--dashboard", dir + "/other.json" });
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("is JSON but no Grafana dashboard"), std::string::npos) << r.out;
    r = startWith({ "--dashboard", "/etc/passwd" });
    EXPECT_NE(r.out.find("is not JSON"), std::string::npos) << r.out;
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

TEST(MetricsHostile, AScrapeIsServedWithinTwoSecondsWhile200ConnectionsIdle)
{
    const std::string dir = makeTempDir("rdtscope-metrics-idle");
    MetricsAgent agent({ "--source", "sim" }, dir, "agent");
    ASSERT_TRUE(agent.ok()) << agent.log();
    std::vector<int> idle;
    for (int i = 0; i < 200; ++i)
        if (const int fd = connectLoopback(agent.port); fd >= 0) idle.push_back(fd);
    ASSERT_EQ(idle.size(), 200u);
    ::usleep(200000);
    const auto t0 = std::chrono::steady_clock::now();
    const auto reply = httpGet(agent.port, "/metrics");
    const double took = secondsSince(t0);
    std::printf("scrape with 200 idle connections open: HTTP %d after %.3f s\n", reply.status, took);
    EXPECT_EQ(reply.status, 200);
    EXPECT_NE(reply.body.find("rdtscope_"), std::string::npos);
    EXPECT_LT(took, 2.0);
    for (const int fd : idle)
        ::close(fd);
    ::kill(agent.process->pid(), SIGTERM);
    EXPECT_EQ(agent.process->waitExit(10000), 0) << agent.log();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

TEST(MetricsHostile, SlowHeaderClientsAreCutOffAndDoNotDelayAScrape)
{
    const std::string dir = makeTempDir("rdtscope-metrics-slow");
    MetricsAgent agent({ "--source", "sim" }, dir, "agent");
    ASSERT_TRUE(agent.ok()) << agent.log();
    // 50 clients that send a request line and then one header line a second, never the blank line.
    std::vector<int> slow;
    for (int i = 0; i < 50; ++i)
        if (const int fd = connectLoopback(agent.port); fd >= 0) slow.push_back(fd);
    ASSERT_EQ(slow.size(), 50u);
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<double> closedAt(slow.size(), -1);
    double scrapeTook = -1;
    int scrapeStatus = 0;
    for (int second = 0; second < 9; ++second) { // 9 s at most
        for (std::size_t i = 0; i < slow.size(); ++i) {
            if (closedAt[i] >= 0) continue;
            const std::string line
                = second == 0 ? "GET /metrics HTTP/1.1\r\n" : "X-Slow: " + std::to_string(second) + "\r\n";
            (void)::send(slow[i], line.data(), line.size(), MSG_NOSIGNAL);
        }
        if (second == 2) {
            const auto s0 = std::chrono::steady_clock::now();
            const auto reply = httpGet(agent.port, "/metrics");
            scrapeTook = secondsSince(s0);
            scrapeStatus = reply.status;
        }
        for (int tick = 0; tick < 10; ++tick) {
            ::usleep(100000);
            for (std::size_t i = 0; i < slow.size(); ++i)
                if (closedAt[i] < 0 && closedByServer(slow[i])) closedAt[i] = secondsSince(t0);
        }
    }
    std::printf("scrape among 50 trickling clients: HTTP %d after %.3f s\n", scrapeStatus, scrapeTook);
    EXPECT_EQ(scrapeStatus, 200);
    EXPECT_LT(scrapeTook, 2.0);
    double latest = 0;
    for (std::size_t i = 0; i < slow.size(); ++i) {
        EXPECT_GE(closedAt[i], 0) << "trickling client " << i << " was never cut off";
        latest = std::max(latest, closedAt[i]);
        ::close(slow[i]);
    }
    std::printf("the last trickling client was cut off after %.1f s (head timeout 5 s)\n", latest);
    EXPECT_LT(latest, 7.0);
    ::kill(agent.process->pid(), SIGTERM);
    EXPECT_EQ(agent.process->waitExit(10000), 0) << agent.log();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}
