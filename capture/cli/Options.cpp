// SPDX-License-Identifier: GPL-3.0-or-later
#include "Options.h"

#include "core/Text.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace rdt::cli {

namespace {

std::string formatNumber(double d)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", d);
    return buf;
}

/// Usage lines are wrapped here, so they fit a terminal and the README's code blocks.
constexpr std::size_t kUsageWidth = 110;

bool repeatable(const CLI::Option* o)
{
    return o->get_expected_max() > 1;
}

/// "--window A:FROM..TO" (short name first when there is one: "-o OUT"); flags have no value name.
std::string optionUsage(const CLI::Option* o)
{
    std::string text = o->get_snames().empty() ? "--" + o->get_lnames().front() : "-" + o->get_snames().front();
    if (!o->get_type_name().empty()) text += " " + o->get_type_name();
    return text;
}

/// The options a usage line or an option list shows: not -h/--help, which every (sub)command has.
std::vector<const CLI::Option*> shownOptions(const CLI::App* app)
{
    return app->get_options([app](const CLI::Option* o) { return o->nonpositional() && o != app->get_help_ptr(); });
}

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

std::optional<double> checkNumber(const std::string& text, NumberRule rule)
{
    std::size_t used = 0;
    const auto v = parseFiniteDouble(text, &used);
    // NaN fails every comparison, so the range test also rejects it; parseFiniteDouble refuses infinities.
    if (!v || used != text.size() || !(*v >= rule.min && *v <= rule.max)) return std::nullopt;
    if (rule.whole && std::floor(*v) != *v) return std::nullopt;
    return v;
}

std::string describeRule(NumberRule rule)
{
    return std::string(rule.whole ? "a whole number" : "a number") + " from " + formatNumber(rule.min) + " to "
        + formatNumber(rule.max);
}

std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const
{
    std::vector<std::string> words;
    std::vector<std::string> trailing; // "[-- COMMAND ARGS...]" comes last
    for (const auto* p : app->get_options([](const CLI::Option* o) { return o->get_positional(); })) {
        std::string text = p->get_type_name() + (repeatable(p) && !endsWith(p->get_type_name(), "...") ? "..." : "");
        if (!p->get_required()) text = "[" + text + "]";
        (p->get_type_name().rfind("--", 0) == 0 ? trailing : words).push_back(text);
    }
    // Option groups hold options of which one (or at most one) is given: "(--csv | --json)".
    for (const auto* group : app->get_subcommands([](const CLI::App* s) { return s->get_name().empty(); })) {
        std::string alternatives;
        for (const auto* o : shownOptions(group))
            alternatives += (alternatives.empty() ? "" : " | ") + optionUsage(o);
        if (!alternatives.empty())
            words.push_back(group->get_require_option_min() > 0 ? "(" + alternatives + ")" : "[" + alternatives + "]");
    }
    for (const auto* o : shownOptions(app)) {
        std::string text = optionUsage(o);
        if (!o->get_required()) text = "[" + text + "]";
        words.push_back(text + (repeatable(o) ? "..." : ""));
    }
    // Actions (groups list|create|...) after the options: those of the command may come before its action.
    std::string subcommands;
    for (const auto* sub : app->get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); }))
        subcommands += (subcommands.empty() ? "" : "|") + sub->get_name();
    if (!subcommands.empty()) words.push_back(subcommands);
    words.insert(words.end(), trailing.begin(), trailing.end());

    std::string out = "usage: " + name;
    const std::size_t indent = out.size() + 1;
    std::size_t lineStart = 0;
    for (const auto& w : words) {
        if (out.size() - lineStart + 1 + w.size() > kUsageWidth && out.size() - lineStart > indent) {
            out += "\n";
            lineStart = out.size();
            out += std::string(indent - 1, ' ');
        }
        out += " " + w;
    }
    return out + "\n";
}

std::string HelpFormatter::make_option_name(const CLI::Option* opt, bool positional) const
{
    return positional ? opt->get_type_name() : CLI::Formatter::make_option_name(opt, positional);
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const
{
    if (opt->get_positional() || opt->get_type_name().empty()) return {};
    return " " + opt->get_type_name() + (repeatable(opt) ? " ..." : "");
}

std::string HelpFormatter::make_expanded(const CLI::App* sub) const
{
    if (!sub->get_name().empty()) return CLI::Formatter::make_expanded(sub);
    // An option group's options belong in the command's option list (the usage line shows the grouping).
    std::string out;
    for (const auto* o : shownOptions(sub))
        out += make_option(o, false);
    return out;
}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const
{
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    std::ostringstream out;
    out << make_usage(app, name) << "\n";
    if (!app->get_description().empty()) out << app->get_description() << "\n";
    out << make_positionals(app) << make_groups(app, mode) << make_subcommands(app, mode);
    if (!app->get_footer().empty()) out << "\n" << app->get_footer() << "\n";
    return out.str();
}

} // namespace rdt::cli
