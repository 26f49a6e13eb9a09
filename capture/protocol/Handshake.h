// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agent.pb.h"
#include "core/Result.h"

#include <string>
#include <vector>

namespace rdt::protocol {

namespace pb = rdtscope::agent::v1;

/// What an agent says about itself in its Welcome.
struct AgentIdentity {
    std::string software; ///< "rdtscope-agent 0.1.0"
    std::string hostname;
    std::vector<std::string> capabilities;
    std::uint32_t maxFrameBytes = 0;
    std::uint32_t heartbeatMs = 0;
    std::uint32_t uid = 0;
};

/// The client's Hello (it speaks kMinProtocolVersion..kProtocolVersion).
pb::Hello makeHello(const std::string& software, const std::string& clientHost);

/// The agent's answer: the highest version both speak, or a refusal that names both ranges and the fix.
/// `minVersion`/`maxVersion` are the agent's range (parameters so tests can play an older or newer agent).
pb::Welcome answerHello(
    const pb::Hello& hello, const AgentIdentity& self, std::uint32_t minVersion, std::uint32_t maxVersion);

/// A refusal for reasons other than the version (peer not allowed, too many clients).
pb::Welcome refuse(const AgentIdentity& self, std::string reason, std::string advice);

/// The client's check of a Welcome: the refusal as an Error (with the agent's reason and advice), or ok.
Status checkWelcome(const pb::Welcome& welcome, const std::string& agentName);

} // namespace rdt::protocol
