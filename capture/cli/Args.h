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
    /// What a number option accepts. Every number option has one: NaN and infinities are never accepted, and
    /// a value outside [min, max] (or with a fraction when whole) is an error naming the option and the range.
    struct NumberRule {
        double min;
        double max;
        bool whole = false;
    };
    /// A number option checked against its rule; `fallback` (which may lie outside the rule, e.g. -1 for
    /// "not given") is returned unchecked when the option is absent.
    Result<double> number(const std::string& name, double fallback, NumberRule rule) const;

    const std::vector<std::string>& positionals() const { return m_positionals; }
    const std::vector<std::string>& trailing() const { return m_trailing; }

private:
    std::map<std::string, std::vector<std::string>> m_values;
    std::vector<std::string> m_positionals;
    std::vector<std::string> m_trailing;
};

/// Shared rules, so the same kind of option accepts the same values in every command.
/// Sampling intervals in milliseconds: 1 ms up to one hour (below 1 ms the kernel's counters barely move and a
/// loop would spin).
inline constexpr Args::NumberRule kIntervalMs { 1, 3'600'000 };
/// Capture durations in seconds: 1 ms up to 10^7 s (about 115 days).
inline constexpr Args::NumberRule kDurationSeconds { 0.001, 1e7 };
/// Offsets into a session in seconds (--from/--to).
inline constexpr Args::NumberRule kSessionSeconds { 0, 1e9 };
/// Row counts of a report (--top).
inline constexpr Args::NumberRule kTopRows { 1, 1e6, true };
/// Logical CPU numbers (the kernel's NR_CPUS is at most 8192 on x86; 65535 leaves room for any dump).
inline constexpr Args::NumberRule kCpuNumber { 0, 65535, true };

} // namespace rdt::cli
