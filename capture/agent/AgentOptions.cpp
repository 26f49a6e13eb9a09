// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentOptions.h"

namespace rdt::agent {

const char* agentUsage()
{
    return "usage: rdtscope-agent --stdio | --listen unix:PATH [--allow-group NAME] [--restore-on-exit]\n"
           "                      [--max-clients N] [--no-polkit]\n"
           "  --stdio            serve one client on standard input and output (what ssh and pkexec run)\n"
           "  --listen unix:PATH serve clients on a unix socket (mode 0660, group of --allow-group); under a\n"
           "                     systemd socket unit the socket is inherited instead\n"
           "  --allow-group NAME unix-socket peers must be root or in this group (default rdtscope)\n"
           "  --restore-on-exit  when a client goes, put back the allocations it changed\n"
           "  --max-clients N    at most N clients at once on the socket (default 16)\n"
           "  --no-polkit        do not ask polkit per action (only where polkitd does not run: containers, tests)\n"
           "There is no TCP listener: remote clients come through ssh (rdtscope --connect ssh://HOST).\n"
           "Protocol: docs/PROTOCOL.md.\n";
}

Result<AgentOptions> parseAgentOptions(const std::vector<std::string>& args, bool listenFdsFromSystemd)
{
    AgentOptions o;
    o.systemdSocket = listenFdsFromSystemd;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* name) -> Result<std::string> {
            if (i + 1 >= args.size()) return makeError(std::string(name) + " needs a value", agentUsage());
            return args[++i];
        };
        if (a == "--stdio") {
            o.stdio = true;
        } else if (a == "--listen") {
            auto v = value("--listen");
            if (!v) return v.error();
            if (v->rfind("unix:/", 0) != 0)
                return makeError("--listen takes unix:PATH with an absolute path, not '" + *v + "'",
                    "the agent never listens on TCP; reach remote agents through ssh");
            o.listenPath = v->substr(5);
        } else if (a == "--allow-group") {
            auto v = value("--allow-group");
            if (!v) return v.error();
            o.allowGroup = *v;
        } else if (a == "--no-polkit") {
            o.noPolkit = true;
        } else if (a == "--restore-on-exit") {
            o.restoreOnExit = true;
        } else if (a == "--max-clients") {
            auto v = value("--max-clients");
            if (!v) return v.error();
            char* end = nullptr;
            const long n = std::strtol(v->c_str(), &end, 10);
            if (v->empty() || *end || n < 1 || n > 1024)
                return makeError("--max-clients needs a number from 1 to 1024, not '" + *v + "'");
            o.maxClients = static_cast<int>(n);
        } else if (a == "--help" || a == "-h") {
            o.help = true;
        } else {
            return makeError("unknown option '" + a + "'", agentUsage());
        }
    }
    if (o.help) return o;
    const int modes = (o.stdio ? 1 : 0) + (!o.listenPath.empty() || o.systemdSocket ? 1 : 0);
    if (modes != 1) return makeError("choose exactly one of --stdio and --listen unix:PATH", agentUsage());
    return o;
}

} // namespace rdt::agent
