// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent behind a real OpenSSH server on 127.0.0.1 (tests/agent/sshd-sandbox): the client starts the
// system ssh, which runs the agent on the "remote" side. Failures are checked for their message and fix.
#include "../rdt/TestTree.h"
#include "AgentTestHelpers.h"
#include "rdt/Schemata.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace rdt::test;

namespace {
SshSandbox* g_sandbox = nullptr;

class SshEnvironment : public ::testing::Environment {
public:
    void SetUp() override { g_sandbox = new SshSandbox; }
    void TearDown() override
    {
        delete g_sandbox;
        g_sandbox = nullptr;
    }
};
const auto* g_env = ::testing::AddGlobalTestEnvironment(new SshEnvironment);

std::string url()
{
    return "ssh://root@127.0.0.1:" + std::to_string(g_sandbox->port);
}

CommandOutput probe(const std::vector<std::string>& extra, const std::string& sshCommand = {})
{
    std::vector<std::string> argv { "env",
        "RDTSCOPE_SSH_COMMAND=" + (sshCommand.empty() ? g_sandbox->sshCommand : sshCommand), RDTSCOPE_AGENT_PROBE,
        url() };
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run(argv, 60);
}
}

TEST(AgentOverSsh, SandboxStarted)
{
    ASSERT_TRUE(g_sandbox->ok()) << "sshd-sandbox failed:\n" << g_sandbox->startOutput;
}

TEST(AgentOverSsh, PingsTheAgentFoundOnTheRemotePath)
{
    ASSERT_TRUE(g_sandbox->ok());
    const auto r = probe({ "--pings", "20" });
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("ok "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("uid 0"), std::string::npos) << "logged in as root: " << r.out;
}

TEST(AgentOverSsh, MissingAgentSaysSoWithTheFix)
{
    ASSERT_TRUE(g_sandbox->ok());
    const auto r = probe({ "--agent", "/nonexistent/rdtscope-agent" });
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("rdtscope-agent is not installed on 127.0.0.1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--agent PATH"), std::string::npos) << r.out;
}

TEST(AgentOverSsh, RefusedHostKeySaysSoWithTheFix)
{
    ASSERT_TRUE(g_sandbox->ok());
    const std::string emptyKnownHosts = g_sandbox->dir + "/empty_known_hosts";
    std::FILE* f = std::fopen(emptyKnownHosts.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
    const auto r = probe({}, g_sandbox->sshCommand + " -o UserKnownHostsFile=" + emptyKnownHosts);
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("ssh refused the host key of 127.0.0.1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("accept the host key"), std::string::npos) << r.out;
}

TEST(AgentOverSsh, UnknownUserIsAnAuthenticationFailure)
{
    ASSERT_TRUE(g_sandbox->ok());
    std::vector<std::string> argv { "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_AGENT_PROBE,
        "ssh://nosuchuser@127.0.0.1:" + std::to_string(g_sandbox->port) };
    const auto r = run(argv, 60);
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("ssh could not log in"), std::string::npos) << r.out;
}

TEST(AgentOverSsh, NewerAgentRefusesThisClientAndSaysWhichSideToUpdate)
{
    ASSERT_TRUE(g_sandbox->ok());
    const auto r = probe({ "--agent", RDTSCOPE_FAKE_AGENT });
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("refused the connection: protocol version mismatch: the client (agent_probe) speaks 1, "
                         "this agent (fake rdtscope-agent) speaks 2"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("update the client"), std::string::npos) << r.out;
}

// The "Done when": the same monitor command, locally and through the agent behind a real sshd, prints
// the same header and rows. The simulated machine is deterministic (same scenario, same simulated times), so the
// CSV must be identical byte for byte; stderr differs only by the line naming the agent.
TEST(AgentOverSsh, CliMonitorThroughSshPrintsWhatTheLocalCommandPrints)
{
    ASSERT_TRUE(g_sandbox->ok());
    const std::vector<std::string> monitor { "monitor", "--source", "sim", "--duration", "5", "--csv" };
    std::vector<std::string> localArgv { RDTSCOPE_CLI };
    localArgv.insert(localArgv.end(), monitor.begin(), monitor.end());
    std::vector<std::string> remoteArgv { "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI,
        "--connect", url() };
    remoteArgv.insert(remoteArgv.end(), monitor.begin(), monitor.end());
    const auto mine = run(localArgv, 60, true);
    const auto theirs = run(remoteArgv, 60, true);
    ASSERT_EQ(mine.exitCode, 0) << mine.err;
    ASSERT_EQ(theirs.exitCode, 0) << theirs.err;
    const std::string header = "time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps\n";
    ASSERT_EQ(theirs.out.substr(0, header.size()), header) << theirs.out;
    // 5 print intervals x 3 groups (default, victim, streamer) on the simulated machine's one L3 domain.
    EXPECT_EQ(std::count(theirs.out.begin(), theirs.out.end(), '\n'), 16) << theirs.out;
    EXPECT_NE(theirs.out.find("\n5.000,streamer,0,"), std::string::npos) << theirs.out;
    EXPECT_EQ(theirs.out, mine.out);
    const std::string agentLine = theirs.err.substr(0, theirs.err.find('\n') + 1);
    EXPECT_EQ(agentLine.rfind("agent: rdtscope-agent ", 0), 0u) << theirs.err;
    EXPECT_NE(agentLine.find("(uid 0) via " + url()), std::string::npos) << theirs.err;
    EXPECT_EQ(theirs.err.substr(agentLine.size()), mine.err);
    EXPECT_NE(theirs.err.find("note: all values above are simulated"), std::string::npos) << theirs.err;
}

// rdtscope-cli --connect ssh://... pmu: the capture (here the simulated PMU, which runs anywhere) runs in the agent
// behind sshd, its functions are named there, and the CLI prints the tables as locally.
TEST(AgentOverSsh, CliPmuThroughSshRunsInTheAgent)
{
    ASSERT_TRUE(g_sandbox->ok());
    const auto r = run({ "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI, "--connect", url(),
                           "pmu", "lbr", "--source", "sim", "--duration", "1", "--top", "3" },
        60, true);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.rfind("SIMULATED: ", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("probe_table"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("agent: rdtscope-agent "), std::string::npos) << r.err;
}

// The advice for a missing agent names --agent PATH, and the CLI takes it.
TEST(AgentOverSsh, CliNamesAndTakesTheAgentsPath)
{
    ASSERT_TRUE(g_sandbox->ok());
    auto cli = [&](const std::string& agent) {
        return run({ "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI, "--connect", url(),
                       "--agent", agent, "groups", "list", "--source", "sim" },
            60, true);
    };
    const auto missing = cli("/nonexistent/rdtscope-agent");
    EXPECT_EQ(missing.exitCode, 1) << missing.err;
    EXPECT_NE(missing.err.find("rdtscope-agent is not installed on 127.0.0.1"), std::string::npos) << missing.err;
    EXPECT_NE(missing.err.find("--agent PATH"), std::string::npos) << missing.err;
    const auto named = cli(RDTSCOPE_AGENT);
    EXPECT_EQ(named.exitCode, 0) << named.err;
    EXPECT_NE(named.out.find("victim"), std::string::npos) << named.out;
    const auto alone = run({ RDTSCOPE_CLI, "--agent", RDTSCOPE_AGENT, "groups", "list" }, 30, true);
    EXPECT_EQ(alone.exitCode, 2) << alone.err;
    EXPECT_NE(alone.err.find("it goes with --connect URL"), std::string::npos) << alone.err;
}

TEST(AgentOverSsh, CommandsThatDoNotRunThroughTheAgentSaySo)
{
    ASSERT_TRUE(g_sandbox->ok());
    const auto r = run({ "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI, "--connect", url(),
                           "replay", "x.rdts" },
        60);
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_NE(r.out.find("'replay' does not run through an agent"), std::string::npos) << r.out;
}

// alloc and groups through the agent on a temp copy of a fixture resctrl tree (the "remote" side is this machine):
// the same output as the local commands on the same tree, and the change lands in the tree's schemata file.
TEST(AgentOverSsh, AllocAndGroupsThroughSshWorkOnTheRemoteTree)
{
    ASSERT_TRUE(g_sandbox->ok());
    rdt::test::TempTree tree("resctrl.full");
    const std::string source = "resctrl:" + tree.root();
    auto both = [&](std::vector<std::string> args) {
        args.insert(args.end(), { "--source", source });
        std::vector<std::string> localArgv { RDTSCOPE_CLI };
        localArgv.insert(localArgv.end(), args.begin(), args.end());
        std::vector<std::string> remoteArgv { "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI,
            "--connect", url() };
        remoteArgv.insert(remoteArgv.end(), args.begin(), args.end());
        return std::pair { run(localArgv, 60, true), run(remoteArgv, 60, true) };
    };
    const auto [showLocal, showRemote] = both({ "alloc", "show" });
    ASSERT_EQ(showRemote.exitCode, 0) << showRemote.err;
    EXPECT_NE(showRemote.out.find("Guaranteed"), std::string::npos) << showRemote.out;
    EXPECT_NE(showRemote.out.find("L3:0=fffff;1=fffff;2=fffff;3=fffff"), std::string::npos) << showRemote.out;
    EXPECT_EQ(showRemote.out, showLocal.out);
    const auto [listLocal, listRemote] = both({ "groups", "list" });
    ASSERT_EQ(listRemote.exitCode, 0) << listRemote.err;
    EXPECT_EQ(listRemote.out.rfind("GROUP ", 0), 0u) << listRemote.out;
    EXPECT_EQ(listRemote.out, listLocal.out);

    std::vector<std::string> set { "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI, "--connect",
        url(), "alloc", "set", "--group", "Guaranteed", "L3:0=ff;1=ff", "--source", source };
    const auto applied = run(set, 60, true);
    ASSERT_EQ(applied.exitCode, 0) << applied.err;
    EXPECT_NE(applied.out.find("ok     L3:0 fffff -> ff"), std::string::npos) << applied.out;
    EXPECT_NE(tree.read("Guaranteed/schemata").find("L3:0=ff;1=ff;2=fffff;3=fffff"), std::string::npos)
        << tree.read("Guaranteed/schemata");
    // A refused change comes back with the engine's reason and exit code, and the tree is as it was.
    const std::string before = tree.read("Guaranteed/schemata");
    set[9] = "L3:0=0";
    const auto refused = run(set, 60, true);
    EXPECT_EQ(refused.exitCode, 1) << refused.err;
    EXPECT_NE(refused.err.find("rdtscope-cli alloc set: "), std::string::npos) << refused.err;
    EXPECT_EQ(tree.read("Guaranteed/schemata"), before);
}

// The agent survives its client, and the client its connection: killing the ssh process under a running
// `monitor --connect` ends the monitor with a message naming the lost agent (not a hang, not a loop of poll
// errors), and the agent on the "server" sees end of file and exits.
TEST(AgentOverSsh, KillingSshEndsTheMonitorWithAMessageAndTheAgentExits)
{
    ASSERT_TRUE(g_sandbox->ok());
    const std::string log = g_sandbox->dir + "/monitor.log";
    BackgroundProcess cli("/usr/bin/env",
        { "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI, "--connect", url(), "monitor", "--source",
            "sim", "--interval", "200" },
        log);
    // Bounded: 20 s for the connection and the first poll.
    for (int i = 0; i < 200 && cli.log().find("source: ") == std::string::npos; ++i)
        ::usleep(100000);
    ASSERT_NE(cli.log().find("source: "), std::string::npos) << cli.log();
    std::vector<pid_t> agents;
    for (int i = 0; i < 50 && agents.empty(); ++i, ::usleep(100000))
        agents = processesOf(RDTSCOPE_AGENT, "--stdio");
    EXPECT_FALSE(agents.empty()) << "the agent started by sshd was not found";
    const auto ssh = childrenOf(cli.pid());
    ASSERT_EQ(ssh.size(), 1u) << "the monitor should have one child, its ssh";
    ASSERT_EQ(::kill(ssh[0], SIGKILL), 0);
    const int code = cli.waitExit(15000);
    EXPECT_EQ(code, 1) << cli.log();
    EXPECT_NE(cli.log().find("rdtscope-cli monitor: lost the agent on root@127.0.0.1"), std::string::npos) << cli.log();
    EXPECT_EQ(cli.log().find("poll failed"), std::string::npos) << cli.log();
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i, ::usleep(100000)) {
        gone = true;
        for (pid_t a : agents)
            gone = gone && ::kill(a, 0) != 0;
    }
    EXPECT_TRUE(gone) << "rdtscope-agent --stdio still runs 10 s after its ssh session was killed";
}

// record --connect: the session is written here from the agent's engine; the simulator is deterministic, so its
// samples, allocation values, memberships and markers equal a local recording's, and summary says the same
// apart from the file name and the start time.
TEST(AgentOverSsh, RecordThroughSshWritesTheSameSessionAsLocally)
{
    ASSERT_TRUE(g_sandbox->ok());
    const std::string localFile = g_sandbox->dir + "/local.rdts";
    const std::string remoteFile = g_sandbox->dir + "/remote.rdts";
    const std::vector<std::string> record { "record", "--source", "sim", "--duration", "3", "-o" };
    std::vector<std::string> localArgv { RDTSCOPE_CLI };
    localArgv.insert(localArgv.end(), record.begin(), record.end());
    localArgv.push_back(localFile);
    std::vector<std::string> remoteArgv { "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI,
        "--connect", url() };
    remoteArgv.insert(remoteArgv.end(), record.begin(), record.end());
    remoteArgv.push_back(remoteFile);
    const auto mine = run(localArgv, 60, true);
    const auto theirs = run(remoteArgv, 60, true);
    ASSERT_EQ(mine.exitCode, 0) << mine.err;
    ASSERT_EQ(theirs.exitCode, 0) << theirs.err;
    EXPECT_NE(theirs.err.find("recorded 93 samples, 3.000 s of simulated time"), std::string::npos) << theirs.err;
    const auto csvLocal = run({ RDTSCOPE_CLI, "export", localFile, "--csv" }, 60, true);
    const auto csvRemote = run({ RDTSCOPE_CLI, "export", remoteFile, "--csv" }, 60, true);
    ASSERT_EQ(csvRemote.exitCode, 0) << csvRemote.err;
    EXPECT_GT(std::count(csvRemote.out.begin(), csvRemote.out.end(), '\n'), 90) << csvRemote.out;
    EXPECT_EQ(csvRemote.out, csvLocal.out);
    auto summary = [](const std::string& file) {
        std::string out = run({ RDTSCOPE_CLI, "summary", file }, 60, true).out;
        std::string kept;
        std::istringstream in(out);
        for (std::string line; std::getline(in, line);)
            if (line.rfind("session:", 0) != 0 && line.rfind("recorded:", 0) != 0) kept += line + "\n";
        return kept;
    };
    const auto summaryRemote = summary(remoteFile);
    EXPECT_NE(summaryRemote.find("kernel:      Linux "), std::string::npos) << summaryRemote;
    EXPECT_NE(summaryRemote.find("[SIMULATED data"), std::string::npos) << summaryRemote;
    EXPECT_NE(summaryRemote.find("markers:     9"), std::string::npos) << summaryRemote;
    EXPECT_EQ(summaryRemote, summary(localFile));
}

// Killing ssh at any moment of an `alloc set --connect` (during the login, the handshake, the command, or after
// it) leaves the remote tree's schemata exactly as before or exactly as after. The four-domain transaction takes
// well under a millisecond on a tmpfs tree, so the kills land before or after it (the count printed says how
// many ended after the agent applied the change); that a vanished client cannot cut a transaction in half rests
// on the agent finishing (or rolling back) a command before it reads its input again.
TEST(AgentOverSsh, KillingSshDuringAnAllocationLeavesTheTreeBeforeOrAfterNeverBetween)
{
    ASSERT_TRUE(g_sandbox->ok());
    rdt::test::TempTree tree("resctrl.full");
    auto l3 = [&] {
        auto s = rdt::Schemata::parse(tree.read("Guaranteed/schemata"));
        std::vector<std::string> v;
        for (int d = 0; d < 4; ++d)
            v.push_back(s ? s->value("L3", d).value_or("?") : "unreadable");
        return v;
    };
    int completed = 0, interrupted = 0, interruptedAfterTheChange = 0;
    std::chrono::duration<double> wholeCommand {};
    for (int i = 0; i < 12; ++i) {
        const auto before = l3();
        const std::string mask = before[0] == "ff" ? "fff00" : "ff";
        const std::string log = g_sandbox->dir + "/alloc" + std::to_string(i) + ".log";
        BackgroundProcess cli("/usr/bin/env",
            { "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI, "--connect", url(), "alloc", "set",
                "--group", "Guaranteed", "L3:0=" + mask + ";1=" + mask + ";2=" + mask + ";3=" + mask, "--source",
                "resctrl:" + tree.root() },
            log);
        const auto start = std::chrono::steady_clock::now();
        // Iteration 0 runs to its end and measures how long a whole command takes (T); the others kill ssh at
        // 0.3 T to 1.07 T, so kills land before, during and after the agent's work on this machine.
        if (i > 0) {
            std::this_thread::sleep_for(wholeCommand * (0.3 + 0.07 * (i - 1)));
            for (pid_t ssh : childrenOf(cli.pid()))
                ::kill(ssh, SIGKILL);
        }
        const int code = cli.waitExit(15000);
        if (i == 0) {
            ASSERT_EQ(code, 0) << cli.log();
            wholeCommand = std::chrono::steady_clock::now() - start;
        }
        code == 0 ? ++completed : ++interrupted;
        // The agent must be gone before the tree is judged (bounded: 10 s).
        for (int w = 0; w < 100 && !processesOf(RDTSCOPE_AGENT, "--stdio").empty(); ++w)
            ::usleep(100000);
        const auto after = l3();
        const std::vector<std::string> changed(4, mask);
        if (code != 0 && after == changed) ++interruptedAfterTheChange;
        EXPECT_TRUE(after == before || after == changed)
            << "iteration " << i << ": L3 " << after[0] << ";" << after[1] << ";" << after[2] << ";" << after[3]
            << " is neither the old nor the new mask " << mask << "\n"
            << cli.log();
    }
    std::printf("alloc set through ssh (%.0f ms) killed at 0.3-1.07 of that: %d completed, %d interrupted (%d of them "
                "after the agent "
                "had applied the change)\n",
        wholeCommand.count() * 1000, completed, interrupted, interruptedAfterTheChange);
    EXPECT_GT(interrupted, 0) << "no kill landed before the command finished: the test proved nothing";
}

// Issue #48's Done-when over --connect: the blame with probes runs in the agent behind ssh (the simulator is the
// agent's), names the streamer with a causal verdict and restores what it fenced; on a sim-msr machine whose
// registers are a file, every register the probes wrote holds its old value afterwards (read before and after).
TEST(AgentOverSsh, BlameWithProbesThroughSshNamesTheStreamerAndRestores)
{
    ASSERT_TRUE(g_sandbox->ok());
    const auto r = run(
        { "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI, "--connect", url(), "blame", "--victim",
            "victim", "--source", "sim", "--scenario", "noisy-neighbour", "--duration", "15", "--probe" },
        120, true);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("   1  streamer             cache"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("probe: fencing streamer (L3:0=1) gave victim back"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(": culprit"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("probe: streamer: restore wrote L3:0=7ff"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("every probed allocation reads back as before"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("all values above are simulated"), std::string::npos) << r.err;

    const std::string dir = g_sandbox->dir + "/blame-msr";
    const std::string source = "sim-msr:" + dir;
    const auto viaAgent = [&](std::vector<std::string> args) {
        std::vector<std::string> argv { "env", "RDTSCOPE_SSH_COMMAND=" + g_sandbox->sshCommand, RDTSCOPE_CLI,
            "--connect", url() };
        argv.insert(argv.end(), args.begin(), args.end());
        return run(argv, 120, true);
    };
    const auto shown = viaAgent({ "alloc", "show", "--source", source }); // programs the machine
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    const auto registers = [&] {
        // "CPU MSR VALUE" lines; the file's order is not part of the state.
        std::ifstream in(dir + "/msrs");
        std::set<std::string> lines;
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line[0] != '#') lines.insert(line);
        return lines;
    };
    const auto before = registers();
    ASSERT_EQ(before.count("0 0xc91 0x7ff"), 1u) << "IA32_L3_QOS_MASK_1 is in the file";
    const auto probed = viaAgent({ "blame", "--victim", "victim", "--duration", "4", "--probe", "--source", source });
    ASSERT_EQ(probed.exitCode, 0) << probed.out << probed.err;
    EXPECT_NE(probed.err.find("fence wrote L3:0=1"), std::string::npos) << probed.err;
    EXPECT_EQ(registers(), before);
}
