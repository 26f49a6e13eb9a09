// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AgentOptions.h"
#include "ClientSession.h"

#include <memory>
#include <vector>

namespace rdt::agent {

/// The agent's event loop: poll(2) over the listening socket and every client's descriptors, with a 50 ms tick for
/// heartbeats and forwarding engine events. It never runs a command itself (each client has a RequestWorker), so
/// one client's work never holds up another's answers. One client's failure (garbage, a flood, an oversized
/// frame, a vanished peer) ends that client only.
class AgentServer {
public:
    AgentServer(AgentContext context, ClientSession::HandlerFactory factory);

    /// Serves one client on the given descriptors (--stdio) until it goes or stop() is called.
    int serveStdio(UniqueFd in, UniqueFd out);
    /// Serves clients on a listening socket until stop() is called.
    int serveListener(UniqueFd listener, int maxClients);
    /// Asks the loop to end (async-signal-safe): every client gets a Goodbye and its cleanup, within a second.
    static void requestStop();
    /// Workers that had not ended a second after the stop were left running (their cleanup did not finish); the
    /// caller then exits without running static destructors under them.
    bool leftWorkersRunning() const { return m_leftRunning > 0; }

private:
    void loop(int listenFd, int maxClients, bool untilLastClient);
    void accept(int listenFd, int maxClients, std::uint64_t nowNs);
    /// A slot for a new client when all are taken: the client idle longest, if idle for at least --idle-timeout.
    bool freeIdleSlot(int maxClients, std::uint64_t nowNs);
    /// Moves finished sessions' workers to m_retiring and reaps the workers that ended.
    void reap();
    void stopAll();

    AgentContext m_ctx;
    ClientSession::HandlerFactory m_factory;
    std::vector<std::unique_ptr<ClientSession>> m_sessions;
    std::vector<std::unique_ptr<RequestWorker>> m_retiring; ///< workers of finished sessions, ending
    int m_nextId = 1;
    int m_leftRunning = 0;
};

} // namespace rdt::agent
