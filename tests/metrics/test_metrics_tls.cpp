// SPDX-License-Identifier: GPL-3.0-or-later
// TLS and basic auth from an exporter-toolkit web configuration: a throwaway self-signed certificate made here
// with openssl, a bcrypt hash made with libxcrypt; requests without the right credentials get 401, and a real
// Prometheus scrapes with them.
#include "FleetHelpers.h"

#include <chrono>
#include <crypt.h>
#include <fstream>
#include <gtest/gtest.h>
#include <thread>

using namespace rdt;
using namespace rdt::test;

namespace {
std::string bcryptHash(const std::string& password)
{
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    if (!crypt_gensalt_rn("$2b$", 6, nullptr, 0, salt, sizeof salt)) return {};
    crypt_data data {};
    const char* hash = crypt_r(password.c_str(), salt, &data);
    return hash ? hash : "";
}
}

TEST(MetricsTls, BasicAuthOverTlsAndPrometheusScrapesWithCredentials)
{
    const std::string dir = makeTempDir("rdtscope-metrics-tls");
    const auto cert = run(
        { "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir + "/server.key", "-out",
            dir + "/server.crt", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1" },
        60);
    ASSERT_EQ(cert.exitCode, 0) << cert.out;
    const std::string hash = bcryptHash("correct horse");
    ASSERT_EQ(hash.rfind("$2b$06$", 0), 0u) << hash;
    // Relative paths: taken from the configuration file's directory, as the exporter toolkit does.
    std::ofstream(dir + "/web.yml") << "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
                                    << "basic_auth_users:\n  prometheus: '" << hash << "'\n";

    MetricsAgent agent({ "--source", "sim", "--web-config", dir + "/web.yml" }, dir, "agent");
    ASSERT_TRUE(agent.ok()) << agent.log();
    EXPECT_NE(agent.log().find("serving metrics on https://127.0.0.1:"), std::string::npos) << agent.log();

    EXPECT_EQ(httpGet(agent.port, "/metrics", {}, true).status, 401);
    EXPECT_EQ(httpGet(agent.port, "/metrics", {}, true, "prometheus", "wrong").status, 401);
    EXPECT_EQ(httpGet(agent.port, "/metrics", {}, true, "nobody", "correct horse").status, 401);
    EXPECT_EQ(httpGet(agent.port, "/dashboard", {}, true).status, 401);
    const auto ok = httpGet(agent.port, "/metrics", {}, true, "prometheus", "correct horse");
    EXPECT_EQ(ok.status, 200);
    EXPECT_NE(ok.body.find("rdtscope_build_info"), std::string::npos);
    EXPECT_EQ(httpGet(agent.port, "/metrics").status, 0); // plain HTTP to the TLS port gets no HTTP answer

    // Prometheus verifies the certificate against it (no insecure_skip_verify) and sends the credentials.
    Prometheus prometheus({ "127.0.0.1:" + std::to_string(agent.port) }, dir, 1,
        "    tls_config:\n      ca_file: " + dir + "/server.crt\n    basic_auth:\n      username: prometheus\n"
            + "      password: 'correct horse'\n",
        "https");
    ASSERT_TRUE(prometheus.ok()) << prometheus.log();
    double up = 0, series = 0;
    for (int i = 0; i < 30 && !(up == 1 && series > 0); ++i) { // 30 s at most
        std::this_thread::sleep_for(std::chrono::seconds(1));
        up = singleValue(prometheus.query("up"));
        series = singleValue(prometheus.query("count(rdtscope_llc_occupancy_bytes)"));
    }
    EXPECT_EQ(up, 1) << prometheus.lastError << prometheus.log();
    EXPECT_GT(series, 0);
}

TEST(MetricsTls, BadWebConfigurationStopsTheAgentWithTheReason)
{
    const std::string dir = makeTempDir("rdtscope-metrics-badweb");
    std::ofstream(dir + "/web.yml") << "basic_auth_users:\n  alice: plaintext\n";
    auto r
        = run({ RDTSCOPE_AGENT, "--source", "sim", "--metrics", "127.0.0.1:0", "--web-config", dir + "/web.yml" }, 30);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("basic_auth_users.alice is not a bcrypt hash"), std::string::npos) << r.out;
    std::ofstream(dir + "/tls.yml") << "tls_server_config:\n  cert_file: missing.crt\n  key_file: missing.key\n";
    r = run({ RDTSCOPE_AGENT, "--source", "sim", "--metrics", "127.0.0.1:0", "--web-config", dir + "/tls.yml" }, 30);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("cannot open TLS certificate " + dir + "/missing.crt"), std::string::npos) << r.out;
}
