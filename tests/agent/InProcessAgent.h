// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The agent loop (AgentServer::serveStdio with a ServiceHandler) on a thread with one end of a socketpair, for the
// agent tests that drive it through RemoteEngine from the other end.
#include "agent/AgentServer.h"
#include "agent/ServiceHandler.h"
#include "protocol/AgentClient.h"
#include "remote/RemoteEngine.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace rdt::engine {

/// An agent on a thread, serving one client on a socketpair; joined when the client has gone.
class InProcessAgent {
public:
    InProcessAgent(bool restoreOnExit = false, std::uint64_t silenceLimitNs = 15'000'000'000)
    {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return;
        m_clientFd = UniqueFd(fds[0]);
        agent::AgentContext ctx;
        ctx.identity.software = "rdtscope-agent test";
        ctx.identity.hostname = "testhost";
        ctx.identity.capabilities = { "zstd" };
        ctx.restoreOnExit = restoreOnExit;
        ctx.silenceLimitNs = silenceLimitNs;
        ctx.log = [this](const std::string& line) {
            std::lock_guard lock(m_logMutex);
            m_log += line + "\n";
        };
        m_thread = std::thread([ctx = std::move(ctx), fd = fds[1]]() mutable {
            agent::AgentServer server(std::move(ctx), agent::makeServiceHandler);
            server.serveStdio(UniqueFd(::dup(fd)), UniqueFd(fd));
        });
    }
    ~InProcessAgent()
    {
        if (m_thread.joinable()) m_thread.join();
    }
    std::unique_ptr<protocol::AgentClient> client()
    {
        protocol::ClientOptions o;
        o.software = "test client";
        o.connectTimeoutMs = 10000;
        auto c = protocol::AgentClient::overSocket(std::move(m_clientFd), "socketpair", o);
        EXPECT_TRUE(c) << (c ? "" : c.error().toString());
        return c ? std::move(*c) : nullptr;
    }
    std::unique_ptr<remote::RemoteEngine> engine(
        const std::string& source, const std::string& scenario = "noisy-neighbour", const std::string& preset = "")
    {
        ServiceOptions o;
        o.rdt.spec = source;
        o.rdt.scenario = scenario;
        o.rdt.simPreset = preset;
        auto c = client();
        if (!c) return nullptr;
        auto e = remote::RemoteEngine::open(std::move(c), o);
        EXPECT_TRUE(e) << (e ? "" : e.error().toString());
        return e ? std::move(*e) : nullptr;
    }
    std::string log()
    {
        std::lock_guard lock(m_logMutex);
        return m_log;
    }

private:
    UniqueFd m_clientFd;
    std::thread m_thread;
    std::mutex m_logMutex;
    std::string m_log;
};

} // namespace rdt::engine
