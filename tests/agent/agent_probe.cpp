// SPDX-License-Identifier: GPL-3.0-or-later
// Test client: connects to an agent (any URL form), pings it, prints "ok HOST" or the error and its advice.
//   agent_probe URL [--agent REMOTE_PATH] [--pings N]
// Exit 0 ok, 1 the connection or a ping failed.
#include "protocol/AgentClient.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv)
{
    using namespace rdt::protocol;
    if (argc < 2) {
        std::fprintf(stderr, "usage: agent_probe URL [--agent PATH] [--pings N]\n");
        return 2;
    }
    auto url = parseAgentUrl(argv[1]);
    if (!url) {
        std::printf("error: %s\n", url.error().toString().c_str());
        return 1;
    }
    ClientOptions o;
    o.software = "agent_probe";
    o.sshCommand = sshCommandFromEnvironment();
    o.noPrompts = true;
    o.connectTimeoutMs = 20000;
    int pings = 1;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--agent")) o.remoteAgent = argv[i + 1];
        if (!std::strcmp(argv[i], "--pings")) pings = std::atoi(argv[i + 1]);
    }
    auto client = AgentClient::connect(*url, o);
    if (!client) {
        std::printf("error: %s\nadvice: %s\n", client.error().message.c_str(), client.error().advice.c_str());
        return 1;
    }
    for (int i = 0; i < pings; ++i) {
        rdtscope::agent::v1::Request req;
        req.mutable_ping()->set_payload("p" + std::to_string(i));
        auto r = (*client)->call(req, 10000);
        if (!r || r->pong().payload() != "p" + std::to_string(i)) {
            std::printf("error: ping %d: %s\n", i, r ? "wrong payload" : r.error().toString().c_str());
            return 1;
        }
    }
    std::printf("ok %s uid %u\n", (*client)->welcome().hostname().c_str(), (*client)->welcome().uid());
    return 0;
}
