// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AgentUrl.h"
#include "core/Error.h"

#include <string>

namespace rdt::protocol {

/// Turns a failed connection into a message with the fix: what ssh or pkexec printed on stderr and how it
/// exited decide between "host key refused", "authentication failed", "host unreachable", "agent not
/// installed" and "authorization dismissed"; otherwise the stream's own error stands, with stderr appended.
/// A link that worked and then broke (the transport killed, ssh's "Connection reset"/"Broken pipe"/"closed by")
/// is said in those words, not as the stream's raw error. `exitCode` is the transport's exit code, or -1 when
/// unknown; `termSignal` the signal that ended it, or 0.
Error diagnoseTransportFailure(
    const AgentUrl& url, const std::string& stderrText, int exitCode, const Error& streamError, int termSignal = 0);

/// A transport's stderr taken apart: the agent's own log lines (which ssh forwards) and everything else.
struct AgentLogSplit {
    std::string transport; ///< what ssh or pkexec printed
    std::string lastAgentLine; ///< the agent's last log line without its time stamp ("rdtscope-agent[7]: ...")
};
AgentLogSplit splitAgentLog(const std::string& stderrText);

/// The last non-empty lines of a child's stderr, joined with " | " (at most `maxChars`).
std::string stderrTail(const std::string& text, std::size_t maxChars = 400);

} // namespace rdt::protocol
