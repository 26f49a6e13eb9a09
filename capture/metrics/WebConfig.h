// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Prometheus exporter toolkit's web configuration file (the --web.config.file of node_exporter), the subset
// rdtscope-agent --metrics honours:
//   tls_server_config: { cert_file: PATH, key_file: PATH }
//   basic_auth_users: { USER: BCRYPT-HASH, ... }
// Relative paths are taken from the file's directory, as the toolkit does. Anything else in the file is an error
// rather than silently ignored: a client-certificate setting that did nothing would be a false sense of safety.

#include "core/Result.h"

#include <cstddef>
#include <map>
#include <string>

namespace rdt::metrics {

struct WebConfig {
    std::string certFile; ///< "" = plain HTTP
    std::string keyFile;
    std::map<std::string, std::string> users; ///< user -> bcrypt hash ($2a$/$2b$/$2y$); empty = no auth

    bool tls() const { return !certFile.empty(); }
};

/// bcrypt costs accepted for basic_auth_users: 4 is bcrypt's least; above 14 one check takes longer than a scrape
/// interval (README.md, "Fleets", has the figures), and each wrong password pays it in full.
inline constexpr int kMinBcryptCost = 4;
inline constexpr int kMaxBcryptCost = 14;
/// The web configuration file and the PEM files it names are small; anything larger is not one.
inline constexpr std::size_t kMaxWebConfigBytes = 64u << 10;
inline constexpr std::size_t kMaxPemBytes = 1u << 20;

/// Parses the YAML text; `baseDir` resolves relative paths. Errors name the key and say what is accepted.
Result<WebConfig> parseWebConfig(const std::string& yamlText, const std::string& baseDir);
/// Reads and parses a file (the agent reads it once, at start): a regular file of at most kMaxWebConfigBytes, whose
/// certificate and key are regular files of at most kMaxPemBytes; anything else is refused with the reason.
Result<WebConfig> loadWebConfig(const std::string& path);

/// Checks a password against a bcrypt hash with libxcrypt's crypt_r(3).
bool verifyBcrypt(const std::string& password, const std::string& hash);

} // namespace rdt::metrics
