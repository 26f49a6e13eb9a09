// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdt::cli {

/// Minimal GNU-style argument list: `--name VALUE`, `--name=VALUE`, `--flag`, positionals, and everything after
/// `--` kept verbatim (a command to launch). Options are declared up front so typos are reported, not ignored.
class Args {
public:
    /// valueOptions take a value (`--duration 5`); flagOptions do not (`--csv`). repeatable options collect all.
    static Result<Args> parse(const std::vector<std::string>& argv, const std::vector<std::string>& valueOptions,
        const std::vector<std::string>& flagOptions);

    bool has(const std::string& name) const { return m_values.count(name) != 0; }
    std::optional<std::string> value(const std::string& name) const;
    std::vector<std::string> values(const std::string& name) const;
    std::string valueOr(const std::string& name, const std::string& fallback) const;
    /// A number option; an unparsable value is an error naming the option.
    Result<double> number(const std::string& name, double fallback) const;

    const std::vector<std::string>& positionals() const { return m_positionals; }
    const std::vector<std::string>& trailing() const { return m_trailing; }

private:
    std::map<std::string, std::vector<std::string>> m_values;
    std::vector<std::string> m_positionals;
    std::vector<std::string> m_trailing;
};

} // namespace rdt::cli
