// SPDX-License-Identifier: GPL-3.0-or-later
// The exporter toolkit's web configuration as rdtscope-agent reads it, and bcrypt checks through libxcrypt.
#include "metrics/WebConfig.h"

#include <crypt.h>
#include <gtest/gtest.h>

using namespace rdt::metrics;

namespace {
std::string bcryptHash(const std::string& password)
{
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    EXPECT_NE(crypt_gensalt_rn("$2b$", 5, nullptr, 0, salt, sizeof salt), nullptr);
    crypt_data data {};
    const char* hash = crypt_r(password.c_str(), salt, &data);
    return hash ? hash : "";
}
}

TEST(WebConfig, ReadsTlsAndUsersWithPathsRelativeToTheFile)
{
    const std::string hash = bcryptHash("s3cret");
    auto c = parseWebConfig("tls_server_config:\n  cert_file: server.crt\n  key_file: /etc/keys/server.key\n"
                            "basic_auth_users:\n  prometheus: "
            + hash + "\n",
        "/etc/rdtscope");
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_TRUE(c->tls());
    EXPECT_EQ(c->certFile, "/etc/rdtscope/server.crt");
    EXPECT_EQ(c->keyFile, "/etc/keys/server.key");
    ASSERT_EQ(c->users.size(), 1u);
    EXPECT_TRUE(verifyBcrypt("s3cret", c->users.at("prometheus")));
    EXPECT_FALSE(verifyBcrypt("s3cret ", c->users.at("prometheus")));
    EXPECT_FALSE(verifyBcrypt("", c->users.at("prometheus")));
    auto empty = parseWebConfig("", "/");
    ASSERT_TRUE(empty);
    EXPECT_FALSE(empty->tls());
    EXPECT_TRUE(empty->users.empty());
}

TEST(WebConfig, RefusesWhatItWouldNotHonour)
{
    auto c = parseWebConfig("tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n  client_auth_type: "
                            "RequireAndVerifyClientCert\n",
        "/");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("tls_server_config.client_auth_type is not supported"), std::string::npos);
    c = parseWebConfig("tls_server_config:\n  cert_file: a.crt\n", "/");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("needs both cert_file and key_file"), std::string::npos);
    c = parseWebConfig("basic_auth_users:\n  alice: plaintext\n", "/");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("basic_auth_users.alice is not a bcrypt hash"), std::string::npos);
    EXPECT_NE(c.error().advice.find("htpasswd -nBC 10 alice"), std::string::npos);
    c = parseWebConfig("http_server_config:\n  http2: true\n", "/");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("'http_server_config' is not supported"), std::string::npos);
    c = parseWebConfig("tls_server_config: [unclosed\n", "/");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("not valid YAML"), std::string::npos);
    auto missing = loadWebConfig("/nonexistent/web.yml");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("cannot open web configuration /nonexistent/web.yml"), std::string::npos);
}
