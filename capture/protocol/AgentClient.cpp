// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentClient.h"

#include "Handshake.h"
#include "TransportDiagnosis.h"
#include "UnixSocket.h"
#include "core/Time.h"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <poll.h>
#include <sstream>
#include <unistd.h>

namespace rdt::protocol {

namespace {
std::string shellQuote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string thisHost()
{
    char buf[HOST_NAME_MAX + 1] = {};
    ::gethostname(buf, sizeof buf - 1);
    return buf;
}

std::string localAgentPath(const ClientOptions& o)
{
    if (!o.localAgent.empty()) return o.localAgent;
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
    for (const auto& candidate : { self / "../agent/rdtscope-agent", self / "../../capture/agent/rdtscope-agent",
             self / "../libexec/rdtscope/rdtscope-agent" })
        if (std::filesystem::exists(candidate, ec)) return std::filesystem::weakly_canonical(candidate, ec).string();
    return "/usr/libexec/rdtscope/rdtscope-agent";
}
}

std::vector<std::string> sshCommandFromEnvironment()
{
    std::vector<std::string> cmd;
    if (const char* env = std::getenv("RDTSCOPE_SSH_COMMAND")) {
        std::istringstream in(env);
        for (std::string w; in >> w;)
            cmd.push_back(w);
    }
    if (cmd.empty()) cmd.push_back("ssh");
    return cmd;
}

std::vector<std::string> sshArguments(const AgentUrl& url, const ClientOptions& o)
{
    std::vector<std::string> a = o.sshCommand.empty() ? std::vector<std::string> { "ssh" } : o.sshCommand;
    // -T: no terminal (a byte stream, not a tty); -e none: no escape character in the data.
    a.insert(a.end(), { "-T", "-e", "none", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3" });
    if (o.noPrompts) a.insert(a.end(), { "-o", "BatchMode=yes" });
    if (url.port) a.insert(a.end(), { "-p", std::to_string(url.port) });
    if (!url.user.empty()) a.insert(a.end(), { "-l", url.user });
    a.push_back("--");
    a.push_back(url.host);
    // The remote command runs in the user's login shell; wrap it in sh so any shell runs it the same way.
    std::string script;
    if (!o.remoteAgent.empty()) {
        script = "exec " + shellQuote(o.remoteAgent) + " --stdio";
    } else {
        script = "for a in rdtscope-agent /usr/local/libexec/rdtscope/rdtscope-agent "
                 "/usr/libexec/rdtscope/rdtscope-agent; do command -v \"$a\" >/dev/null 2>&1 && exec \"$a\" --stdio; "
                 "done; echo 'rdtscope-agent: not found' >&2; exit 127";
    }
    a.push_back("sh -c " + shellQuote(script));
    return a;
}

std::string AgentClient::agentName() const
{
    return m_url.kind == AgentUrl::Kind::Ssh ? "the agent on " + m_url.display() : "the agent at " + m_url.display();
}

Result<std::unique_ptr<AgentClient>> AgentClient::connect(const AgentUrl& url, const ClientOptions& options)
{
    std::unique_ptr<AgentClient> c(new AgentClient);
    c->m_url = url;
    c->m_opt = options;
    ConnectionOptions co;
    co.peerName = c->agentName();
    const std::uint64_t now = monotonicNs();
    if (url.kind == AgentUrl::Kind::Unix) {
        auto fd = connectUnix(url.path);
        if (!fd) return fd.error();
        c->m_conn = std::make_unique<Connection>(std::move(*fd), UniqueFd {}, co, now);
    } else {
        const auto argv = url.kind == AgentUrl::Kind::Ssh
            ? sshArguments(url, options)
            : std::vector<std::string> { "pkexec", localAgentPath(options), "--stdio" };
        auto child = ChildProcess::spawn(argv);
        if (!child) return child.error();
        c->m_child = std::move(*child);
        c->m_conn = std::make_unique<Connection>(c->m_child->takeStdout(), c->m_child->takeStdin(), co, now);
    }
    if (auto st = c->handshake(options.connectTimeoutMs); !st) return st.error();
    return c;
}

Result<std::unique_ptr<AgentClient>> AgentClient::overSocket(
    UniqueFd socket, const std::string& name, const ClientOptions& options)
{
    std::unique_ptr<AgentClient> c(new AgentClient);
    c->m_url.kind = AgentUrl::Kind::Unix;
    c->m_url.path = name;
    c->m_opt = options;
    ConnectionOptions co;
    co.peerName = c->agentName();
    c->m_conn = std::make_unique<Connection>(std::move(socket), UniqueFd {}, co, monotonicNs());
    if (auto st = c->handshake(options.connectTimeoutMs); !st) return st.error();
    return c;
}

Error AgentClient::failure(const Error& e)
{
    if (!m_broken) {
        int code = -1, signal = 0;
        std::string err;
        if (m_child) {
            m_conn.reset(); // close our ends so a waiting ssh sees end of file
            m_child->waitExit(2000);
            code = m_child->exitCode();
            signal = m_child->termSignal();
            err = m_child->stderrText();
        }
        m_broken = m_child ? diagnoseTransportFailure(m_url, err, code, e, signal) : e;
    }
    return *m_broken;
}

Status AgentClient::handshake(int timeoutMs)
{
    pb::Envelope hello;
    *hello.mutable_hello() = makeHello(m_opt.software, thisHost());
    if (auto st = m_conn->send(hello); !st) return failure(st.error());
    const std::uint64_t deadline = monotonicNs() + static_cast<std::uint64_t>(timeoutMs) * 1'000'000;
    std::vector<Incoming> in;
    while (monotonicNs() < deadline) {
        // A refusing agent sends its Welcome and closes at once: look at what arrived before at the close.
        const auto pumped = pump(200);
        for (auto it = m_events.begin(); it != m_events.end(); ++it) {
            if (!it->envelope.has_welcome()) continue;
            m_welcome = it->envelope.welcome();
            m_events.erase(it);
            if (auto st = checkWelcome(m_welcome, agentName()); !st) {
                m_broken = st.error();
                return st;
            }
            if (!pumped) return pumped.error();
            return {};
        }
        if (!pumped) return pumped.error();
    }
    return failure(makeError("no answer from " + agentName() + " within " + std::to_string(timeoutMs / 1000) + " s",
        "check that the host is reachable and that ssh does not wait for a password or passphrase"));
}

Status AgentClient::pump(int timeoutMs)
{
    if (m_broken) return *m_broken;
    if (!m_conn) return failure(makeError("the connection is closed"));
    pollfd fds[3] = { { m_conn->readFd(), POLLIN, 0 }, { m_conn->writeFd(), 0, 0 }, { -1, POLLIN, 0 } };
    if (m_conn->wantWrite()) fds[1].events = POLLOUT;
    if (m_child && m_child->stderrFd() >= 0) fds[2].fd = m_child->stderrFd();
    ::poll(fds, 3, timeoutMs);
    if (m_child) m_child->collectStderr();
    const std::uint64_t now = monotonicNs();
    std::vector<Incoming> in;
    if (auto st = m_conn->readAvailable(in, now); !st) return failure(st.error());
    for (auto& m : in) {
        const auto& env = m.envelope;
        if (env.has_heartbeat()) continue;
        if (env.has_goodbye())
            return failure(makeError(agentName() + " closed the connection: " + env.goodbye().reason()));
        if (env.has_response()) {
            m_responses[env.response().id()] = env.response();
            continue;
        }
        m_events.push_back(std::move(m));
    }
    if (m_conn->peerClosed()) return failure(makeError(agentName() + " closed the connection"));
    if (auto st = m_conn->flush(now); !st) return failure(st.error());
    if (auto st = m_conn->tick(now); !st) return failure(st.error());
    return {};
}

Result<pb::Response> AgentClient::call(pb::Request request, int timeoutMs)
{
    auto r = exchange(std::move(request), timeoutMs);
    if (r && r->has_error()) return Error { r->error().code(), r->error().message(), r->error().advice() };
    return r;
}

Result<pb::Response> AgentClient::exchange(pb::Request request, int timeoutMs)
{
    if (m_broken) return *m_broken;
    const std::uint64_t id = m_nextId++;
    request.set_id(id);
    pb::Envelope env;
    *env.mutable_request() = std::move(request);
    if (auto st = m_conn->send(env); !st) return failure(st.error());
    const std::uint64_t deadline = monotonicNs() + static_cast<std::uint64_t>(timeoutMs) * 1'000'000;
    for (;;) {
        if (auto it = m_responses.find(id); it != m_responses.end()) {
            pb::Response r = std::move(it->second);
            m_responses.erase(it);
            return r;
        }
        if (monotonicNs() >= deadline)
            return makeError(agentName() + " did not answer request " + std::to_string(id) + " within "
                + std::to_string(timeoutMs / 1000) + " s");
        if (auto st = pump(50); !st) return st.error();
    }
}

Result<std::optional<Incoming>> AgentClient::nextEvent(int timeoutMs)
{
    const std::uint64_t deadline = monotonicNs() + static_cast<std::uint64_t>(std::max(timeoutMs, 0)) * 1'000'000;
    for (;;) {
        if (!m_events.empty()) {
            Incoming e = std::move(m_events.front());
            m_events.pop_front();
            return std::optional(std::move(e));
        }
        const std::uint64_t now = monotonicNs();
        const auto waitMs
            = static_cast<int>(std::min<std::uint64_t>((deadline - std::min(deadline, now)) / 1'000'000, 200));
        if (auto st = pump(waitMs); !st) return st.error();
        if (m_events.empty() && monotonicNs() >= deadline) return std::optional<Incoming> {};
    }
}

void AgentClient::close(const std::string& reason)
{
    if (m_conn && !m_broken) {
        pb::Envelope bye;
        bye.mutable_goodbye()->set_reason(reason);
        if (m_conn->send(bye)) (void)m_conn->drain(1000);
    }
    m_conn.reset();
    if (m_child) m_child->terminate(2000);
    if (!m_broken) m_broken = makeError("the connection to " + agentName() + " is closed");
}

AgentClient::~AgentClient()
{
    close("client exit");
}

} // namespace rdt::protocol
