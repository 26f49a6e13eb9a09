// SPDX-License-Identifier: GPL-3.0-or-later
#include "MetricsServer.h"

#include "HttpListener.h"

#include <chrono>
#include <cstdlib>
#include <httplib.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>

namespace rdt::metrics {

Result<std::pair<std::string, int>> parseMetricsEndpoint(const std::string& text)
{
    std::string address = "127.0.0.1";
    std::string port = text;
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find("]:");
        if (close == std::string::npos)
            return makeError("--metrics takes [ADDR]:PORT for IPv6, not '" + text + "'", "e.g. [::1]:9464");
        address = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else if (const auto colon = text.rfind(':'); colon != std::string::npos) {
        if (colon > 0) address = text.substr(0, colon);
        port = text.substr(colon + 1);
    }
    char* end = nullptr;
    const long n = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end || n < 0 || n > 65535)
        return makeError("--metrics needs [ADDR:]PORT with a port from 0 to 65535, not '" + text + "'",
            "e.g. --metrics 127.0.0.1:9464 (9464 is the port rdtscope uses by convention)");
    return std::make_pair(address, static_cast<int>(n));
}

Result<MetricsServerOptions> metricsServerOptions(
    const std::pair<std::string, int>& endpoint, const std::string& webConfigPath)
{
    MetricsServerOptions options;
    options.address = endpoint.first;
    options.port = endpoint.second;
    if (!webConfigPath.empty()) {
        auto web = loadWebConfig(webConfigPath);
        if (!web) return web.error();
        options.web = std::move(*web);
    }
    return options;
}

double unixSeconds()
{
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}
namespace {

const char* kIndex = "<html><head><title>rdtscope-agent</title></head><body><h1>rdtscope-agent</h1>"
                     "<p><a href=\"/metrics\">/metrics</a>: Intel RDT monitoring and allocation of this host "
                     "(OpenMetrics or Prometheus text).</p><p><a href=\"/dashboard\">/dashboard</a>: a Grafana "
                     "dashboard for it (import it in Grafana).</p></body></html>\n";

std::string decodeBase64(const std::string& in)
{
    if (in.empty() || in.size() % 4 != 0 || in.size() > 4096) return {};
    std::string out(in.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
        reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(in.size()));
    if (n < 0) return {};
    std::size_t len = static_cast<std::size_t>(n);
    for (auto it = in.rbegin(); it != in.rend() && *it == '='; ++it)
        --len; // EVP_DecodeBlock counts the padding as decoded zero bytes
    out.resize(len);
    return out;
}

/// cpp-httplib's request handling (parsing, routing, responses) for a connection HttpListener owns: the library's
/// own accept loop and worker pool are not used.
class RequestProcessor final : public httplib::Server {
public:
    using httplib::Server::process_request;
};

} // namespace

MetricsServer::MetricsServer(MetricsServerOptions options, Source source)
    : m_options(std::move(options))
    , m_source(std::move(source))
{ }

MetricsServer::~MetricsServer()
{
    stop();
}

std::string MetricsServer::url() const
{
    const bool v6 = m_options.address.find(':') != std::string::npos;
    return std::string(m_options.web.tls() ? "https" : "http") + "://"
        + (v6 ? "[" + m_options.address + "]" : m_options.address) + ":" + std::to_string(m_port);
}

std::string MetricsServer::scrapeBody(ExpositionFormat format)
{
    const auto started = std::chrono::steady_clock::now();
    auto published = m_source();
    std::vector<MetricFamily> extra;
    extra.push_back({ "rdtscope_scrape_duration_seconds", MetricType::Gauge,
        "How long the previous scrape of this endpoint took to render.", "seconds",
        { { {}, m_lastScrapeSeconds.load(), std::nullopt } } });
    // The published families are rendered in place (never copied), the scrape's own gauge after them.
    std::string body = published ? renderExposition(*published, format, false) : std::string {};
    body += renderExposition(extra, format);
    m_lastScrapeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return body;
}

bool MetricsServer::authorized(const std::string& header)
{
    if (m_options.web.users.empty()) return true;
    if (header.rfind("Basic ", 0) != 0) return false;
    const std::string pair = decodeBase64(header.substr(6));
    const auto colon = pair.find(':');
    if (colon == std::string::npos) return false;
    const std::string user = pair.substr(0, colon);
    const std::string password = pair.substr(colon + 1);
    auto hash = m_options.web.users.find(user);
    if (hash == m_options.web.users.end()) return false;
    {
        std::lock_guard lock(m_authMutex);
        if (auto seen = m_verified.find(user); seen != m_verified.end() && seen->second == password) return true;
    }
    if (!verifyBcrypt(password, hash->second)) return false;
    std::lock_guard lock(m_authMutex);
    m_verified[user] = password; // a scrape every few seconds must not pay bcrypt's cost each time
    return true;
}

Status MetricsServer::start()
{
    if (m_options.web.tls()) {
        m_tls = SSL_CTX_new(TLS_server_method());
        const bool loaded = m_tls && SSL_CTX_set_min_proto_version(m_tls, TLS1_2_VERSION) == 1
            && SSL_CTX_use_certificate_chain_file(m_tls, m_options.web.certFile.c_str()) == 1
            && SSL_CTX_use_PrivateKey_file(m_tls, m_options.web.keyFile.c_str(), SSL_FILETYPE_PEM) == 1
            && SSL_CTX_check_private_key(m_tls) == 1;
        if (!loaded) {
            stop();
            return makeError(
                "cannot load the TLS certificate " + m_options.web.certFile + " and key " + m_options.web.keyFile,
                "both must be PEM files and the key must match the certificate");
        }
    }
    auto processor = std::make_unique<RequestProcessor>();
    RequestProcessor* requests = processor.get();
    m_server = std::move(processor);
    auto& server = *m_server;
    server.set_keep_alive_max_count(100);
    server.set_payload_max_length(64u << 10); // GET and HEAD only: any body is refused before it is read
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
        if (req.method != "GET" && req.method != "HEAD") {
            res.status = 405;
            res.set_header("Allow", "GET, HEAD");
            res.set_content("rdtscope-agent's HTTP endpoint is read-only\n", "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        }
        if (!authorized(req.get_header_value("Authorization"))) {
            res.status = 401;
            res.set_header("WWW-Authenticate", "Basic realm=\"rdtscope-agent\"");
            res.set_content("Unauthorized\n", "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    server.Get("/metrics", [this](const httplib::Request& req, httplib::Response& res) {
        const auto format = negotiateFormat(req.get_header_value("Accept"));
        res.set_content(scrapeBody(format), contentType(format));
    });
    server.Get("/dashboard", [this](const httplib::Request&, httplib::Response& res) {
        if (m_options.dashboardJson.empty()) {
            res.status = 404;
            res.set_content("no Grafana dashboard here: none is installed next to this agent and --dashboard FILE "
                            "names none (the project's is resources/grafana/rdtscope.json)\n",
                "text/plain");
            return;
        }
        res.set_content(m_options.dashboardJson, "application/json");
    });
    server.Get("/", [](const httplib::Request&, httplib::Response& res) { res.set_content(kIndex, "text/html"); });

    auto listener = HttpListener::open(m_options.address, m_options.port, m_tls, HttpLimits {},
        [requests](HttpConnection& connection, bool closeAfter, bool& closed) {
            return requests->process_request(connection, closeAfter, closed, nullptr);
        });
    if (!listener) {
        stop();
        return listener.error();
    }
    m_listener = std::move(*listener);
    m_port = m_listener->port();
    return {};
}

void MetricsServer::stop()
{
    m_listener.reset(); // joins its threads: nothing uses the handlers or the TLS context any more
    m_server.reset();
    if (m_tls) SSL_CTX_free(m_tls);
    m_tls = nullptr;
}

} // namespace rdt::metrics
