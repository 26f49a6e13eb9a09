// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent --listen unix:PATH as a separate process: group checks with real credentials (the client runs
// as nobody through setpriv), and hostile clients (floods, oversized frames, garbage, a wrong version, vanishing
// mid-command): the agent keeps serving the others and leaks neither descriptors nor memory.
#include "AgentTestHelpers.h"
#include "protocol/Frame.h"
#include "protocol/Handshake.h"
#include "protocol/Preamble.h"
#include "protocol/UnixSocket.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace rdt;
using namespace rdt::test;
using namespace rdt::protocol;

namespace {
struct SocketAgent {
    std::string dir = makeTempDir("rdtscope-agent-sock");
    std::string path = dir + "/agent.sock";
    std::unique_ptr<BackgroundProcess> proc;
    explicit SocketAgent(const std::string& group = "users")
    {
        proc = std::make_unique<BackgroundProcess>(RDTSCOPE_AGENT,
            std::vector<std::string> { "--listen", "unix:" + path, "--allow-group", group, "--no-polkit" },
            dir + "/agent.log");
        // The socket file appears at bind, with no permissions, before its group and mode are set: wait for
        // the agent's "listening" line, which it writes once the socket is ready (bounded: 10 s).
        for (int i = 0; i < 1000 && proc->log().find("listening on unix:") == std::string::npos; ++i)
            ::usleep(10000);
    }
    ~SocketAgent()
    {
        proc.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

CommandOutput probeAs(const std::string& user, const std::string& group, const std::string& url)
{
    return run({ "setpriv", "--reuid=" + user, "--regid=" + group, "--clear-groups", RDTSCOPE_AGENT_PROBE, url }, 30);
}

std::vector<std::uint8_t> frame(const pb::Envelope& env)
{
    std::string body;
    env.SerializeToString(&body);
    FrameEncoder enc;
    std::vector<std::uint8_t> out;
    enc.append({ reinterpret_cast<const std::uint8_t*>(body.data()), body.size() }, false, out);
    return out;
}

void writeAll(int fd, const std::vector<std::uint8_t>& bytes)
{
    std::size_t off = 0;
    while (off < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
        if (n <= 0) return; // the agent closed on us: that is one of the expected outcomes
        off += static_cast<std::size_t>(n);
    }
}

/// One hostile client; `kind` picks the abuse.
void abuse(const std::string& path, int kind)
{
    auto fd = connectUnix(path);
    if (!fd) return;
    const auto pre = encodePreamble();
    std::vector<std::uint8_t> hello;
    pb::Envelope h;
    *h.mutable_hello() = makeHello("abuser", "test");
    hello = frame(h);
    switch (kind % 5) {
    case 0: { // flood: many requests without reading a single answer
        writeAll(fd->get(), { pre.begin(), pre.end() });
        writeAll(fd->get(), hello);
        pb::Envelope ping;
        ping.mutable_request()->mutable_ping()->set_payload(std::string(512, 'x'));
        std::vector<std::uint8_t> many;
        for (int i = 0; i < 200; ++i) {
            const auto f = frame(ping);
            many.insert(many.end(), f.begin(), f.end());
        }
        writeAll(fd->get(), many);
        break;
    }
    case 1: { // oversized frame header
        writeAll(fd->get(), { pre.begin(), pre.end() });
        writeAll(fd->get(), { 0x7f, 0xff, 0xff, 0xff, 0x00 });
        break;
    }
    case 2: // garbage instead of a preamble
        writeAll(fd->get(), { 'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P', '/', '1', '.', '1', '\r', '\n' });
        break;
    case 3: { // a wrong version
        writeAll(fd->get(), { pre.begin(), pre.end() });
        h.mutable_hello()->set_protocol_version(77);
        h.mutable_hello()->set_min_protocol_version(77);
        writeAll(fd->get(), frame(h));
        break;
    }
    case 4: { // disappears in the middle of a command
        writeAll(fd->get(), { pre.begin(), pre.end() });
        writeAll(fd->get(), hello);
        pb::Envelope ping;
        ping.mutable_request()->set_id(1);
        ping.mutable_request()->mutable_ping();
        auto f = frame(ping);
        f.resize(f.size() - 1);
        writeAll(fd->get(), f);
        break;
    }
    }
    // Close without reading: the agent must cope with unread output and a reset.
}
}

TEST(AgentSocket, RootIsServedAndTheSocketIs0660)
{
    SocketAgent agent;
    struct stat st { };
    ASSERT_EQ(::stat(agent.path.c_str(), &st), 0) << agent.proc->log();
    EXPECT_EQ(st.st_mode & 0777, 0660u);
    EXPECT_EQ(st.st_gid, 100u) << "the socket belongs to the allowed group";
    const auto r = run({ RDTSCOPE_AGENT_PROBE, "unix:" + agent.path }, 30);
    EXPECT_EQ(r.exitCode, 0) << r.out << agent.proc->log();
}

TEST(AgentSocket, PeerOutsideTheGroupIsRefusedByCredentials)
{
    SocketAgent agent;
    ASSERT_TRUE(std::filesystem::exists(agent.path)) << agent.proc->log();
    // Open the file itself to everyone, so that only the agent's SO_PEERCRED check stands in the way.
    ASSERT_EQ(::chmod(agent.path.c_str(), 0666), 0);
    const auto r = probeAs("nobody", "nogroup", "unix:" + agent.path);
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("refused the connection: user nobody (uid 65534) is not in group 'users'"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("usermod -aG users nobody"), std::string::npos) << r.out;
    EXPECT_NE(agent.proc->log().find("refused: user nobody"), std::string::npos) << agent.proc->log();

    const auto member = probeAs("nobody", "users", "unix:" + agent.path);
    EXPECT_EQ(member.exitCode, 0) << "a member of the allowed group is served: " << member.out;
}

TEST(AgentSocket, FileModeKeepsOthersOutWithAClearMessage)
{
    SocketAgent agent;
    ASSERT_TRUE(std::filesystem::exists(agent.path)) << agent.proc->log();
    const auto r = probeAs("nobody", "nogroup", "unix:" + agent.path);
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("not allowed to connect to " + agent.path), std::string::npos) << r.out;
}

TEST(AgentSocket, HostileClientsLeakNothingAndOthersAreStillServed)
{
    SocketAgent agent;
    ASSERT_TRUE(std::filesystem::exists(agent.path)) << agent.proc->log();
    // A well-behaved client stays connected throughout.
    auto good = connectUnix(agent.path);
    ASSERT_TRUE(good.ok());
    for (int i = 0; i < 50; ++i)
        abuse(agent.path, i);
    ::usleep(300000);
    const int fdsBefore = agent.proc->fdCount();
    const long rssBefore = agent.proc->rssKiB();
    for (int i = 0; i < 1000; ++i)
        abuse(agent.path, i);
    // Let the agent notice every closed connection (bounded wait).
    int fdsAfter = 0;
    for (int i = 0; i < 100; ++i) {
        fdsAfter = agent.proc->fdCount();
        if (fdsAfter <= fdsBefore) break;
        ::usleep(50000);
    }
    const long rssAfter = agent.proc->rssKiB();
    std::printf("agent after 1000 hostile clients: %d fds (before %d), RSS %ld KiB (before %ld KiB)\n", fdsAfter,
        fdsBefore, rssAfter, rssBefore);
    EXPECT_LE(fdsAfter, fdsBefore);
    EXPECT_LT(rssAfter - rssBefore, 4096) << "RSS grew by more than 4 MiB";
    const auto log = agent.proc->log();
    EXPECT_NE(log.find("exceeds the limit"), std::string::npos) << "oversized frames are logged";
    EXPECT_NE(log.find("did not answer with the rdtscope protocol but printed: \"GET / HTTP/1.1\""), std::string::npos);
    EXPECT_NE(log.find("protocol version mismatch"), std::string::npos);
    const auto r = run({ RDTSCOPE_AGENT_PROBE, "unix:" + agent.path, "--pings", "10" }, 30);
    EXPECT_EQ(r.exitCode, 0) << r.out;
}

// rdtscope-cli --connect unix:PATH: root gets what the local command prints; a member of the allowed group who is
// not root is served the simulator but may not point the privileged agent at another resctrl tree or a file.
TEST(AgentSocket, CliThroughTheSocketAndWhatAGroupMemberMayAsk)
{
    SocketAgent agent;
    ASSERT_TRUE(std::filesystem::exists(agent.path)) << agent.proc->log();
    const std::vector<std::string> monitor { "monitor", "--source", "sim", "--duration", "2", "--csv" };
    std::vector<std::string> local { RDTSCOPE_CLI };
    local.insert(local.end(), monitor.begin(), monitor.end());
    std::vector<std::string> remote { RDTSCOPE_CLI, "--connect", "unix:" + agent.path };
    remote.insert(remote.end(), monitor.begin(), monitor.end());
    const auto mine = run(local, 60, true);
    const auto theirs = run(remote, 60, true);
    ASSERT_EQ(theirs.exitCode, 0) << theirs.err << agent.proc->log();
    EXPECT_EQ(theirs.out.rfind("time_s,group,domain,", 0), 0u) << theirs.out;
    EXPECT_EQ(theirs.out, mine.out);

    auto asMember = [&](const std::vector<std::string>& args) {
        std::vector<std::string> argv { "setpriv", "--reuid=nobody", "--regid=users", "--clear-groups", RDTSCOPE_CLI,
            "--connect", "unix:" + agent.path };
        argv.insert(argv.end(), args.begin(), args.end());
        return run(argv, 60, true);
    };
    const auto member = asMember({ "groups", "list", "--source", "sim" });
    EXPECT_EQ(member.exitCode, 0) << member.err;
    EXPECT_NE(member.out.find("victim"), std::string::npos) << member.out;
    const auto tree = asMember({ "groups", "list", "--source", "resctrl:/etc" });
    EXPECT_EQ(tree.exitCode, 3) << tree.err;
    EXPECT_NE(tree.err.find("only root may point the agent at a path of its machine"), std::string::npos) << tree.err;
    const auto file = asMember({ "groups", "list", "--source", "sim", "--scenario", "/etc/shadow" });
    EXPECT_EQ(file.exitCode, 1) << file.err;
    EXPECT_NE(file.err.find("built-in scenarios only"), std::string::npos) << file.err;
}

// rdtscope-cli --connect unix:PATH pmu: the capture runs in the agent and prints what the local command prints; a
// group member who is not root may not make the privileged agent launch a command.
TEST(AgentSocket, PmuCapturesThroughTheSocket)
{
    SocketAgent agent;
    ASSERT_TRUE(std::filesystem::exists(agent.path)) << agent.proc->log();
    const std::vector<std::string> lbr { "pmu", "lbr", "--source", "sim", "--duration", "1", "--top", "3" };
    std::vector<std::string> local { RDTSCOPE_CLI };
    local.insert(local.end(), lbr.begin(), lbr.end());
    std::vector<std::string> remote { RDTSCOPE_CLI, "--connect", "unix:" + agent.path };
    remote.insert(remote.end(), lbr.begin(), lbr.end());
    const auto mine = run(local, 60, true);
    const auto theirs = run(remote, 60, true);
    ASSERT_EQ(mine.exitCode, 0) << mine.err;
    ASSERT_EQ(theirs.exitCode, 0) << theirs.err << agent.proc->log();
    // The header and the tables' shape are the local command's (the counts depend on how many slices ran).
    const auto firstLines = [](const std::string& text, int n) {
        std::size_t at = 0;
        for (int i = 0; i < n && at != std::string::npos; ++i)
            at = text.find('\n', at + 1);
        return text.substr(0, at);
    };
    EXPECT_EQ(firstLines(theirs.out, 3), firstLines(mine.out, 3));
    EXPECT_NE(theirs.out.find("probe_table"), std::string::npos) << theirs.out; // the simulated program's names
    EXPECT_NE(theirs.out.find("(simulated data)"), std::string::npos) << theirs.out;
    EXPECT_NE(agent.proc->log().find("started PMU capture"), std::string::npos) << agent.proc->log();

    const auto member
        = run({ "setpriv", "--reuid=nobody", "--regid=users", "--clear-groups", RDTSCOPE_CLI, "--connect",
                  "unix:" + agent.path, "pmu", "lbr", "--source", "perf", "--duration", "1", "--", "/bin/true" },
            60, true);
    EXPECT_NE(member.exitCode, 0);
    EXPECT_NE(member.err.find("only root may make the agent launch a command"), std::string::npos) << member.err;
}

// rdtscope-cli --connect unix:PATH info: the agent's machine in the local command's format (text and JSON); the agent
// here runs on this machine, so everything but the CPUID source line is what the local command prints. Options that
// read this machine are refused with --connect.
TEST(AgentSocket, InfoDescribesTheAgentsMachineInTheLocalFormat)
{
    SocketAgent agent;
    ASSERT_TRUE(std::filesystem::exists(agent.path)) << agent.proc->log();
    const auto mine = run({ RDTSCOPE_CLI, "info" }, 60, true);
    const auto theirs = run({ RDTSCOPE_CLI, "--connect", "unix:" + agent.path, "info" }, 60, true);
    ASSERT_EQ(mine.exitCode, 0) << mine.err;
    ASSERT_EQ(theirs.exitCode, 0) << theirs.err << agent.proc->log();
    const auto firstLine = [](const std::string& t) { return t.substr(0, t.find('\n')); };
    const auto rest = [](const std::string& t) { return t.substr(t.find('\n')); };
    EXPECT_EQ(firstLine(theirs.out).rfind(firstLine(mine.out) + " on ", 0), 0u) << firstLine(theirs.out);
    EXPECT_NE(firstLine(theirs.out).find("(the agent's machine)"), std::string::npos) << theirs.out;
    EXPECT_EQ(rest(theirs.out), rest(mine.out));
    EXPECT_NE(theirs.out.find("\nEnvironment\n"), std::string::npos) << theirs.out;
    EXPECT_NE(theirs.out.find("\nTopology\n"), std::string::npos) << theirs.out;

    const auto json = run({ RDTSCOPE_CLI, "--connect", "unix:" + agent.path, "info", "--json" }, 60, true);
    ASSERT_EQ(json.exitCode, 0) << json.err;
    EXPECT_EQ(json.out.rfind("{\"source\":\"", 0), 0u) << json.out;
    EXPECT_NE(json.out.find("\"capabilities\":["), std::string::npos);

    const auto dump
        = run({ RDTSCOPE_CLI, "--connect", "unix:" + agent.path, "info", "--save-cpuid", "/tmp/x" }, 60, true);
    EXPECT_EQ(dump.exitCode, 2);
    EXPECT_NE(dump.err.find("with --connect the agent describes its own"), std::string::npos) << dump.err;
}

// The blame command through the agent (docs/BLAME.md): the streamer named with a causal verdict and every
// probed allocation read back as before, by the agent's engine.
TEST(AgentSocket, BlameThroughTheSocket)
{
    SocketAgent agent;
    ASSERT_TRUE(std::filesystem::exists(agent.path)) << agent.proc->log();
    const auto r = run({ RDTSCOPE_CLI, "--connect", "unix:" + agent.path, "blame", "--victim", "victim", "--source",
                           "sim", "--scenario", "noisy-neighbour", "--duration", "15", "--probe" },
        120, true);
    ASSERT_EQ(r.exitCode, 0) << r.err << agent.proc->log();
    EXPECT_NE(r.out.find("   1  streamer             cache"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(": culprit"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("every probed allocation reads back as before"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("will not restore"), std::string::npos) << r.err; // the agent holds the experiment bracket
}
