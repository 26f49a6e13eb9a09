// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <string>

namespace rdt::protocol {

/// Where an agent is: `ssh://[USER@]HOST[:PORT]`, `unix:PATH` or `local` (started with pkexec).
struct AgentUrl {
    enum class Kind { Ssh, Unix, Local };
    Kind kind = Kind::Local;
    std::string user; ///< ssh only; empty = ssh's default
    std::string host; ///< ssh only
    int port = 0; ///< ssh only; 0 = ssh's default
    std::string path; ///< unix only

    /// "root@srv:2222", "unix:/run/rdtscope.sock", "local": for title bars and messages.
    std::string display() const;
    /// The host name shown in the GUI's title bar ("srv", "localhost").
    std::string hostLabel() const;
};

/// Parses and validates an agent address. Host and user names are checked so that they can never be taken
/// for an ssh option (a leading '-') or carry shell characters.
Result<AgentUrl> parseAgentUrl(const std::string& text);

} // namespace rdt::protocol
