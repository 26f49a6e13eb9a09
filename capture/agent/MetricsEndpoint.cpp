// SPDX-License-Identifier: GPL-3.0-or-later
#include "MetricsEndpoint.h"

#include "metrics/KubernetesLabels.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace rdt::agent {
namespace {
/// The installed dashboard, found from the agent's own path (PREFIX/libexec/rdtscope/rdtscope-agent ->
/// PREFIX/share/rdtscope/grafana/rdtscope.json); in a build tree there is none unless --dashboard names one.
std::string installedDashboard()
{
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    return (exe.parent_path() / RDTSCOPE_DASHBOARD_FROM_AGENT).lexically_normal().string();
}

std::string readDashboard(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}
}

Result<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::start(
    const AgentOptions& options, const std::function<void(const std::string&)>& log)
{
    std::unique_ptr<MetricsEndpoint> e(new MetricsEndpoint);
    metrics::MetricsServerOptions serverOptions;
    serverOptions.address = options.metricsAddress;
    serverOptions.port = options.metricsPort;
    if (!options.webConfig.empty()) {
        auto web = metrics::loadWebConfig(options.webConfig);
        if (!web) return web.error();
        serverOptions.web = std::move(*web);
    }
    serverOptions.dashboardJson = readDashboard(options.dashboard.empty() ? installedDashboard() : options.dashboard);
    if (!options.dashboard.empty() && serverOptions.dashboardJson.empty())
        return makeError("cannot read the dashboard " + options.dashboard);

    engine::ServiceOptions serviceOptions;
    serviceOptions.rdt.spec = options.source;
    serviceOptions.rdt.scenario = options.scenario;
    serviceOptions.who = "agent";
    auto service = engine::CaptureService::open(serviceOptions);
    if (!service) return service.error();
    e->m_service = std::move(*service);
    if (!e->m_service->hasRdt())
        return makeError("the RDT source has no monitoring to export", "check `rdtscope-cli caps`");
    const auto& source = e->m_service->source();
    log("metrics source: " + source.backend + (source.simulated ? " (SIMULATED: " + source.simulation + ")" : "")
        + (source.why.empty() ? "" : "; " + source.why));

    // On a Kubernetes node (the kubelet's pod directory exists) groups get their pod's labels; elsewhere the
    // groups' task lists are not even read.
    metrics::GroupLabeller labeller;
    std::error_code ec;
    if (!source.simulated && std::filesystem::is_directory("/var/lib/kubelet/pods", ec)) {
        labeller = [k = metrics::KubernetesLabeller()](const std::vector<unsigned>& pids) { return k.labelsFor(pids); };
        log("Kubernetes node: groups whose tasks are in one pod get namespace, pod, pod_uid and container labels");
    }
    e->m_feed = std::make_unique<metrics::MetricsFeed>(*e->m_service, RDTSCOPE_VERSION, std::move(labeller));
    if (auto st = e->m_feed->start(std::uint64_t { options.sampleMs } * 1'000'000); !st) return st.error();
    e->m_server = std::make_unique<metrics::MetricsServer>(
        std::move(serverOptions), [feed = e->m_feed.get()] { return feed->latest(); });
    if (auto st = e->m_server->start(); !st) return st.error();
    log("serving metrics on " + e->m_server->url() + "/metrics"
        + (options.webConfig.empty() ? "" : " (web configuration " + options.webConfig + ")"));
    return e;
}

MetricsEndpoint::~MetricsEndpoint()
{
    if (m_server) m_server->stop();
    if (m_feed) m_feed->stop();
}

} // namespace rdt::agent
