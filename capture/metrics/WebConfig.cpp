// SPDX-License-Identifier: GPL-3.0-or-later
#include "WebConfig.h"

#include <crypt.h>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace rdt::metrics {
namespace {

const char* kAdvice = "accepted: tls_server_config (cert_file, key_file) and basic_auth_users (user: bcrypt hash, "
                      "e.g. from `htpasswd -nBC 10 USER`)";

std::string resolve(const std::string& path, const std::string& baseDir)
{
    if (path.empty() || path.front() == '/' || baseDir.empty()) return path;
    return baseDir + "/" + path;
}

bool isBcrypt(const std::string& hash)
{
    const bool prefix = hash.rfind("$2a$", 0) == 0 || hash.rfind("$2b$", 0) == 0 || hash.rfind("$2y$", 0) == 0;
    return prefix && crypt_checksalt(hash.c_str()) == CRYPT_SALT_OK;
}

Result<WebConfig> parseNode(const YAML::Node& root, const std::string& baseDir)
{
    WebConfig config;
    if (root.IsNull()) return config;
    if (!root.IsMap()) return makeError("the web configuration is not a YAML mapping", kAdvice);
    for (const auto& entry : root) {
        const auto key = entry.first.as<std::string>();
        const YAML::Node& value = entry.second;
        if (key == "tls_server_config") {
            if (!value.IsMap()) return makeError("tls_server_config must be a mapping", kAdvice);
            for (const auto& tls : value) {
                const auto tlsKey = tls.first.as<std::string>();
                if (tlsKey == "cert_file")
                    config.certFile = resolve(tls.second.as<std::string>(), baseDir);
                else if (tlsKey == "key_file")
                    config.keyFile = resolve(tls.second.as<std::string>(), baseDir);
                else
                    return makeError("tls_server_config." + tlsKey + " is not supported by rdtscope-agent", kAdvice);
            }
            if (config.certFile.empty() || config.keyFile.empty())
                return makeError("tls_server_config needs both cert_file and key_file", kAdvice);
        } else if (key == "basic_auth_users") {
            if (value.IsNull()) continue;
            if (!value.IsMap()) return makeError("basic_auth_users must map user names to bcrypt hashes", kAdvice);
            for (const auto& user : value) {
                const auto name = user.first.as<std::string>();
                const auto hash = user.second.as<std::string>();
                if (!isBcrypt(hash))
                    return makeError("basic_auth_users." + name + " is not a bcrypt hash",
                        "hash the password with `htpasswd -nBC 10 " + name + "` and use the part after the colon");
                config.users[name] = hash;
            }
        } else {
            return makeError("'" + key + "' is not supported by rdtscope-agent's web configuration", kAdvice);
        }
    }
    return config;
}

} // namespace

Result<WebConfig> parseWebConfig(const std::string& yamlText, const std::string& baseDir)
{
    try {
        return parseNode(YAML::Load(yamlText), baseDir);
    } catch (const YAML::Exception& e) {
        return makeError(std::string("the web configuration is not valid YAML: ") + e.what(), kAdvice);
    }
}

Result<WebConfig> loadWebConfig(const std::string& path)
{
    std::ifstream in(path);
    if (!in) return errnoError(errno, "cannot read the web configuration " + path);
    std::ostringstream text;
    text << in.rdbuf();
    const auto slash = path.rfind('/');
    auto config = parseWebConfig(text.str(), slash == std::string::npos ? "." : path.substr(0, slash));
    if (!config) return makeError(path + ": " + config.error().message, config.error().advice);
    for (const auto* file : { &config->certFile, &config->keyFile }) {
        if (!file->empty() && !std::ifstream(*file)) return errnoError(errno, path + ": cannot read " + *file);
    }
    return config;
}

bool verifyBcrypt(const std::string& password, const std::string& hash)
{
    auto data = std::make_unique<crypt_data>();
    std::memset(data.get(), 0, sizeof *data);
    const char* out = crypt_r(password.c_str(), hash.c_str(), data.get());
    if (!out || out[0] == '*') return false;
    const std::size_t n = std::strlen(out);
    if (n != hash.size()) return false;
    unsigned char diff = 0; // compare in constant time
    for (std::size_t i = 0; i < n; ++i)
        diff |= static_cast<unsigned char>(out[i] ^ hash[i]);
    return diff == 0;
}

} // namespace rdt::metrics
