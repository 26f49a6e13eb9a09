// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The HTTP(S) side of rdtscope-agent --metrics, on cpp-httplib: GET /metrics (content-negotiated exposition),
// GET /dashboard (the Grafana dashboard JSON) and an index page. Read-only: every other method gets 405, and
// nothing reachable over HTTP changes the machine. Optional TLS and basic auth come from a WebConfig.

#include "Exposition.h"
#include "WebConfig.h"
#include "core/Result.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace httplib {
class Server;
}
struct ssl_ctx_st;

namespace rdt::metrics {

class HttpListener;

struct MetricsServerOptions {
    std::string address = "127.0.0.1";
    int port = 9464; ///< 0: any free port (port() says which)
    WebConfig web;
    std::string dashboardJson; ///< served at /dashboard ("" = 404)
};

/// --metrics "[ADDR:]PORT" or "[V6ADDR]:PORT" -> address (127.0.0.1 when none) and port (0 = any free one), for every
/// program that serves metrics (rdtscope-agent, rdtscope-cli record).
Result<std::pair<std::string, int>> parseMetricsEndpoint(const std::string& text);

/// The server's options for ADDR:PORT with an optional web configuration file ("" = plain HTTP, no auth).
Result<MetricsServerOptions> metricsServerOptions(
    const std::pair<std::string, int>& endpoint, const std::string& webConfigPath);

/// Seconds since the Unix epoch now (the `_created` and sample times of the exposition).
double unixSeconds();

class MetricsServer {
public:
    using Source = std::function<std::shared_ptr<const std::vector<MetricFamily>>()>;

    /// `source` returns the families to serve (MetricsFeed::latest); it must be cheap and never block for long.
    MetricsServer(MetricsServerOptions options, Source source);
    ~MetricsServer(); ///< stops serving
    MetricsServer(const MetricsServer&) = delete;
    MetricsServer& operator=(const MetricsServer&) = delete;

    /// Binds and serves on threads of its own (HttpListener: one accept loop, a few workers, the connection limits
    /// and timeouts of HttpLimits). Errors say which address and why.
    Status start();
    void stop();
    int port() const { return m_port; }
    /// "http://127.0.0.1:9464" (https with TLS; IPv6 addresses in brackets).
    std::string url() const;

    /// The response body for a scrape, exactly as /metrics serves it (also used by the benchmark).
    std::string scrapeBody(ExpositionFormat format);

private:
    bool authorized(const std::string& header);

    MetricsServerOptions m_options;
    Source m_source;
    std::unique_ptr<httplib::Server> m_server; ///< routing and the handlers; its own listener is not used
    ssl_ctx_st* m_tls = nullptr;
    std::unique_ptr<HttpListener> m_listener;
    int m_port = 0;
    std::atomic<double> m_lastScrapeSeconds { 0 };
    std::mutex m_authMutex;
    std::map<std::string, std::string> m_verified; ///< user -> password that matched its hash (bcrypt is slow)
};

} // namespace rdt::metrics
