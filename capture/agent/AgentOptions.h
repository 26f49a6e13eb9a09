// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <string>
#include <vector>

namespace rdt::agent {

/// rdtscope-agent's command line.
struct AgentOptions {
    bool stdio = false; ///< --stdio: one client on fds 0 and 1 (ssh, pkexec)
    std::string listenPath; ///< --listen unix:PATH
    bool systemdSocket = false; ///< started by a systemd .socket unit (LISTEN_FDS=1): listen on fd 3
    std::string allowGroup = "rdtscope"; ///< --allow-group NAME (unix socket peers)
    bool restoreOnExit = false; ///< --restore-on-exit: undo this connection's allocation changes when it ends
    bool noPolkit = false; ///< --no-polkit: skip the per-action polkit checks (docs/PROTOCOL.md)
    int maxClients = 16; ///< --max-clients N
    bool help = false;
};

/// Parses argv (without argv[0]); an Error names the bad option and the usage.
Result<AgentOptions> parseAgentOptions(const std::vector<std::string>& args, bool listenFdsFromSystemd);

const char* agentUsage();

} // namespace rdt::agent
