// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentOptions.h"
#include "metrics/MetricsServer.h"

#include <cstdlib>

namespace rdt::agent {

const char* agentUsage()
{
    return "usage: rdtscope-agent --stdio | --listen unix:PATH [--allow-group NAME] [--restore-on-exit]\n"
           "                      [--max-clients N] [--idle-timeout S] [--no-polkit] [--metrics [ADDR:]PORT [METRICS "
           "OPTIONS]]\n"
           "       rdtscope-agent --metrics [ADDR:]PORT [--web-config FILE] [--source SPEC] [--scenario NAME]\n"
           "                      [--preset ID] [--sample-ms N] [--dashboard FILE] [--monitor-pods] [--proc-root DIR]\n"
           "                      [--kubelet-root DIR] [--metrics-tma]\n"
           "  --stdio            serve one client on standard input and output (what ssh and pkexec run)\n"
           "  --listen unix:PATH serve clients on a unix socket (mode 0660, group of --allow-group); under a\n"
           "                     systemd socket unit the socket is inherited instead\n"
           "  --allow-group NAME unix-socket peers must be root or in this group (default rdtscope)\n"
           "  --restore-on-exit  when a client goes, put back the allocations it changed\n"
           "  --max-clients N    at most N clients at once on the socket (default 16)\n"
           "  --idle-timeout S   when all slots are taken, a client that sent no request for S seconds (and\n"
           "                     streams nothing) gives its slot to the new one, the longest idle first\n"
           "                     (1 to 86400, default 300)\n"
           "  --no-polkit        do not ask polkit per action (only where polkitd does not run: containers, tests)\n"
           "  --metrics [ADDR:]PORT  serve /metrics (OpenMetrics or Prometheus text, read-only) and /dashboard on\n"
           "                     HTTP; ADDR defaults to 127.0.0.1, [::1]:PORT for IPv6, port 0 picks a free one\n"
           "  --web-config FILE  TLS and basic auth for --metrics, in the Prometheus exporter toolkit's format\n"
           "  --source SPEC      RDT source the metrics sample: auto (default), sim, sim-msr, resctrl, msr\n"
           "  --scenario NAME    scenario of a simulated source (default noisy-neighbour)\n"
           "  --preset ID        CPU preset of a simulated source instead of the scenario's (e.g. epyc-genoa)\n"
           "  --sample-ms N      metrics poll interval in ms, 10 to 1000 (default 1000)\n"
           "  --dashboard FILE   the Grafana dashboard served at /dashboard\n"
           "  --monitor-pods     give every Kubernetes pod a monitor group of the agent's own, named\n"
           "                     rdtscope-agent.PID.pod-UID, removed when the pod ends and when the agent stops\n"
           "  --proc-root DIR    where the host's /proc is (default /proc): pod labels and --monitor-pods\n"
           "  --kubelet-root DIR the kubelet's directory (default /var/lib/kubelet): pod and namespace names\n"
           "  --metrics-tma      export rdtscope_tma_slots_total per group (TMA level 1): simulated sources from\n"
           "                     the machine model; real sources only for --monitor-pods groups, on the pod's\n"
           "                     cgroup v2 directory (other groups are logged once and have no series)\n"
           "The protocol has no TCP listener: remote clients come through ssh (rdtscope --connect ssh://HOST).\n"
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
        } else if (a == "--idle-timeout") {
            auto v = value("--idle-timeout");
            if (!v) return v.error();
            char* end = nullptr;
            const long n = std::strtol(v->c_str(), &end, 10);
            if (v->empty() || *end || n < 1 || n > 86400)
                return makeError("--idle-timeout needs a number of seconds from 1 to 86400, not '" + *v + "'");
            o.idleTimeoutS = static_cast<unsigned>(n);
        } else if (a == "--metrics") {
            auto v = value("--metrics");
            if (!v) return v.error();
            auto endpoint = metrics::parseMetricsEndpoint(*v);
            if (!endpoint) return endpoint.error();
            o.metrics = true;
            o.metricsAddress = endpoint->first;
            o.metricsPort = endpoint->second;
        } else if (a == "--web-config" || a == "--source" || a == "--scenario" || a == "--preset" || a == "--dashboard"
            || a == "--proc-root" || a == "--kubelet-root") {
            auto v = value(a.c_str());
            if (!v) return v.error();
            (a == "--web-config"            ? o.webConfig
                    : a == "--source"       ? o.source
                    : a == "--scenario"     ? o.scenario
                    : a == "--preset"       ? o.preset
                    : a == "--proc-root"    ? o.procRoot
                    : a == "--kubelet-root" ? o.kubeletRoot
                                            : o.dashboard)
                = *v;
        } else if (a == "--monitor-pods") {
            o.monitorPods = true;
        } else if (a == "--metrics-tma") {
            o.metricsTma = true;
        } else if (a == "--sample-ms") {
            auto v = value("--sample-ms");
            if (!v) return v.error();
            char* end = nullptr;
            const long n = std::strtol(v->c_str(), &end, 10);
            if (v->empty() || *end || n < 10 || n > 1000)
                return makeError("--sample-ms needs a number from 10 to 1000, not '" + *v + "'",
                    "MBM counters must be read at least once a second (SDM 20.18.8)");
            o.sampleMs = static_cast<unsigned>(n);
        } else if (a == "--help" || a == "-h") {
            o.help = true;
        } else {
            return makeError("unknown option '" + a + "'", agentUsage());
        }
    }
    if (o.help) return o;
    const int modes = (o.stdio ? 1 : 0) + (!o.listenPath.empty() || o.systemdSocket ? 1 : 0);
    if (modes > 1 || (modes == 0 && !o.metrics))
        return makeError("choose one of --stdio and --listen unix:PATH, or --metrics [ADDR:]PORT", agentUsage());
    if (!o.metrics
        && (!o.webConfig.empty() || !o.dashboard.empty() || o.monitorPods || o.metricsTma || !o.procRoot.empty()
            || !o.kubeletRoot.empty()))
        return makeError("--web-config, --dashboard, --monitor-pods, --metrics-tma, --proc-root and --kubelet-root "
                         "only apply to --metrics",
            agentUsage());
    return o;
}

} // namespace rdt::agent
