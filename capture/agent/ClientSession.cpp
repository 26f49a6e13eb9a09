// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClientSession.h"

namespace rdt::agent {

ClientSession::ClientSession(int id, std::unique_ptr<protocol::Connection> connection,
    std::optional<protocol::PeerCredentials> peer, const AgentContext& context, HandlerFactory factory)
    : m_id(id)
    , m_conn(std::move(connection))
    , m_peer(std::move(peer))
    , m_ctx(context)
    , m_factory(std::move(factory))
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
    if (m_handler) {
        m_handler->end(why);
        m_handler.reset();
    }
    m_ctx.log(m_name + ": closed (" + why + "; " + std::to_string(m_conn->stats().bytesIn) + " bytes in, "
        + std::to_string(m_conn->stats().bytesOut) + " out, " + std::to_string(m_conn->stats().batchesCoalesced)
        + " batches coalesced)");
}

void ClientSession::shutdown(const std::string& reason)
{
    if (m_finished) return;
    pb::Envelope bye;
    bye.mutable_goodbye()->set_reason(reason);
    if (m_conn->send(bye)) (void)m_conn->drain(500);
    finish(reason);
}

void ClientSession::onHello(const pb::Hello& hello)
{
    pb::Envelope env;
    if (m_peer && m_ctx.allowedGid) {
        if (auto st = protocol::checkPeer(*m_peer, *m_ctx.allowedGid, m_ctx.allowedGroupName); !st) {
            *env.mutable_welcome() = protocol::refuse(m_ctx.identity, st.error().message, st.error().advice);
            m_ctx.log(m_name + ": refused: " + st.error().message);
            (void)m_conn->send(env);
            m_closing = true;
            return;
        }
    }
    *env.mutable_welcome() = protocol::answerHello(hello, m_ctx.identity, m_ctx.minVersion, m_ctx.maxVersion);
    if (!env.welcome().accepted()) {
        m_ctx.log(m_name + ": refused: " + env.welcome().reason());
        (void)m_conn->send(env);
        m_closing = true;
        return;
    }
    m_ctx.log(m_name + ": " + hello.software() + " from " + hello.client_host() + ", protocol "
        + std::to_string(env.welcome().protocol_version()));
    if (auto st = m_conn->send(env); !st) return fail(st.error().message);
    m_welcomed = true;
    m_handler = m_factory(m_ctx, m_peer);
}

void ClientSession::handle(const protocol::Incoming& message)
{
    const auto& env = message.envelope;
    if (!m_welcomed) {
        if (env.has_hello()) return onHello(env.hello());
        return fail("protocol error: the first message was not Hello");
    }
    if (env.has_heartbeat()) return;
    if (env.has_goodbye()) {
        m_closing = true;
        return finish("goodbye: " + env.goodbye().reason());
    }
    if (env.has_request()) {
        pb::Envelope out;
        auto* response = out.mutable_response();
        response->set_id(env.request().id());
        m_handler->handle(env.request(), *response);
        // Events the command produced (a poll's sample batch) go out before its response, so a client that
        // waits for the response has them too.
        m_handler->forwardEvents(*m_conn);
        if (auto st = m_conn->send(out); !st) return fail(st.error().message);
        return;
    }
    fail("protocol error: unexpected message from the client (field " + std::to_string(env.body_case()) + ")");
}

void ClientSession::onReadable(std::uint64_t nowNs)
{
    if (m_finished || m_closing) return;
    std::vector<protocol::Incoming> in;
    const auto st = m_conn->readAvailable(in, nowNs);
    for (const auto& m : in) {
        if (m_finished || m_closing) break;
        handle(m);
    }
    if (m_finished) return;
    if (!st) return fail(st.error().message);
    if (m_conn->peerClosed() && !m_closing) return finish("the client disconnected");
    onWritable(nowNs);
}

void ClientSession::onWritable(std::uint64_t nowNs)
{
    if (m_finished) return;
    if (auto st = m_conn->flush(nowNs); !st) return fail(st.error().message);
    if (m_closing && !m_conn->wantWrite()) finish("refused");
}

void ClientSession::onTick(std::uint64_t nowNs)
{
    if (m_finished || m_closing) return;
    if (m_handler) m_handler->forwardEvents(*m_conn);
    if (auto st = m_conn->tick(nowNs); !st) return fail(st.error().message);
    onWritable(nowNs);
}

} // namespace rdt::agent
