// SPDX-License-Identifier: GPL-3.0-or-later
#include "WebConfig.h"

#include "core/BoundedFile.h"

#include <crypt.h>
#include <cstring>
#include <memory>
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

/// The cost of a "$2b$CC$..." hash: the two digits after the prefix (99 when they are not digits).
int bcryptCost(const std::string& hash)
{
    auto digit = [&](std::size_t i) { return hash.size() > i && hash[i] >= '0' && hash[i] <= '9'; };
    if (!digit(4) || !digit(5)) return 99;
    return (hash[4] - '0') * 10 + (hash[5] - '0');
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
                // Every scrape with a wrong password pays the full cost: a cost of 31 would hold the server for
                // hours per request (each step doubles the time; README.md, "Fleets", has the figures).
                if (bcryptCost(hash) > kMaxBcryptCost)
                    return makeError("basic_auth_users." + name + " has bcrypt cost " + std::to_string(bcryptCost(hash))
                            + "; rdtscope-agent accepts " + std::to_string(kMinBcryptCost) + " to "
                            + std::to_string(kMaxBcryptCost),
                        "hash the password again with `htpasswd -nBC 10 " + name + "` (cost 10, the usual choice)");
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
    // A directory, /dev/zero or a FIFO is refused before anything is read (a directory once started the endpoint
    // with neither TLS nor authentication).
    auto text = readBoundedFile(path, kMaxWebConfigBytes, "web configuration");
    if (!text) return text.error();
    const auto slash = path.rfind('/');
    auto config = parseWebConfig(*text, slash == std::string::npos ? "." : path.substr(0, slash));
    if (!config) return makeError(path + ": " + config.error().message, config.error().advice);
    for (const auto& [file, what] :
        { std::pair { &config->certFile, "TLS certificate" }, std::pair { &config->keyFile, "TLS key" } }) {
        if (file->empty()) continue;
        if (auto pem = readBoundedFile(*file, kMaxPemBytes, what); !pem)
            return makeError(path + ": " + pem.error().message, pem.error().advice);
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
