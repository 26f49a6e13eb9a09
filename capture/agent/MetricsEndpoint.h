// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AgentOptions.h"
#include "core/Result.h"
#include "engine/CaptureService.h"
#include "metrics/MetricsFeed.h"
#include "metrics/MetricsServer.h"

#include <functional>
#include <memory>
#include <string>

namespace rdt::agent {

/// rdtscope-agent --metrics: its own capture service (the RDT source of --source), sampled by a MetricsFeed and
/// served by a MetricsServer. Independent of the protocol clients, which get capture services of their own.
class MetricsEndpoint {
public:
    static Result<std::unique_ptr<MetricsEndpoint>> start(
        const AgentOptions& options, const std::function<void(const std::string&)>& log);
    ~MetricsEndpoint();

private:
    MetricsEndpoint() = default;
    std::unique_ptr<engine::CaptureService> m_service;
    std::unique_ptr<metrics::MetricsFeed> m_feed;
    std::unique_ptr<metrics::MetricsServer> m_server;
};

} // namespace rdt::agent
