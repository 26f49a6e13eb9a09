// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Authorization.h"
#include "RequestHandler.h"
#include "RequestWorker.h"
#include "protocol/Connection.h"
#include "protocol/Handshake.h"
#include "protocol/Preamble.h"
#include "protocol/UnixSocket.h"

#include <functional>
#include <memory>
#include <optional>
#include <poll.h>
#include <string>
#include <vector>

namespace rdt::agent {

namespace pb = rdtscope::agent::v1;

/// What every session of one agent shares.
struct AgentContext {
    protocol::AgentIdentity identity;
    /// Unix-socket peers are checked against this group; stdio peers were authenticated by ssh or pkexec.
    std::optional<gid_t> allowedGid;
    std::string allowedGroupName;
    bool restoreOnExit = false;
    PolkitConfig polkit;
    /// Started by pkexec: the caller's uid (PKEXEC_UID); polkit is asked about the agent's parent, pkexec's caller.
    std::optional<uid_t> pkexecUid;
    /// The protocol versions this agent speaks (tests play older or newer agents by narrowing them).
    std::uint32_t minVersion = protocol::kMinProtocolVersion;
    std::uint32_t maxVersion = protocol::kProtocolVersion;
    std::function<void(const std::string&)> log;
    /// A client silent for longer than this is gone (docs/PROTOCOL.md "Heartbeat and goodbye"; tests shorten it).
    std::uint64_t silenceLimitNs = 15'000'000'000;
    /// A client that sent no request for this long, runs no command and streams nothing gives up its slot when
    /// all slots are taken (--idle-timeout; docs/PROTOCOL.md "Work bounds").
    std::uint64_t idleLimitNs = 300'000'000'000;
};

/// One client connection: handshake, dispatch to the client's worker, heartbeats, and the cleanup when it ends for
/// any reason. Everything here runs on the agent's loop and returns at once; commands run on the RequestWorker.
class ClientSession {
public:
    /// Makes a session's handler once the client is welcomed; `peer` is the unix-socket peer (none for stdio).
    using HandlerFactory = std::function<std::unique_ptr<RequestHandler>(
        const AgentContext&, const std::optional<protocol::PeerCredentials>& peer)>;

    ClientSession(int id, std::unique_ptr<protocol::Connection> connection,
        std::optional<protocol::PeerCredentials> peer, const AgentContext& context, HandlerFactory factory,
        std::uint64_t nowNs);
    ~ClientSession();

    protocol::Connection& connection() { return *m_conn; }
    bool finished() const { return m_finished; }
    /// A refusal or a goodbye is being flushed: the session no longer holds a client slot.
    bool closing() const { return m_closing || m_finished; }
    const std::string& name() const { return m_name; }

    /// Appends this session's descriptors to a poll set: input (until the client closed its end), output (when
    /// something waits), the worker's "command finished" and the engine's "events queued" wake-ups.
    void addPollFds(std::vector<pollfd>& fds) const;
    /// Handles what poll(2) said about the descriptors addPollFds() added at `first`; then ticks the session.
    void onPolled(const pollfd* first, std::uint64_t nowNs);

    /// Since when the client has been idle: welcomed, no request for that long, no command queued, running or
    /// unanswered, and no sampling streaming to it. Empty when it is not idle.
    std::optional<std::uint64_t> idleSinceNs() const;
    /// Ends the session on the agent's behalf: Goodbye { reason } is queued and the running command cancelled;
    /// the session finishes once the goodbye is written (or after a second).
    void beginShutdown(const std::string& reason);
    /// Turns the client away before its Hello (all slots taken): a refusing Welcome, then the session ends.
    void refuse(const std::string& reason, const std::string& advice);
    /// Finishes now, whatever is unwritten (the agent is exiting).
    void finishNow(const std::string& why) { finish(why); }
    /// The finished session's worker, still ending on its own thread; the agent reaps it once ended().
    std::unique_ptr<RequestWorker> releaseWorker() { return std::move(m_worker); }

private:
    void onReadable(std::uint64_t nowNs);
    void onWritable(std::uint64_t nowNs);
    void onTick(std::uint64_t nowNs);
    void handle(const protocol::Incoming& message, std::uint64_t nowNs);
    void onHello(const pb::Hello& hello, std::uint64_t nowNs);
    void sendFinished();
    void fail(const std::string& why);
    void finish(const std::string& why);
    void close(const std::string& why, std::uint64_t nowNs);

    int m_id;
    std::unique_ptr<protocol::Connection> m_conn;
    std::optional<protocol::PeerCredentials> m_peer;
    const AgentContext& m_ctx;
    HandlerFactory m_factory;
    std::unique_ptr<RequestWorker> m_worker;
    std::string m_name;
    bool m_welcomed = false;
    bool m_inputClosed = false; ///< the client closed its end: answer what it asked, then finish
    bool m_closing = false; ///< a refusal or goodbye is being flushed; then the session ends
    bool m_writeShut = false; ///< closing, all written and our end shut: waiting for the client's end of file
    std::string m_closingWhy;
    std::uint64_t m_closingSinceNs = 0;
    std::uint64_t m_lastRequestNs = 0;
    bool m_finished = false;
};

} // namespace rdt::agent
