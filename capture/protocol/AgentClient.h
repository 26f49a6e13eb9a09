// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AgentUrl.h"
#include "ChildProcess.h"
#include "Connection.h"
#include "agent.pb.h"
#include "core/Result.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdt::protocol {

struct ClientOptions {
    std::string software = "rdtscope"; ///< "rdtscope-cli 0.1.0", sent in Hello
    /// The agent on the remote host; empty = search PATH, /usr/local/libexec/rdtscope and /usr/libexec/rdtscope.
    std::string remoteAgent;
    /// The ssh client and its options (RDTSCOPE_SSH_COMMAND splits into this): {"ssh"} by default.
    std::vector<std::string> sshCommand { "ssh" };
    /// The local agent pkexec starts; empty = next to this program (build tree) or in libexec (installed).
    std::string localAgent;
    bool noPrompts = false; ///< GUI without a terminal: ssh BatchMode=yes
    int connectTimeoutMs = 30000;
};

/// The client end: starts the transport (ssh, pkexec, or a unix socket), does the handshake, then sends
/// requests and receives responses and events. Single-threaded: call pump() when readFd() is readable, or let
/// call()/nextEvent() wait. The destructor says goodbye and reaps the transport.
class AgentClient {
public:
    static Result<std::unique_ptr<AgentClient>> connect(const AgentUrl& url, const ClientOptions& options);
    /// The handshake over a socket that is already connected to an agent (tests: one end of a socketpair).
    static Result<std::unique_ptr<AgentClient>> overSocket(
        UniqueFd socket, const std::string& name, const ClientOptions& options);
    ~AgentClient();

    const pb::Welcome& welcome() const { return m_welcome; }
    const AgentUrl& url() const { return m_url; }
    /// "the agent on srv" for messages.
    std::string agentName() const;
    int readFd() const { return m_conn ? m_conn->readFd() : -1; }
    const ConnectionStats& stats() const { return m_conn->stats(); }

    /// Sends a request (its id is assigned here) and waits for the response; events that arrive meanwhile are
    /// queued for nextEvent(). A response that carries an engine error comes back as that Error.
    Result<pb::Response> call(pb::Request request, int timeoutMs = 30000);
    /// As call(), but a response that carries an engine error comes back as it is (with its code, notes and any
    /// partial result); only transport failures are an Error.
    Result<pb::Response> exchange(pb::Request request, int timeoutMs = 30000);
    /// The next event (sample batch, notice), waiting up to timeoutMs; std::nullopt on timeout.
    Result<std::optional<Incoming>> nextEvent(int timeoutMs);
    /// Reads, writes and heartbeats once, waiting at most timeoutMs for the descriptor.
    Status pump(int timeoutMs);
    /// Sends Goodbye and closes; later calls fail with "closed".
    void close(const std::string& reason);

private:
    AgentClient() = default;
    Status handshake(int timeoutMs);
    Error failure(const Error& e);

    AgentUrl m_url;
    ClientOptions m_opt;
    std::optional<ChildProcess> m_child;
    std::unique_ptr<Connection> m_conn;
    pb::Welcome m_welcome;
    std::deque<Incoming> m_events;
    std::map<std::uint64_t, pb::Response> m_responses;
    std::uint64_t m_nextId = 1;
    std::optional<Error> m_broken;
};

/// The ssh argument vector for `url` (exposed for tests and for the message that shows what was run).
std::vector<std::string> sshArguments(const AgentUrl& url, const ClientOptions& options);
/// RDTSCOPE_SSH_COMMAND split at blanks, or {"ssh"}.
std::vector<std::string> sshCommandFromEnvironment();

} // namespace rdt::protocol
