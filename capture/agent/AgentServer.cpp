// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentServer.h"

#include "core/Time.h"
#include "protocol/Handshake.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rdt::agent {

namespace {
volatile std::sig_atomic_t g_stop = 0;
constexpr int kTickMs = 50;
/// At a stop, goodbyes are written for this long, then every worker gets the rest of the second to end.
constexpr std::uint64_t kGoodbyeNs = 300'000'000;
constexpr std::uint64_t kStopNs = 900'000'000;

std::string seconds(std::uint64_t ns)
{
    return std::to_string(ns / 1'000'000'000) + " s";
}
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
    const auto now = monotonicNs();
    auto conn = std::make_unique<protocol::Connection>(std::move(in), std::move(out), co, now);
    m_sessions.push_back(
        std::make_unique<ClientSession>(m_nextId++, std::move(conn), std::nullopt, m_ctx, m_factory, now));
    loop(-1, 1, true);
    return 0;
}

int AgentServer::serveListener(UniqueFd listener, int maxClients)
{
    (void)protocol::makeNonBlocking(listener.get());
    loop(listener.get(), maxClients, false);
    return 0;
}

bool AgentServer::freeIdleSlot(int maxClients, std::uint64_t nowNs)
{
    ClientSession* oldest = nullptr;
    std::uint64_t oldestSince = 0;
    for (const auto& s : m_sessions) {
        const auto since = s->idleSinceNs();
        if (!since || nowNs - *since < m_ctx.idleLimitNs) continue;
        if (!oldest || *since < oldestSince) {
            oldest = s.get();
            oldestSince = *since;
        }
    }
    if (!oldest) return false;
    const std::string why = "idle for " + seconds(nowNs - oldestSince) + " while all " + std::to_string(maxClients)
        + " client slots were taken: a client that sends no request for --idle-timeout " + seconds(m_ctx.idleLimitNs)
        + " gives its slot to a new one";
    m_ctx.log(oldest->name() + ": dropped, " + why);
    oldest->beginShutdown(why);
    return true;
}

void AgentServer::accept(int listenFd, int maxClients, std::uint64_t nowNs)
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
        auto conn = std::make_unique<protocol::Connection>(std::move(fd), UniqueFd {}, co, nowNs);
        const auto serving
            = std::count_if(m_sessions.begin(), m_sessions.end(), [](const auto& s) { return !s->closing(); });
        auto session = std::make_unique<ClientSession>(m_nextId++, std::move(conn), *peer, m_ctx, m_factory, nowNs);
        if (serving >= maxClients && !freeIdleSlot(maxClients, nowNs)) {
            // The preamble is already queued; a refusing Welcome follows without reading a Hello. The session only
            // writes it and waits (at most a second) for the client to close: the loop never waits for it.
            session->refuse("the agent already serves " + std::to_string(maxClients) + " clients (--max-clients "
                    + std::to_string(maxClients) + ") and none has been idle for --idle-timeout "
                    + seconds(m_ctx.idleLimitNs),
                "close another rdtscope window, or start the agent with a larger --max-clients or a shorter "
                "--idle-timeout");
            m_ctx.log("refused " + peer->userName + " (pid " + std::to_string(peer->pid) + "): too many clients");
            m_sessions.push_back(std::move(session));
            continue;
        }
        m_sessions.push_back(std::move(session));
        m_ctx.log(m_sessions.back()->name() + ": connected");
    }
}

void AgentServer::reap()
{
    for (auto& s : m_sessions)
        if (s->finished())
            if (auto worker = s->releaseWorker()) m_retiring.push_back(std::move(worker));
    std::erase_if(m_sessions, [](const auto& s) { return s->finished(); });
    // An ended worker's thread has returned: destroying it joins at once.
    std::erase_if(m_retiring, [](const auto& w) { return w->ended(); });
}

void AgentServer::loop(int listenFd, int maxClients, bool untilLastClient)
{
    std::vector<pollfd> fds;
    while (!g_stop) {
        fds.clear();
        if (listenFd >= 0) fds.push_back({ listenFd, POLLIN, 0 });
        for (const auto& s : m_sessions)
            s->addPollFds(fds);
        for (const auto& w : m_retiring)
            fds.push_back({ w->doneFd(), POLLIN, 0 });
        const int n = ::poll(fds.data(), fds.size(), kTickMs);
        if (n < 0 && errno != EINTR) {
            m_ctx.log(errnoError(errno, "poll failed").toString());
            break;
        }
        const std::uint64_t now = monotonicNs();
        std::size_t k = listenFd >= 0 ? 1 : 0;
        const std::size_t existing = m_sessions.size();
        // Every session is ticked on every wakeup: its worker's answers and its engine's events go out there.
        for (std::size_t i = 0; i < existing; ++i, k += 4)
            m_sessions[i]->onPolled(&fds[k], now);
        for (std::size_t i = 0; i < m_retiring.size(); ++i, ++k)
            if (fds[k].revents & POLLIN) {
                std::uint64_t count = 0;
                (void)!::read(fds[k].fd, &count, sizeof count);
            }
        if (listenFd >= 0 && (fds[0].revents & POLLIN)) accept(listenFd, maxClients, now);
        reap();
        if (untilLastClient && m_sessions.empty() && m_retiring.empty()) return;
    }
    stopAll();
}

void AgentServer::stopAll()
{
    const std::uint64_t start = monotonicNs();
    for (auto& s : m_sessions)
        s->beginShutdown("the agent is stopping");
    // The goodbyes are written for a bounded time, all clients at once (one that does not read holds up nobody).
    std::vector<pollfd> fds;
    for (std::uint64_t now = start; now - start < kGoodbyeNs; now = monotonicNs()) {
        fds.clear();
        for (const auto& s : m_sessions)
            if (!s->finished() && s->connection().wantWrite()) fds.push_back({ s->connection().writeFd(), POLLOUT, 0 });
        if (fds.empty()) break;
        (void)::poll(fds.data(), fds.size(), 20);
        for (auto& s : m_sessions)
            if (!s->finished()) (void)s->connection().flush(monotonicNs());
    }
    for (auto& s : m_sessions)
        s->finishNow("the agent is stopping");
    reap();
    // Every worker now cancels its command at the next slice and runs its cleanup (restores).
    while (!m_retiring.empty() && monotonicNs() - start < kStopNs) {
        ::usleep(10'000);
        std::erase_if(m_retiring, [](const auto& w) { return w->ended(); });
    }
    for (auto& w : m_retiring) {
        m_ctx.log("a client's command did not stop within a second of the stop; the agent exits without its cleanup");
        ++m_leftRunning;
        (void)w.release(); // still running: never destroyed under its thread
    }
    m_retiring.clear();
}

} // namespace rdt::agent
