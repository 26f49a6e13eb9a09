// SPDX-License-Identifier: GPL-3.0-or-later
#include "MetricsEndpoint.h"

#include "GrafanaDashboard.h"

#include "core/BoundedFile.h"

#include "metrics/KubernetesLabels.h"
#include "metrics/ModelTma.h"
#include "metrics/PodTma.h"

#include <filesystem>
#include <unistd.h>

namespace rdt::agent {
namespace {
/// The checkout an agent still in its build tree was built from: the CMakeCache.txt of a folder above it names it
/// (CMAKE_HOME_DIRECTORY). Found at run time, so no installed program carries a build machine's path.
std::filesystem::path checkoutOf(const std::filesystem::path& exe)
{
    std::error_code ec;
    for (auto dir = exe.parent_path(); !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
        if (!std::filesystem::is_regular_file(dir / "CMakeCache.txt", ec)) continue;
        auto cache = readBoundedFile((dir / "CMakeCache.txt").string(), 4u << 20, "CMake cache");
        if (!cache) return {};
        const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
        const auto at = cache->find(key);
        if (at == std::string::npos) return {};
        const auto end = cache->find('\n', at);
        return cache->substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
    }
    return {};
}

/// The installed dashboard, found from the agent's own path (PREFIX/libexec/rdtscope/rdtscope-agent ->
/// PREFIX/share/rdtscope/grafana/rdtscope.json); an agent run from its build tree has none installed and serves its
/// checkout's resources/grafana/rdtscope.json, so the index page's /dashboard link works there too.
std::string defaultDashboard()
{
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const auto installed = (exe.parent_path() / RDTSCOPE_DASHBOARD_FROM_AGENT).lexically_normal();
    if (std::filesystem::exists(installed, ec)) return installed.string();
    // Only where it was built (its folder has CMake's CMakeFiles beside it), never an installed copy, even one
    // unpacked inside a build tree: a package that lost its dashboard must show it.
    if (!std::filesystem::is_directory(exe.parent_path() / "CMakeFiles", ec)) return installed.string();
    const auto checkout = checkoutOf(exe);
    if (checkout.empty()) return installed.string(); // not found: the 404 names what is missing
    const auto inSources = checkout / "resources" / "grafana" / "rdtscope.json";
    return std::filesystem::exists(inSources, ec) ? inSources.string() : installed.string();
}
}

Result<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::start(
    const AgentOptions& options, const std::function<void(const std::string&)>& log)
{
    std::unique_ptr<MetricsEndpoint> e(new MetricsEndpoint);
    auto configured = metrics::metricsServerOptions({ options.metricsAddress, options.metricsPort }, options.webConfig);
    if (!configured) return configured.error();
    metrics::MetricsServerOptions serverOptions = std::move(*configured);
    // --dashboard, or the installed one, or the checkout's (none of them: /dashboard answers 404 and says why).
    const std::string dashboard = options.dashboard.empty() ? defaultDashboard() : options.dashboard;
    std::error_code ec;
    if (!options.dashboard.empty() || (!dashboard.empty() && std::filesystem::exists(dashboard, ec))) {
        auto json = loadGrafanaDashboard(dashboard);
        if (!json) return makeError("--dashboard: " + json.error().message, json.error().advice);
        serverOptions.dashboardJson = std::move(*json);
    }

    engine::ServiceOptions serviceOptions;
    serviceOptions.rdt.spec = options.source;
    serviceOptions.rdt.scenario = options.scenario;
    serviceOptions.rdt.simPreset = options.preset;
    serviceOptions.who = "agent";
    serviceOptions.sncNodeSamples = true; // SNC machines: one series per sub-NUMA node, labelled `node`
    auto service = engine::CaptureService::open(serviceOptions);
    if (!service) return service.error();
    e->m_service = std::move(*service);
    if (!e->m_service->hasRdt())
        return makeError("the RDT source has no monitoring to export", "check `rdtscope-cli caps`");
    const auto& source = e->m_service->source();
    log("metrics source: " + source.backend + (source.simulated ? " (SIMULATED: " + source.simulation + ")" : "")
        + (source.why.empty() ? "" : "; " + source.why));

    // Groups left by an agent that crashed or was killed hold RMIDs nobody will free otherwise.
    e->m_log = log;
    e->m_owned = std::make_unique<metrics::OwnedGroups>(
        *e->m_service, static_cast<unsigned>(::getpid()), [](unsigned pid) { return metrics::isRunningAgent(pid); });
    for (const auto& line : e->m_owned->reclaim())
        log(line);

    // On a Kubernetes node (the kubelet's pod directory exists) groups get their pod's labels; elsewhere the
    // groups' task lists are not even read. --proc-root and --kubelet-root name the trees explicitly (a DaemonSet
    // with the host's /proc mounted elsewhere; the tests' fixture trees, even on the simulated machine).
    const std::string procRoot = options.procRoot.empty() ? "/proc" : options.procRoot;
    const std::string kubeletRoot = options.kubeletRoot.empty() ? "/var/lib/kubelet" : options.kubeletRoot;
    const bool explicitTrees = !options.procRoot.empty() || !options.kubeletRoot.empty();
    metrics::GroupLabeller labeller;
    if (options.monitorPods || explicitTrees
        || (!source.simulated && std::filesystem::is_directory(kubeletRoot + "/pods", ec))) {
        labeller = [k = metrics::KubernetesLabeller(procRoot, kubeletRoot)](
                       const std::vector<unsigned>& pids) { return k.labelsFor(pids); };
        log("Kubernetes node: groups whose tasks are in one pod get namespace, pod, pod_uid and container labels");
    }
    metrics::GroupKeeper keeper;
    if (options.monitorPods) {
        e->m_pods = std::make_unique<metrics::PodGroups>(*e->m_owned, procRoot);
        keeper = [pods = e->m_pods.get(), log](const engine::GroupsSnapshot& groups) {
            auto update = pods->update(groups);
            for (const auto& line : update.log)
                log(line);
            return update.changed;
        };
        log("--monitor-pods: every pod gets a monitor group named " + std::string(metrics::kOwnedGroupPrefix)
            + std::to_string(::getpid()) + ".pod-UID, removed when the agent stops");
    }
    metrics::TmaCounter tma;
    if (options.metricsTma) {
        if (source.simulated) {
            log("--metrics-tma: SIMULATED rdtscope_tma_slots_total, derived from the simulated machine's model of each "
                "group's tasks (cycles, instructions, memory stalls; frontend and bad speculation a fixed share)");
            tma.count = [service = e->m_service.get()](const std::string& group,
                            const std::vector<unsigned>&) -> std::optional<metrics::TmaSlots> {
                auto counts = service->countGroupPmu(group);
                if (!counts || !counts->simulated) return std::nullopt;
                return metrics::tmaFromModelCounts(*counts);
            };
        } else {
            tma = metrics::podTmaCounter(
                procRoot, "/sys/fs/cgroup", static_cast<unsigned>(::getpid()),
                [] { return std::make_unique<pmu::LinuxPerfSyscalls>(); }, log);
        }
    }
    e->m_feed = std::make_unique<metrics::MetricsFeed>(
        *e->m_service, RDTSCOPE_VERSION, std::move(labeller), 2'000'000'000, std::move(keeper), std::move(tma));
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
    if (m_feed) m_feed->stop(); // no update of the pod groups runs any more
    if (m_owned)
        for (const auto& line : m_owned->removeAll())
            m_log(line);
}

} // namespace rdt::agent
