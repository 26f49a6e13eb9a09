// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for the metrics tests: rdtscope-agent --metrics started in the background (its port read from its log),
// HTTP GETs on loopback, and a real Prometheus (Debian's package) on a loopback port with a temp data dir. Every
// wait is bounded in count and time; every started process is stopped by a destructor.

#include "../agent/AgentTestHelpers.h"
#include "core/Json.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rdt::test {

struct HttpReply {
    int status = 0; ///< 0 when the request failed
    std::string body;
    std::string contentType;
};

/// GET http(s)://127.0.0.1:PORT/PATH with optional headers and basic-auth credentials ("" = none).
HttpReply httpGet(int port, const std::string& path, const std::map<std::string, std::string>& headers = {},
    bool tls = false, const std::string& user = "", const std::string& password = "");

/// promtool check metrics on a text (written to DIR/scrape.txt first): exit code and output.
CommandOutput promtoolCheck(const std::string& text, const std::string& dir);

/// A free TCP port on 127.0.0.1 right now (bound to 0 and released).
int freeLoopbackPort();

/// rdtscope-agent --metrics 127.0.0.1:0 ARGS..., running until destroyed.
class MetricsAgent {
public:
    /// Starts the agent and, with `wait`, waits (bounded) until its log names the port.
    MetricsAgent(
        const std::vector<std::string>& args, const std::string& dir, const std::string& name, bool wait = true);
    bool waitForPort();
    bool ok() const { return port > 0; }
    std::string log() const { return process ? process->log() : std::string {}; }
    std::unique_ptr<BackgroundProcess> process;
    int port = 0;
};

/// A real Prometheus scraping the given targets ("127.0.0.1:PORT") every `intervalS` seconds.
class Prometheus {
public:
    /// `extraScrapeConfig`: YAML lines added to the scrape job (TLS, basic auth), indented by 4 spaces.
    Prometheus(const std::vector<std::string>& targets, const std::string& dir, int intervalS = 1,
        const std::string& extraScrapeConfig = "", const std::string& scheme = "http");
    ~Prometheus();
    bool ok() const { return ready; }
    /// An instant query's result vector ([] on failure; the error is in lastError).
    json::Value query(const std::string& promql);
    std::string log() const { return process ? process->log() : std::string {}; }
    std::unique_ptr<BackgroundProcess> process;
    int port = 0;
    bool ready = false;
    std::string lastError;
};

/// The value of a one-element instant-query result as a double (NaN when the vector is not exactly one sample).
double singleValue(const json::Value& result);

} // namespace rdt::test
