// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <string>
#include <utility>
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
    unsigned idleTimeoutS = 300; ///< --idle-timeout S: an idle client's slot goes to a new one when all are taken
    /// --metrics [ADDR:]PORT: serve Prometheus/OpenMetrics on HTTP (default off; 127.0.0.1 when no address)
    bool metrics = false;
    std::string metricsAddress = "127.0.0.1";
    int metricsPort = 0;
    std::string webConfig; ///< --web-config FILE: exporter-toolkit TLS and basic auth settings
    std::string source = "auto"; ///< --source SPEC: the RDT source the metrics endpoint samples
    std::string scenario; ///< --scenario NAME for simulated sources ("" = the default scenario)
    std::string preset; ///< --preset ID: a simulated source's CPU preset instead of the scenario's
    unsigned sampleMs = 1000; ///< --sample-ms N: the metrics sampler's poll interval
    std::string dashboard; ///< --dashboard FILE: served at /dashboard (default: the installed one)
    bool monitorPods = false; ///< --monitor-pods: a monitor group of the agent's own per Kubernetes pod
    bool metricsTma = false; ///< --metrics-tma: rdtscope_tma_slots_total per group (real: pod groups only)
    std::string procRoot; ///< --proc-root DIR: where /proc is (a DaemonSet mounting the host's; fixture trees)
    std::string kubeletRoot; ///< --kubelet-root DIR: the kubelet's directory (default /var/lib/kubelet)
    bool help = false;
};

/// Parses argv (without argv[0]); an Error names the bad option and the usage.
Result<AgentOptions> parseAgentOptions(const std::vector<std::string>& args, bool listenFdsFromSystemd);

const char* agentUsage();

} // namespace rdt::agent
