// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Authorization.h"
#include "protocol/Connection.h"
#include "protocol/Handshake.h"
#include "protocol/Preamble.h"
#include "protocol/UnixSocket.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

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
};

/// Serves one client's requests. The session owns it and ends it when the client goes.
class RequestHandler {
public:
    virtual ~RequestHandler() = default;
    /// Fills `response` (its id is already set) with the command's result or error.
    virtual void handle(const pb::Request& request, pb::Response& response) = 0;
    /// Forwards what the engine produced since the last call (sample batches, notices) to the client.
    virtual void forwardEvents(protocol::Connection& connection) = 0;
    /// The client is gone or said goodbye: stop captures, reap launched commands, restore when asked.
    virtual void end(const std::string& why) = 0;
    /// A descriptor that becomes readable when the engine has events to forward (so a batch the sampler thread
    /// produced goes out at once, not at the loop's next tick); -1 for none. forwardEvents() re-arms it.
    virtual int wakeFd() const { return -1; }
};

/// One client connection: handshake, dispatch, heartbeats, and the cleanup when it ends for any reason.
class ClientSession {
public:
    /// Makes a session's handler once the client is welcomed; `peer` is the unix-socket peer (none for stdio).
    using HandlerFactory = std::function<std::unique_ptr<RequestHandler>(
        const AgentContext&, const std::optional<protocol::PeerCredentials>& peer)>;

    ClientSession(int id, std::unique_ptr<protocol::Connection> connection,
        std::optional<protocol::PeerCredentials> peer, const AgentContext& context, HandlerFactory factory);
    ~ClientSession();

    protocol::Connection& connection() { return *m_conn; }
    bool finished() const { return m_finished; }
    int wakeFd() const { return m_handler ? m_handler->wakeFd() : -1; }
    const std::string& name() const { return m_name; }

    void onReadable(std::uint64_t nowNs);
    void onWritable(std::uint64_t nowNs);
    void onTick(std::uint64_t nowNs);
    /// Ends the session (agent shutting down): Goodbye to the client, then the handler's cleanup.
    void shutdown(const std::string& reason);

private:
    void handle(const protocol::Incoming& message);
    void onHello(const pb::Hello& hello);
    void fail(const std::string& why);
    void finish(const std::string& why);

    int m_id;
    std::unique_ptr<protocol::Connection> m_conn;
    std::optional<protocol::PeerCredentials> m_peer;
    const AgentContext& m_ctx;
    HandlerFactory m_factory;
    std::unique_ptr<RequestHandler> m_handler;
    std::string m_name;
    bool m_welcomed = false;
    bool m_closing = false; ///< a refusal or goodbye is being flushed; then the session ends
    bool m_finished = false;
};

} // namespace rdt::agent
