// SPDX-License-Identifier: GPL-3.0-or-later
#include "TransportDiagnosis.h"

#include <cstring>
#include <vector>

namespace rdt::protocol {

namespace {
bool has(const std::string& text, const char* needle)
{
    return text.find(needle) != std::string::npos;
}

std::string signalName(int signal)
{
    const char* name = ::sigabbrev_np(signal);
    return name ? std::string("SIG") + name : "unknown signal";
}
}

std::string stderrTail(const std::string& text, std::size_t maxChars)
{
    std::vector<std::string> lines;
    std::string line;
    for (char c : text + "\n") {
        if (c == '\n') {
            while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
                line.pop_back();
            if (!line.empty()) lines.push_back(line);
            line.clear();
        } else {
            line += c;
        }
    }
    std::string out;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        std::string next = out.empty() ? *it : *it + " | " + out;
        if (next.size() > maxChars) break;
        out = std::move(next);
    }
    return out;
}

AgentLogSplit splitAgentLog(const std::string& text)
{
    AgentLogSplit out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        // "2026-12-03 23:54:30 rdtscope-agent[23005]: ..." (capture/agent/main.cpp): a 19-character time stamp.
        if (line.size() > 20 && line.compare(19, 16, " rdtscope-agent[") == 0)
            out.lastAgentLine = line.substr(20);
        else
            out.transport += line + "\n";
        start = end + 1;
    }
    return out;
}

Error diagnoseTransportFailure(
    const AgentUrl& url, const std::string& stderrTextIn, int exitCode, const Error& streamError, int termSignal)
{
    // The agent's own log arrives on the same stderr (ssh forwards it): it is not what ssh said, and its words
    // ("No such file or directory" in a logged error) must not be mistaken for the transport's.
    const auto split = splitAgentLog(stderrTextIn);
    const std::string& stderrText = split.transport;
    const std::string agentSaid
        = split.lastAgentLine.empty() ? std::string {} : " (the agent's last log line: " + split.lastAgentLine + ")";
    const std::string tail = stderrTail(stderrText);
    const char* const transport = url.kind == AgentUrl::Kind::Ssh ? "ssh" : "pkexec";
    const std::string said = tail.empty() ? std::string {} : " (" + std::string(transport) + " said: " + tail + ")";
    const std::string host = url.hostLabel();
    if (url.kind == AgentUrl::Kind::Local) {
        // pkexec's own words (polkit's pkexec.c); it exits 127 for every refusal and 126 for a dismissed dialog.
        if (has(stderrText, "Error getting authority") || has(stderrText, "Could not connect"))
            return makeError("pkexec could not reach polkit on this machine" + said,
                "start the system bus and polkit (systemctl start dbus polkit), or reach the agent another way: "
                "--connect ssh://root@localhost, or a unix socket (README, \"Remote servers\")");
        if (has(stderrText, "Error accessing") || has(stderrText, "Cannot run program"))
            return makeError("pkexec cannot run the agent" + said,
                "build or install rdtscope-agent (/usr/libexec/rdtscope), or name its path with --agent PATH");
        if (exitCode == 126 || has(stderrText, "dismissed"))
            return makeError("the polkit authorization to start the agent was dismissed" + said,
                "authenticate in the polkit dialog; the actions are org.rdtscope.agent.*");
        if (exitCode == 127 || has(stderrText, "Not authorized"))
            return makeError("polkit did not allow pkexec to start the agent" + said,
                "an administrator can allow it with a rule in /etc/polkit-1/rules.d for org.rdtscope.agent.monitor "
                "(the agent's installed path is annotated with it); the actions are org.rdtscope.agent.*");
    }
    if (url.kind == AgentUrl::Kind::Ssh) {
        if (has(stderrText, "REMOTE HOST IDENTIFICATION HAS CHANGED"))
            return makeError("the host key of " + host + " has changed; ssh refused to connect" + said,
                "if the server was reinstalled, remove the old key with ssh-keygen -R " + host
                    + " and connect once with ssh to check the new one; otherwise someone may be intercepting the "
                      "connection");
        if (has(stderrText, "Host key verification failed") || has(stderrText, "No ED25519 host key is known")
            || has(stderrText, "host key is known"))
            return makeError("ssh refused the host key of " + host + said,
                "connect once in a terminal (ssh " + url.display()
                    + ") to check and accept the host key, then try again");
        if (has(stderrText, "Permission denied") || has(stderrText, "Too many authentication failures"))
            return makeError("ssh could not log in to " + url.display() + said,
                "make sure your key is accepted there (ssh-copy-id " + url.display()
                    + ") and loaded in your ssh-agent");
        if (has(stderrText, "Could not resolve hostname") || has(stderrText, "Connection refused")
            || has(stderrText, "Connection timed out") || has(stderrText, "No route to host")
            || has(stderrText, "Network is unreachable"))
            return makeError("ssh could not reach " + url.display() + said,
                "check the host name and port, and that sshd runs there");
    }
    if (exitCode == 127 || has(stderrText, "rdtscope-agent: not found") || has(stderrText, "command not found")
        || has(stderrText, "No such file or directory"))
        return makeError("rdtscope-agent is not installed on " + host + said,
            url.kind == AgentUrl::Kind::Ssh
                ? "install it there (see README, \"Remote servers\"), or name its path with --agent PATH"
                : "build or install rdtscope-agent next to this program");
    // The link broke under a running session: the transport was killed or lost its peer. What the agent logged
    // last is not why (it was busy serving), so it is left out.
    const char* const brokeWords[] = { "Connection reset", "Broken pipe", "Connection closed by",
        "closed by remote host", "Timeout, server", "client_loop: send disconnect" };
    bool broke = termSignal > 0;
    for (const char* words : brokeWords)
        broke = broke || (url.kind == AgentUrl::Kind::Ssh && has(stderrText, words));
    if (broke && url.kind != AgentUrl::Kind::Unix) {
        const std::string how = termSignal > 0 ? std::string(transport) + " was ended by signal "
                + std::to_string(termSignal) + " (" + signalName(termSignal) + ")"
                                               : std::string(transport) + " lost its connection";
        return makeError("the " + std::string(transport) + " link to " + url.display() + " broke: " + how + said,
            "check the network and that the server is up, then reconnect");
    }
    Error e = streamError;
    if (!tail.empty())
        e.message += " (" + std::string(url.kind == AgentUrl::Kind::Unix ? "stderr" : transport) + ": " + tail + ")";
    if (exitCode > 0 && tail.empty()) e.message += " (the transport exited with code " + std::to_string(exitCode) + ")";
    e.message += agentSaid;
    return e;
}

} // namespace rdt::protocol
