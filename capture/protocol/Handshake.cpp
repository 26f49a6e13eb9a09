// SPDX-License-Identifier: GPL-3.0-or-later
#include "Handshake.h"

#include "Preamble.h"

#include <algorithm>

namespace rdt::protocol {

namespace {
std::string range(std::uint32_t lo, std::uint32_t hi)
{
    return lo == hi ? std::to_string(hi) : std::to_string(lo) + "-" + std::to_string(hi);
}

void describe(const AgentIdentity& self, pb::Welcome& w)
{
    w.set_software(self.software);
    w.set_hostname(self.hostname);
    for (const auto& c : self.capabilities)
        w.add_capabilities(c);
    w.set_max_frame_bytes(self.maxFrameBytes);
    w.set_heartbeat_ms(self.heartbeatMs);
    w.set_uid(self.uid);
}
}

pb::Hello makeHello(const std::string& software, const std::string& clientHost)
{
    pb::Hello h;
    h.set_protocol_version(kProtocolVersion);
    h.set_min_protocol_version(kMinProtocolVersion);
    h.set_software(software);
    h.set_client_host(clientHost);
    h.add_capabilities("zstd");
    return h;
}

pb::Welcome answerHello(
    const pb::Hello& hello, const AgentIdentity& self, std::uint32_t minVersion, std::uint32_t maxVersion)
{
    pb::Welcome w;
    describe(self, w);
    const std::uint32_t clientMax = hello.protocol_version();
    const std::uint32_t clientMin
        = std::min(hello.min_protocol_version() ? hello.min_protocol_version() : clientMax, clientMax);
    const std::uint32_t version = std::min(clientMax, maxVersion);
    if (clientMax == 0 || version < std::max(clientMin, minVersion)) {
        w.set_accepted(false);
        w.set_protocol_version(maxVersion);
        const bool clientNewer = clientMin > maxVersion;
        w.set_reason("protocol version mismatch: the client (" + hello.software() + ") speaks "
            + range(clientMin, clientMax) + ", this agent (" + self.software + ") speaks "
            + range(minVersion, maxVersion));
        w.set_advice(clientNewer ? "update rdtscope-agent on " + self.hostname + " to the client's release"
                                 : "update the client to the release of rdtscope-agent on " + self.hostname);
        return w;
    }
    w.set_accepted(true);
    w.set_protocol_version(version);
    return w;
}

pb::Welcome refuse(const AgentIdentity& self, std::string reason, std::string advice)
{
    pb::Welcome w;
    describe(self, w);
    w.set_accepted(false);
    w.set_protocol_version(kProtocolVersion);
    w.set_reason(std::move(reason));
    w.set_advice(std::move(advice));
    return w;
}

Status checkWelcome(const pb::Welcome& welcome, const std::string& agentName)
{
    if (!welcome.accepted())
        return makeError(agentName + " refused the connection: " + welcome.reason(), welcome.advice());
    if (welcome.protocol_version() < kMinProtocolVersion || welcome.protocol_version() > kProtocolVersion)
        return makeError(agentName + " chose protocol version " + std::to_string(welcome.protocol_version())
                + ", which this client (protocol " + range(kMinProtocolVersion, kProtocolVersion) + ") does not speak",
            "install the same rdtscope release on both machines");
    return {};
}

} // namespace rdt::protocol
