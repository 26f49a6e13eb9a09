// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AgentOptions.h"
#include "core/Result.h"
#include "engine/CaptureService.h"
#include "metrics/MetricsFeed.h"
#include "metrics/MetricsServer.h"
#include "metrics/OwnedGroups.h"
#include "metrics/PodGroups.h"

#include <functional>
#include <memory>
#include <string>

namespace rdt::agent {

/// rdtscope-agent --metrics: its own capture service (the RDT source of --source), sampled by a MetricsFeed and
/// served by a MetricsServer. Independent of the protocol clients, which get capture services of their own. On start
/// it reclaims the monitor groups of agents that are no longer running (OwnedGroups.h); with --monitor-pods it
/// makes a group per pod, and its destructor (normal exit, SIGTERM, SIGINT, SIGHUP) removes every group it made.
class MetricsEndpoint {
public:
    static Result<std::unique_ptr<MetricsEndpoint>> start(
        const AgentOptions& options, const std::function<void(const std::string&)>& log);
    ~MetricsEndpoint();
    MetricsEndpoint(const MetricsEndpoint&) = delete;
    MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

private:
    MetricsEndpoint() = default;
    std::function<void(const std::string&)> m_log;
    std::unique_ptr<engine::CaptureService> m_service;
    std::unique_ptr<metrics::OwnedGroups> m_owned;
    std::unique_ptr<metrics::PodGroups> m_pods;
    std::unique_ptr<metrics::MetricsFeed> m_feed;
    std::unique_ptr<metrics::MetricsServer> m_server;
};

} // namespace rdt::agent
