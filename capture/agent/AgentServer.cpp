// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentServer.h"

#include "core/Time.h"
#include "protocol/Handshake.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <poll.h>
#include <sys/socket.h>

namespace rdt::agent {

namespace {
volatile std::sig_atomic_t g_stop = 0;
constexpr int kTickMs = 50;
}

void AgentServer::requestStop()
{
    g_stop = 1;
}

AgentServer::AgentServer(AgentContext context, ClientSession::HandlerFactory factory)
    : m_ctx(std::move(context))
    , m_factory(std::move(factory))
{ }

int AgentServer::serveStdio(UniqueFd in, UniqueFd out)
{
    protocol::ConnectionOptions co;
    co.peerName = "the client";
    co.preambleVersion = m_ctx.maxVersion;
    co.silenceLimitNs = m_ctx.silenceLimitNs;
    auto conn = std::make_unique<protocol::Connection>(std::move(in), std::move(out), co, monotonicNs());
    m_sessions.push_back(std::make_unique<ClientSession>(m_nextId++, std::move(conn), std::nullopt, m_ctx, m_factory));
    loop(-1, 1, true);
    return 0;
}

int AgentServer::serveListener(UniqueFd listener, int maxClients)
{
    (void)protocol::makeNonBlocking(listener.get());
    loop(listener.get(), maxClients, false);
    return 0;
}

void AgentServer::accept(int listenFd, int maxClients)
{
    for (int i = 0; i < 16; ++i) {
        UniqueFd fd(::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
        if (!fd) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                m_ctx.log("accept failed: " + errnoError(errno, "accept").toString());
            return;
        }
        auto peer = protocol::peerCredentials(fd.get());
        if (!peer) {
            m_ctx.log("a connection without credentials was closed: " + peer.error().toString());
            continue;
        }
        protocol::ConnectionOptions co;
        co.peerName = "client " + std::to_string(m_nextId);
        co.preambleVersion = m_ctx.maxVersion;
        co.silenceLimitNs = m_ctx.silenceLimitNs;
        auto conn = std::make_unique<protocol::Connection>(std::move(fd), UniqueFd {}, co, monotonicNs());
        if (static_cast<int>(m_sessions.size()) >= maxClients) {
            // Refuse politely: the preamble is already queued; a refusing Welcome follows without reading a Hello.
            pb::Envelope env;
            *env.mutable_welcome() = protocol::refuse(m_ctx.identity,
                "the agent already serves " + std::to_string(maxClients) + " clients",
                "close another rdtscope window, or start the agent with a larger --max-clients");
            (void)conn->send(env);
            (void)conn->drain(100);
            m_ctx.log("refused " + peer->userName + " (pid " + std::to_string(peer->pid) + "): too many clients");
            continue;
        }
        m_sessions.push_back(
            std::make_unique<ClientSession>(m_nextId++, std::move(conn), std::move(*peer), m_ctx, m_factory));
        m_ctx.log(m_sessions.back()->name() + ": connected");
    }
}

void AgentServer::loop(int listenFd, int maxClients, bool untilLastClient)
{
    std::vector<pollfd> fds;
    while (!g_stop) {
        fds.clear();
        if (listenFd >= 0) fds.push_back({ listenFd, POLLIN, 0 });
        for (const auto& s : m_sessions) {
            auto& c = s->connection();
            fds.push_back({ c.readFd(), POLLIN, 0 });
            fds.push_back({ c.writeFd(), static_cast<short>(c.wantWrite() ? POLLOUT : 0), 0 });
            fds.push_back({ s->wakeFd(), POLLIN, 0 }); // -1 is ignored by poll(2)
        }
        const int n = ::poll(fds.data(), fds.size(), kTickMs);
        if (n < 0 && errno != EINTR) {
            m_ctx.log(errnoError(errno, "poll failed").toString());
            break;
        }
        const std::uint64_t now = monotonicNs();
        std::size_t k = listenFd >= 0 ? 1 : 0;
        const std::size_t existing = m_sessions.size();
        // Every session is ticked on every wakeup: its engine's events (the wake descriptor) are forwarded there.
        for (std::size_t i = 0; i < existing; ++i, k += 3) {
            auto& s = *m_sessions[i];
            if (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) s.onReadable(now);
            if (fds[k + 1].revents & (POLLOUT | POLLERR)) s.onWritable(now);
            s.onTick(now);
        }
        if (listenFd >= 0 && (fds[0].revents & POLLIN)) accept(listenFd, maxClients);
        std::erase_if(m_sessions, [](const auto& s) { return s->finished(); });
        if (untilLastClient && m_sessions.empty()) return;
    }
    for (auto& s : m_sessions)
        s->shutdown("the agent is stopping");
    m_sessions.clear();
}

} // namespace rdt::agent
