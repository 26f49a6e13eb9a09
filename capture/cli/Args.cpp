// SPDX-License-Identifier: GPL-3.0-or-later
#include "Args.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rdt::cli {

namespace {

std::string formatNumber(double d)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", d);
    return buf;
}

} // namespace

Result<Args> Args::parse(const std::vector<std::string>& argv, const std::vector<std::string>& valueOptions,
    const std::vector<std::string>& flagOptions)
{
    Args a;
    auto contains = [](const std::vector<std::string>& v, const std::string& s) {
        return std::find(v.begin(), v.end(), s) != v.end();
    };
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg == "--") {
            a.m_trailing.assign(argv.begin() + static_cast<std::ptrdiff_t>(i) + 1, argv.end());
            break;
        }
        if (arg.size() > 2 && arg.rfind("--", 0) == 0) {
            std::string name = arg.substr(2);
            std::optional<std::string> inlineValue;
            if (auto eq = name.find('='); eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                name.resize(eq);
            }
            if (contains(valueOptions, name)) {
                if (!inlineValue) {
                    if (i + 1 >= argv.size()) return makeError("option --" + name + " needs a value", "see --help");
                    inlineValue = argv[++i];
                }
                a.m_values[name].push_back(*inlineValue);
            } else if (contains(flagOptions, name)) {
                if (inlineValue) return makeError("option --" + name + " takes no value", "see --help");
                a.m_values[name].push_back({});
            } else {
                return makeError("unknown option --" + name, "see --help");
            }
        } else {
            a.m_positionals.push_back(arg);
        }
    }
    return a;
}

std::optional<std::string> Args::value(const std::string& name) const
{
    auto it = m_values.find(name);
    if (it == m_values.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

std::vector<std::string> Args::values(const std::string& name) const
{
    auto it = m_values.find(name);
    return it == m_values.end() ? std::vector<std::string> {} : it->second;
}

std::string Args::valueOr(const std::string& name, const std::string& fallback) const
{
    return value(name).value_or(fallback);
}

Result<double> Args::number(const std::string& name, double fallback, NumberRule rule) const
{
    auto v = value(name);
    if (!v) return fallback;
    const std::string range = formatNumber(rule.min) + " to " + formatNumber(rule.max);
    const std::string expected = std::string(rule.whole ? "a whole number" : "a number") + " from " + range;
    // strtod follows LC_NUMERIC; the CLI never calls setlocale, so "." is the decimal point here.
    char* end = nullptr;
    const double d = std::strtod(v->c_str(), &end);
    if (v->empty() || end == nullptr || *end != '\0' || std::isspace(static_cast<unsigned char>(v->front())))
        return makeError("option --" + name + " takes " + expected + ", got '" + *v + "'", "see --help");
    // NaN fails every comparison, so the range test below also rejects it; inf is outside any finite range.
    if (!std::isfinite(d) || !(d >= rule.min && d <= rule.max))
        return makeError("option --" + name + " takes " + expected + ", got '" + *v + "'", "see --help");
    if (rule.whole && std::floor(d) != d)
        return makeError("option --" + name + " takes " + expected + ", got '" + *v + "'", "see --help");
    return d;
}

} // namespace rdt::cli
