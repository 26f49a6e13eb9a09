// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentUrl.h"

#include <algorithm>
#include <cctype>

namespace rdt::protocol {

namespace {
constexpr const char* kForms = "use ssh://[USER@]HOST[:PORT], unix:PATH or local";

bool validName(const std::string& s, bool host)
{
    if (s.empty() || s.size() > 253 || s.front() == '-') return false;
    return std::all_of(s.begin(), s.end(),
        [host](unsigned char c) { return std::isalnum(c) || c == '.' || c == '-' || c == '_' || (host && c == ':'); });
}
}

std::string AgentUrl::display() const
{
    switch (kind) {
    case Kind::Ssh: {
        std::string s = user.empty() ? host : user + "@" + host;
        if (host.find(':') != std::string::npos) s = (user.empty() ? "" : user + "@") + "[" + host + "]";
        return port ? s + ":" + std::to_string(port) : s;
    }
    case Kind::Unix:
        return "unix:" + path;
    case Kind::Local:
        return "local";
    }
    return {};
}

std::string AgentUrl::hostLabel() const
{
    return kind == Kind::Ssh ? host : "localhost";
}

Result<AgentUrl> parseAgentUrl(const std::string& text)
{
    AgentUrl url;
    if (text == "local") return url;
    if (text.rfind("unix:", 0) == 0) {
        url.kind = AgentUrl::Kind::Unix;
        url.path = text.substr(5);
        if (url.path.empty() || url.path.front() != '/')
            return makeError(
                "'" + text + "': a unix socket needs an absolute path", "e.g. unix:/run/rdtscope/agent.sock");
        if (url.path.size() >= 108) return makeError("'" + text + "': the socket path is longer than 107 bytes");
        return url;
    }
    if (text.rfind("ssh://", 0) != 0) return makeError("'" + text + "' is not an agent address", kForms);
    url.kind = AgentUrl::Kind::Ssh;
    std::string rest = text.substr(6);
    if (!rest.empty() && rest.back() == '/') rest.pop_back();
    if (const auto at = rest.rfind('@'); at != std::string::npos) {
        url.user = rest.substr(0, at);
        rest = rest.substr(at + 1);
        if (!validName(url.user, false))
            return makeError("'" + text + "': '" + url.user + "' is not a valid user name", kForms);
    }
    std::string portText;
    if (!rest.empty() && rest.front() == '[') { // [IPv6]:port
        const auto close = rest.find(']');
        if (close == std::string::npos) return makeError("'" + text + "': unclosed '[' in the host", kForms);
        url.host = rest.substr(1, close - 1);
        if (close + 1 < rest.size()) {
            if (rest[close + 1] != ':') return makeError("'" + text + "': junk after ']'", kForms);
            portText = rest.substr(close + 2);
        }
    } else if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
        url.host = rest.substr(0, colon);
        portText = rest.substr(colon + 1);
    } else {
        url.host = rest;
    }
    if (!validName(url.host, true))
        return makeError("'" + text + "': '" + url.host + "' is not a valid host name", kForms);
    if (!portText.empty() || (rest.size() && rest.back() == ':')) {
        const bool digits = !portText.empty() && portText.size() <= 5
            && std::all_of(portText.begin(), portText.end(), [](unsigned char c) { return std::isdigit(c); });
        const int port = digits ? std::stoi(portText) : 0;
        if (port < 1 || port > 65535) return makeError("'" + text + "': the port must be 1-65535", kForms);
        url.port = port;
    }
    return url;
}

} // namespace rdt::protocol
