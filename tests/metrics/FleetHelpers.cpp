// SPDX-License-Identifier: GPL-3.0-or-later
#include "FleetHelpers.h"

#include <chrono>
#include <cmath>
#include <fstream>
#include <httplib.h>
#include <netinet/in.h>
#include <regex>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace rdt::test {

CommandOutput promtoolCheck(const std::string& text, const std::string& dir)
{
    const std::string file = dir + "/scrape.txt";
    std::ofstream(file) << text;
    return run({ "sh", "-c", "promtool check metrics < '" + file + "'" }, 60);
}

HttpReply httpGet(int port, const std::string& path, const std::map<std::string, std::string>& headers, bool tls,
    const std::string& user, const std::string& password)
{
    httplib::Headers h(headers.begin(), headers.end());
    auto fetch = [&](auto& client) {
        client.set_connection_timeout(5);
        client.set_read_timeout(10);
        if (!user.empty()) client.set_basic_auth(user.c_str(), password.c_str());
        HttpReply reply;
        if (auto res = client.Get(path.c_str(), h)) {
            reply.status = res->status;
            reply.body = res->body;
            reply.contentType = res->get_header_value("Content-Type");
        }
        return reply;
    };
    if (tls) {
        httplib::SSLClient client("127.0.0.1", port);
        client.enable_server_certificate_verification(false); // the tests' throwaway self-signed certificate
        return fetch(client);
    }
    httplib::Client client("127.0.0.1", port);
    return fetch(client);
}

int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

MetricsAgent::MetricsAgent(
    const std::vector<std::string>& args, const std::string& dir, const std::string& name, bool wait)
{
    std::vector<std::string> all { "--metrics", "127.0.0.1:0" };
    all.insert(all.end(), args.begin(), args.end());
    process = std::make_unique<BackgroundProcess>(RDTSCOPE_AGENT, all, dir + "/" + name + ".log");
    if (wait) waitForPort();
}

bool MetricsAgent::waitForPort()
{
    const std::regex serving("serving metrics on https?://127\\.0\\.0\\.1:([0-9]+)/metrics");
    for (int i = 0; i < 200 && port == 0; ++i) { // 20 s at most, even on a loaded machine
        std::smatch m;
        const std::string text = process->log();
        if (std::regex_search(text, m, serving))
            port = std::stoi(m[1]);
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return port > 0;
}

Prometheus::Prometheus(const std::vector<std::string>& targets, const std::string& dir, int intervalS,
    const std::string& extraScrapeConfig, const std::string& scheme)
{
    std::ofstream config(dir + "/prometheus.yml");
    config << "global:\n  scrape_interval: " << intervalS << "s\n  scrape_timeout: " << intervalS << "s\n"
           << "scrape_configs:\n  - job_name: rdtscope\n    scheme: " << scheme << "\n"
           << extraScrapeConfig << "    static_configs:\n      - targets:\n";
    for (const auto& t : targets)
        config << "          - '" << t << "'\n";
    config.close();
    for (int attempt = 0; attempt < 3 && !ready; ++attempt) { // a port taken in between: try another one
        port = freeLoopbackPort();
        process = std::make_unique<BackgroundProcess>("/usr/bin/prometheus",
            std::vector<std::string> { "--config.file=" + dir + "/prometheus.yml",
                "--storage.tsdb.path=" + dir + "/data", "--web.listen-address=127.0.0.1:" + std::to_string(port),
                "--log.level=warn" },
            dir + "/prometheus.log");
        for (int i = 0; i < 150 && !ready; ++i) { // 30 s at most
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            ready = httpGet(port, "/-/ready").status == 200;
            if (process->waitExit(0) != -1) break; // exited: the port was taken, or the config is bad
        }
    }
}

Prometheus::~Prometheus()
{
    process.reset(); // SIGTERM, then SIGKILL after 2 s (BackgroundProcess)
}

json::Value Prometheus::query(const std::string& promql)
{
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(10);
    auto res = client.Get("/api/v1/query", httplib::Params { { "query", promql } }, httplib::Headers {});
    if (!res) {
        lastError = "no answer from Prometheus";
        return json::Value::array();
    }
    auto doc = json::parse(res->body);
    if (!doc || (*doc)["status"] != "success") {
        lastError = res->body;
        return json::Value::array();
    }
    return (*doc)["data"]["result"];
}

double singleValue(const json::Value& result)
{
    if (!result.is_array() || result.size() != 1) return std::nan("");
    return std::stod(result[0]["value"][1].get<std::string>());
}

} // namespace rdt::test
