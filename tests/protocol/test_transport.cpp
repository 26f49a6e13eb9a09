// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/AgentClient.h"
#include "protocol/AgentUrl.h"
#include "protocol/ChildProcess.h"
#include "protocol/Connection.h"
#include "protocol/TransportDiagnosis.h"
#include "protocol/UnixSocket.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace rdt::protocol;

TEST(AgentUrl, ParsesTheThreeForms)
{
    auto a = parseAgentUrl("ssh://root@127.0.0.1:2222");
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->kind, AgentUrl::Kind::Ssh);
    EXPECT_EQ(a->user, "root");
    EXPECT_EQ(a->host, "127.0.0.1");
    EXPECT_EQ(a->port, 2222);
    EXPECT_EQ(a->display(), "root@127.0.0.1:2222");

    auto b = parseAgentUrl("ssh://srv.example");
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->user, "");
    EXPECT_EQ(b->port, 0);
    EXPECT_EQ(b->hostLabel(), "srv.example");

    auto v6 = parseAgentUrl("ssh://me@[::1]:22");
    ASSERT_TRUE(v6.ok()) << v6.error().message;
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(v6->port, 22);

    auto u = parseAgentUrl("unix:/run/rdtscope/agent.sock");
    ASSERT_TRUE(u.ok());
    EXPECT_EQ(u->kind, AgentUrl::Kind::Unix);
    EXPECT_EQ(u->path, "/run/rdtscope/agent.sock");

    auto l = parseAgentUrl("local");
    ASSERT_TRUE(l.ok());
    EXPECT_EQ(l->kind, AgentUrl::Kind::Local);
}

TEST(AgentUrl, RejectsWhatCouldBecomeAnSshOptionOrShellText)
{
    for (const char* bad :
        { "ssh://-oProxyCommand=touch%20x", "ssh://-p", "ssh://root;id@h", "ssh://h:0", "ssh://h:65536", "ssh://h:22x",
            "ssh://", "ssh://@h", "ssh://h$(id)", "tcp://h:1", "unix:relative", "unix:", "ssh://[::1", "ssh://h:" }) {
        auto r = parseAgentUrl(bad);
        EXPECT_FALSE(r.ok()) << bad;
        if (!r.ok()) {
            EXPECT_FALSE(r.error().message.empty()) << bad;
        }
    }
}

TEST(AgentClient, SshArgumentsEndOptionsBeforeTheHostAndQuoteTheAgentPath)
{
    auto url = parseAgentUrl("ssh://root@127.0.0.1:2222");
    ASSERT_TRUE(url.ok());
    ClientOptions o;
    o.sshCommand = { "ssh", "-F", "/tmp/cfg" };
    o.remoteAgent = "/opt/it's/rdtscope-agent";
    const auto a = sshArguments(*url, o);
    ASSERT_GE(a.size(), 4u);
    EXPECT_EQ(a[0], "ssh");
    EXPECT_EQ(a[2], "/tmp/cfg");
    const auto dashdash = std::find(a.begin(), a.end(), "--");
    ASSERT_NE(dashdash, a.end());
    EXPECT_EQ(*(dashdash + 1), "127.0.0.1");
    EXPECT_NE(std::find(a.begin(), dashdash, "2222"), dashdash);
    EXPECT_NE(std::find(a.begin(), dashdash, "root"), dashdash);
    EXPECT_EQ(a.back(), "sh -c 'exec '\\''/opt/it'\\''\\'\\'''\\''s/rdtscope-agent'\\'' --stdio'");
}

TEST(TransportDiagnosis, NamesTheCauseAndTheFix)
{
    auto url = parseAgentUrl("ssh://root@srv:2222");
    ASSERT_TRUE(url.ok());
    const rdt::Error closed = rdt::makeError("the agent on root@srv:2222 closed the connection without a word");

    auto hostKey = diagnoseTransportFailure(*url,
        "No ED25519 host key is known for [srv]:2222 and you have requested "
        "strict checking.\r\nHost key verification failed.\r\n",
        255, closed);
    EXPECT_NE(hostKey.message.find("ssh refused the host key of srv"), std::string::npos) << hostKey.message;
    EXPECT_NE(hostKey.advice.find("ssh root@srv:2222"), std::string::npos) << hostKey.advice;

    auto auth = diagnoseTransportFailure(*url, "root@srv: Permission denied (publickey).\n", 255, closed);
    EXPECT_NE(auth.message.find("could not log in"), std::string::npos);
    EXPECT_NE(auth.advice.find("ssh-copy-id"), std::string::npos);

    auto missing = diagnoseTransportFailure(*url, "rdtscope-agent: not found\n", 127, closed);
    EXPECT_NE(missing.message.find("rdtscope-agent is not installed on srv"), std::string::npos);
    EXPECT_NE(missing.advice.find("--agent PATH"), std::string::npos);

    auto unreachable
        = diagnoseTransportFailure(*url, "ssh: connect to host srv port 2222: Connection refused\n", 255, closed);
    EXPECT_NE(unreachable.message.find("could not reach"), std::string::npos);

    auto other = diagnoseTransportFailure(*url, "something odd\n", 3, closed);
    EXPECT_NE(other.message.find("closed the connection without a word (ssh: something odd)"), std::string::npos)
        << other.message;

    // The agent's log comes through the same stderr: named as the agent's, never read as ssh's words.
    const std::string agentLogLine = "2026-12-03 23:54:30 rdtscope-agent[23005]: opened source resctrl\n";
    auto agentLog = diagnoseTransportFailure(*url,
        "2026-12-03 23:54:30 rdtscope-agent[23005]: client 1: rdtscope-cli 0.1.0 from vm, protocol 1\n"
        "2026-12-03 23:54:31 rdtscope-agent[23005]: cannot open /x: No such file or directory\n",
        -1, closed);
    EXPECT_EQ(agentLog.message.find("not installed"), std::string::npos) << agentLog.message;
    EXPECT_EQ(agentLog.message.find("ssh:"), std::string::npos) << agentLog.message;
    EXPECT_NE(agentLog.message.find(
                  "(the agent's last log line: rdtscope-agent[23005]: cannot open /x: No such file or directory)"),
        std::string::npos)
        << agentLog.message;

    // A link that worked and then broke: said as a broken link, not as the stream's words or the agent's last line.
    auto killed = diagnoseTransportFailure(*url, agentLogLine, -1, closed, SIGKILL);
    EXPECT_EQ(killed.message, "the ssh link to root@srv:2222 broke: ssh was ended by signal 9 (SIGKILL)")
        << killed.message;
    EXPECT_NE(killed.advice.find("reconnect"), std::string::npos) << killed.advice;
    auto reset = diagnoseTransportFailure(*url, "client_loop: send disconnect: Broken pipe\n", 255, closed);
    EXPECT_NE(reset.message.find("the ssh link to root@srv:2222 broke: ssh lost its connection (ssh said: client_loop"),
        std::string::npos)
        << reset.message;
    // Not every failure is a broken link: an odd exit without those words keeps the stream's error.
    EXPECT_EQ(other.message.find("link"), std::string::npos) << other.message;
}

TEST(ChildProcess, WritingToATransportThatDiedIsAnErrorNotSigpipe)
{
    // ssh killed or pkexec refused: the client's next write must fail with a message, not raise SIGPIPE, whose
    // default action kills the GUI or the CLI (neither ignores it). `true` exits at once without reading.
    auto previous = std::signal(SIGPIPE, SIG_DFL);
    auto child = ChildProcess::spawn({ "true" });
    ASSERT_TRUE(child.ok()) << child.error().message;
    EXPECT_NE(child->waitExit(10000), -1);
    ConnectionOptions o;
    o.peerName = "the agent on localhost";
    Connection c(child->takeStdout(), child->takeStdin(), o, 1);
    rdt::Status st;
    for (int i = 0; i < 3 && st.ok(); ++i) // the preamble, then a frame: the first write already fails
        st = c.flush(1);
    EXPECT_FALSE(st.ok());
    if (!st.ok()) {
        EXPECT_NE(st.error().message.find("closed the connection"), std::string::npos) << st.error().message;
    }
    std::signal(SIGPIPE, previous);
}

TEST(TransportDiagnosis, PkexecsOwnWordsForConnectLocal)
{
    // What pkexec prints (polkit's src/programs/pkexec.c), each read as its cause; never "ssh said".
    auto url = parseAgentUrl("local");
    ASSERT_TRUE(url.ok());
    const rdt::Error closed = rdt::makeError("the agent on localhost closed the connection without a word");
    auto noBus = diagnoseTransportFailure(*url,
        "Error getting authority: Error initializing authority: Could not connect: No such file or directory\n", 127,
        closed);
    EXPECT_NE(noBus.message.find("pkexec could not reach polkit"), std::string::npos) << noBus.message;
    EXPECT_NE(noBus.message.find("(pkexec said: Error getting authority"), std::string::npos) << noBus.message;
    EXPECT_NE(noBus.advice.find("systemctl start dbus polkit"), std::string::npos) << noBus.advice;
    auto noAgent = diagnoseTransportFailure(
        *url, "Error accessing /opt/x/rdtscope-agent: No such file or directory\n", 127, closed);
    EXPECT_NE(noAgent.message.find("pkexec cannot run the agent"), std::string::npos) << noAgent.message;
    EXPECT_NE(noAgent.advice.find("--agent PATH"), std::string::npos) << noAgent.advice;
    auto refused = diagnoseTransportFailure(*url,
        "Error executing command as another user: Not authorized\n\nThis incident has been reported.\n", 127, closed);
    EXPECT_NE(refused.message.find("polkit did not allow pkexec"), std::string::npos) << refused.message;
    EXPECT_NE(refused.advice.find("rules.d"), std::string::npos) << refused.advice;
    auto dismissed
        = diagnoseTransportFailure(*url, "Error executing command as another user: Request dismissed\n", 126, closed);
    EXPECT_NE(dismissed.message.find("dismissed"), std::string::npos) << dismissed.message;
    for (const auto* e : { &noBus, &noAgent, &refused, &dismissed })
        EXPECT_EQ(e->message.find("ssh"), std::string::npos) << e->message;
}

TEST(UnixSocket, ListensWithMode0660AndRefusesNonMembers)
{
    const auto dir = std::filesystem::temp_directory_path() / ("rdtscope-sock-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "agent.sock").string();
    auto fd = listenUnix(path, static_cast<gid_t>(-1));
    ASSERT_TRUE(fd.ok()) << fd.error().toString();
    struct stat st { };
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0660u);

    auto second = listenUnix(path, static_cast<gid_t>(-1));
    ASSERT_FALSE(second.ok());
    EXPECT_NE(second.error().message.find("already listens"), std::string::npos);

    auto client = connectUnix(path);
    ASSERT_TRUE(client.ok());
    rdt::UniqueFd server(::accept(fd->get(), nullptr, nullptr));
    ASSERT_TRUE(server.valid());
    auto peer = peerCredentials(server.get());
    ASSERT_TRUE(peer.ok());
    EXPECT_EQ(peer->uid, ::getuid());
    EXPECT_EQ(peer->pid, ::getpid());

    PeerCredentials nobody;
    nobody.uid = 65534;
    nobody.gid = 65534;
    nobody.groups = { 100 };
    nobody.userName = "nobody";
    auto refused = checkPeer(nobody, 4242, "rdtscope");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("user nobody (uid 65534) is not in group 'rdtscope'"), std::string::npos);
    EXPECT_NE(refused.error().advice.find("usermod -aG rdtscope nobody"), std::string::npos);
    nobody.groups.push_back(4242);
    EXPECT_TRUE(checkPeer(nobody, 4242, "rdtscope").ok()) << "supplementary membership counts";

    auto gone = connectUnix((dir / "absent.sock").string());
    ASSERT_FALSE(gone.ok());
    EXPECT_NE(gone.error().message.find("no agent listens"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(UnixSocket, KeepsAFileThatIsNotASocket)
{
    const auto path = std::filesystem::temp_directory_path() / ("rdtscope-notsock-" + std::to_string(::getpid()));
    {
        FILE* f = std::fopen(path.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fclose(f);
    }
    auto fd = listenUnix(path.string(), static_cast<gid_t>(-1));
    ASSERT_FALSE(fd.ok());
    EXPECT_TRUE(std::filesystem::exists(path));
    std::filesystem::remove(path);
}
