// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClientSession.h"

#include "core/Time.h"

#include <sys/socket.h>

namespace rdt::agent {

namespace {
/// A refusal or goodbye that the client does not read within this long is given up.
constexpr std::uint64_t kClosingLimitNs = 1'000'000'000;
}

ClientSession::ClientSession(int id, std::unique_ptr<protocol::Connection> connection,
    std::optional<protocol::PeerCredentials> peer, const AgentContext& context, HandlerFactory factory,
    std::uint64_t nowNs)
    : m_id(id)
    , m_conn(std::move(connection))
    , m_peer(std::move(peer))
    , m_ctx(context)
    , m_factory(std::move(factory))
    , m_lastRequestNs(nowNs)
{
    m_name = "client " + std::to_string(id);
    if (m_peer)
        m_name += " (" + m_peer->userName + ", uid " + std::to_string(m_peer->uid) + ", pid "
            + std::to_string(m_peer->pid) + ")";
}

ClientSession::~ClientSession()
{
    if (!m_finished) finish("agent exit");
}

void ClientSession::fail(const std::string& why)
{
    m_ctx.log(m_name + ": " + why);
    finish(why);
}

void ClientSession::finish(const std::string& why)
{
    if (m_finished) return;
    m_finished = true;
    // The worker ends the handler on its own thread (a command may still be stopping); the agent reaps it.
    if (m_worker) m_worker->end(why);
    m_ctx.log(m_name + ": closed (" + why + "; " + std::to_string(m_conn->stats().bytesIn) + " bytes in, "
        + std::to_string(m_conn->stats().bytesOut) + " out, " + std::to_string(m_conn->stats().batchesCoalesced)
        + " batches coalesced)");
}

void ClientSession::close(const std::string& why, std::uint64_t nowNs)
{
    m_closing = true;
    m_closingWhy = why;
    m_closingSinceNs = nowNs;
    if (m_worker) m_worker->end(why);
}

void ClientSession::beginShutdown(const std::string& reason)
{
    if (m_finished || m_closing) return;
    pb::Envelope bye;
    bye.mutable_goodbye()->set_reason(reason);
    (void)m_conn->send(bye);
    close(reason, monotonicNs());
}

void ClientSession::refuse(const std::string& reason, const std::string& advice)
{
    pb::Envelope env;
    *env.mutable_welcome() = protocol::refuse(m_ctx.identity, reason, advice);
    (void)m_conn->send(env);
    close("refused", monotonicNs());
}

void ClientSession::onHello(const pb::Hello& hello, std::uint64_t nowNs)
{
    pb::Envelope env;
    if (m_peer && m_ctx.allowedGid) {
        if (auto st = protocol::checkPeer(*m_peer, *m_ctx.allowedGid, m_ctx.allowedGroupName); !st) {
            *env.mutable_welcome() = protocol::refuse(m_ctx.identity, st.error().message, st.error().advice);
            m_ctx.log(m_name + ": refused: " + st.error().message);
            (void)m_conn->send(env);
            return close("refused", nowNs);
        }
    }
    *env.mutable_welcome() = protocol::answerHello(hello, m_ctx.identity, m_ctx.minVersion, m_ctx.maxVersion);
    if (!env.welcome().accepted()) {
        m_ctx.log(m_name + ": refused: " + env.welcome().reason());
        (void)m_conn->send(env);
        return close("refused", nowNs);
    }
    m_ctx.log(m_name + ": " + hello.software() + " from " + hello.client_host() + ", protocol "
        + std::to_string(env.welcome().protocol_version()));
    if (auto st = m_conn->send(env); !st) return fail(st.error().message);
    m_welcomed = true;
    m_lastRequestNs = nowNs;
    m_worker = std::make_unique<RequestWorker>(m_factory(m_ctx, m_peer));
}

void ClientSession::handle(const protocol::Incoming& message, std::uint64_t nowNs)
{
    const auto& env = message.envelope;
    if (!m_welcomed) {
        if (env.has_hello()) return onHello(env.hello(), nowNs);
        return fail("protocol error: the first message was not Hello");
    }
    if (env.has_heartbeat()) return;
    if (env.has_goodbye()) return finish("goodbye: " + env.goodbye().reason());
    if (env.has_request()) {
        m_lastRequestNs = nowNs;
        m_worker->submit(env.request());
        return;
    }
    fail("protocol error: unexpected message from the client (field " + std::to_string(env.body_case()) + ")");
}

void ClientSession::addPollFds(std::vector<pollfd>& fds) const
{
    fds.push_back({ m_inputClosed || m_finished ? -1 : m_conn->readFd(), POLLIN, 0 });
    fds.push_back({ m_conn->writeFd(), static_cast<short>(m_conn->wantWrite() ? POLLOUT : 0), 0 });
    fds.push_back({ m_worker ? m_worker->doneFd() : -1, POLLIN, 0 }); // -1 is ignored by poll(2)
    // While a command runs the handler is the worker's: its events come with the command's answer, so the
    // engine's wake-up is not polled (it would stay readable and spin the loop).
    fds.push_back({ m_worker && !m_worker->busy() ? m_worker->engineFd() : -1, POLLIN, 0 });
}

void ClientSession::onPolled(const pollfd* first, std::uint64_t nowNs)
{
    if (first[0].revents & (POLLIN | POLLHUP | POLLERR)) onReadable(nowNs);
    if (first[1].revents & (POLLOUT | POLLERR)) onWritable(nowNs);
    // The wake-ups need no handling of their own: the tick takes what the worker finished and the engine queued.
    onTick(nowNs);
}

void ClientSession::onReadable(std::uint64_t nowNs)
{
    if (m_finished || m_inputClosed) return;
    if (m_closing) {
        // What a refused or dropped client still sends is read and dropped until it closes: a unix socket closed
        // with unread input resets the peer, which could then lose the refusal or goodbye before reading it.
        std::vector<protocol::Incoming> ignored;
        if (!m_conn->readAvailable(ignored, nowNs) || m_conn->peerClosed()) finish(m_closingWhy);
        return;
    }
    std::vector<protocol::Incoming> in;
    const auto st = m_conn->readAvailable(in, nowNs);
    for (const auto& m : in) {
        if (m_finished || m_closing) break;
        handle(m, nowNs);
    }
    if (m_finished || m_closing) return;
    if (!st) return fail(st.error().message);
    // The client closed its end (a script's stdin at EOF right after its requests): every request it sent is
    // still answered before the session ends (onTick).
    if (m_conn->peerClosed()) m_inputClosed = true;
}

void ClientSession::onWritable(std::uint64_t nowNs)
{
    if (m_finished) return;
    if (auto st = m_conn->flush(nowNs); !st) return fail(st.error().message);
    // All written: say end of file (sockets; a pipe has nothing to shut) and wait for the client's (onReadable).
    if (m_closing && !m_conn->wantWrite() && !m_writeShut) {
        m_writeShut = true;
        if (::shutdown(m_conn->writeFd(), SHUT_WR) != 0) finish(m_closingWhy);
    }
}

void ClientSession::sendFinished()
{
    std::vector<Outgoing> out;
    m_worker->takeFinished(out);
    m_worker->takeIdleEvents(out);
    for (auto& o : out) {
        if (auto* batch = std::get_if<RdtSampleBatch>(&o)) {
            m_conn->sendSamples(*batch);
        } else if (auto st = m_conn->send(std::get<pb::Envelope>(o)); !st) {
            return fail(st.error().message);
        }
    }
}

void ClientSession::onTick(std::uint64_t nowNs)
{
    if (m_finished) return;
    if (m_closing) {
        onWritable(nowNs);
        if (!m_finished && nowNs - m_closingSinceNs > kClosingLimitNs)
            finish(m_closingWhy + "; the client did not read it");
        return;
    }
    if (m_worker) sendFinished();
    if (m_finished) return;
    if (auto st = m_conn->tick(nowNs); !st) return fail(st.error().message);
    onWritable(nowNs);
    if (!m_finished && m_inputClosed && !(m_worker && m_worker->busy()) && !m_conn->wantWrite())
        finish("the client disconnected");
}

std::optional<std::uint64_t> ClientSession::idleSinceNs() const
{
    if (!m_welcomed || m_closing || m_finished || !m_worker) return std::nullopt;
    if (m_worker->busy() || m_worker->streaming()) return std::nullopt;
    return m_lastRequestNs;
}

} // namespace rdt::agent
