// SPDX-License-Identifier: GPL-3.0-or-later
// Test agent that speaks only protocol versions MIN..MAX: plays an older or newer rdtscope-agent on the far end of
// a real ssh connection, so the version-mismatch messages are tested end to end.
//   fake_agent --stdio            speaks only version 2 (one newer than this build)
//   fake_agent MIN MAX --stdio
#include "agent/AgentServer.h"
#include "agent/ServiceHandler.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

int main(int argc, char** argv)
{
    using namespace rdt;
    if (argc != 4 && argc != 2) return 2;
    agent::AgentContext ctx;
    ctx.identity.software = "fake rdtscope-agent";
    ctx.identity.hostname = "fakehost";
    ctx.minVersion = argc == 4 ? static_cast<std::uint32_t>(std::atoi(argv[1])) : 2;
    ctx.maxVersion = argc == 4 ? static_cast<std::uint32_t>(std::atoi(argv[2])) : 2;
    ctx.log = [](const std::string& line) { std::fprintf(stderr, "fake_agent: %s\n", line.c_str()); };
    agent::AgentServer server(std::move(ctx), agent::makeServiceHandler);
    return server.serveStdio(UniqueFd(::dup(0)), UniqueFd(::dup(1)));
}
