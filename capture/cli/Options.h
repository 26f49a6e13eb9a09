// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How rdtscope-cli declares its options: CLI11 parses them, and the value rules below check them, so a command's
// options, their checks and its --help come from one declaration.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace rdt::cli {

/// What a number option accepts. NaN and infinities are never accepted, and a value outside [min, max] (or with
/// a fraction when whole) is an error naming the option and the range.
struct NumberRule {
    double min;
    double max;
    bool whole = false;
};

/// Shared rules, so the same kind of option accepts the same values in every command.
/// Sampling intervals in milliseconds: 1 ms up to one hour (below 1 ms the kernel's counters barely move and a
/// loop would spin).
inline constexpr NumberRule kIntervalMs { 1, 3'600'000 };
/// Capture durations in seconds: 1 ms up to 10^7 s (about 115 days).
inline constexpr NumberRule kDurationSeconds { 0.001, 1e7 };
/// Offsets into a session in seconds (--from/--to).
inline constexpr NumberRule kSessionSeconds { 0, 1e9 };
/// Row counts of a report (--top).
inline constexpr NumberRule kTopRows { 1, 1e6, true };
/// Logical CPU numbers (the kernel's NR_CPUS is at most 8192 on x86; 65535 leaves room for any dump).
inline constexpr NumberRule kCpuNumber { 0, 65535, true };

/// The one check of a number option's text: its value, or nothing when it is not a number `rule` accepts. Read as
/// parseFiniteDouble reads numbers: the whole text, the same in every locale, NaN and infinities refused.
std::optional<double> checkNumber(const std::string& text, NumberRule rule);
/// "a whole number from 1 to 1000000": the rule in words, for messages and --help.
std::string describeRule(NumberRule rule);

/// A word a number option also accepts, standing for a value (`--speed max`).
struct NumberWord {
    std::string word;
    double value;
};

/// Adds `name` (e.g. "--interval") taking one number that `rule` checks, or `word` when given; `target` (a double
/// or an optional<double>) receives it. A bad value is a CLI11 parse error (a usage error) naming the option and
/// the rule; `help` gets the rule appended, so --help and the check cannot disagree.
template <typename T>
CLI::Option* addNumber(CLI::App& app, const std::string& name, T& target, NumberRule rule, const std::string& valueName,
    const std::string& help, std::optional<NumberWord> word = {})
{
    const std::string accepted = describeRule(rule) + (word ? ", or " + word->word : "");
    auto* opt = app.add_option(
        name,
        [&target, rule, word, name, accepted](const CLI::results_t& r) {
            if (word && r.back() == word->word) {
                target = word->value;
                return true;
            }
            const auto v = checkNumber(r.back(), rule);
            if (!v) throw CLI::ValidationError("option " + name + " takes " + accepted + ", got '" + r.back() + "'");
            target = *v;
            return true;
        },
        help + (help.empty() ? "" : "; ") + accepted);
    opt->type_name(valueName)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    return opt;
}

/// A CLI11 validator over one of the project's parsers or checks (`rule(text)` returns a Result or a Status): the
/// value is refused at parse time, as a usage error, with the rule's own message.
template <typename Rule> CLI::Validator checkedBy(Rule rule)
{
    return CLI::Validator(
        [rule](std::string& text) {
            const auto r = rule(text);
            return r ? std::string() : r.error().toString();
        },
        "");
}

/// Adds a positional argument; `name` is how usage lines and --help show it ("FILE", "tma|lbr|mem").
template <typename T> CLI::Option* addPositional(CLI::App& app, const std::string& name, T& target, std::string help)
{
    return app.add_option(name, target, std::move(help))->type_name(name);
}

/// The formatter of every --help: "usage:" lines listing each option (generated from the declarations, wrapped),
/// the command's description, its options, then its footer.
class HelpFormatter : public CLI::Formatter {
public:
    std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;
    std::string make_usage(const CLI::App* app, std::string name) const override;
    std::string make_option_name(const CLI::Option* opt, bool positional) const override;
    std::string make_option_opts(const CLI::Option* opt) const override;
    std::string make_expanded(const CLI::App* sub) const override;
};

} // namespace rdt::cli
