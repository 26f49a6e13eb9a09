// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AgentOptions.h"
#include "ClientSession.h"

#include <memory>
#include <vector>

namespace rdt::agent {

/// The agent's single-threaded event loop: poll(2) over the listening socket and every client's descriptors,
/// with a 50 ms tick for heartbeats and forwarding engine events. One client's failure (garbage, a flood, an
/// oversized frame, a vanished peer) ends that client only.
class AgentServer {
public:
    AgentServer(AgentContext context, ClientSession::HandlerFactory factory);

    /// Serves one client on the given descriptors (--stdio) until it goes or stop() is called.
    int serveStdio(UniqueFd in, UniqueFd out);
    /// Serves clients on a listening socket until stop() is called.
    int serveListener(UniqueFd listener, int maxClients);
    /// Asks the loop to end (async-signal-safe): every client gets a Goodbye and its cleanup.
    static void requestStop();

private:
    void loop(int listenFd, int maxClients, bool untilLastClient);
    void accept(int listenFd, int maxClients);

    AgentContext m_ctx;
    ClientSession::HandlerFactory m_factory;
    std::vector<std::unique_ptr<ClientSession>> m_sessions;
    int m_nextId = 1;
};

} // namespace rdt::agent
