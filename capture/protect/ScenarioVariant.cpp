// SPDX-License-Identifier: GPL-3.0-or-later
#include "ScenarioVariant.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <sstream>

namespace rdt::protect {

namespace {

/// "250ms", "10s", "1.5s", "2m" in seconds; negative when it is not a duration.
double secondsOf(const std::string& t)
{
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end == t.c_str()) return -1;
    const std::string unit(end);
    if (unit == "s") return v;
    if (unit == "ms") return v / 1e3;
    if (unit == "us") return v / 1e6;
    if (unit == "m") return v * 60;
    return -1;
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, sep))
        if (!part.empty()) out.push_back(part);
    return out;
}

} // namespace

Result<ScenarioDefaults> protectDefaultsOf(const std::string& text)
{
    ScenarioDefaults d;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const std::string tag = "# protect:";
        if (line.rfind(tag, 0) != 0) continue;
        std::istringstream words(line.substr(tag.size()));
        std::string w;
        while (words >> w) {
            const auto eq = w.find('=');
            if (eq == std::string::npos)
                return errnoError(EINVAL, "scenario '# protect:' line: '" + w + "' is not key=value",
                    "write # protect: group=G target=T [be=G,G]");
            const std::string key = w.substr(0, eq), value = w.substr(eq + 1);
            if (key == "group")
                d.group = value;
            else if (key == "target")
                d.target = value;
            else if (key == "be")
                d.be = split(value, ',');
            else
                return errnoError(
                    EINVAL, "scenario '# protect:' line: unknown key '" + key + "'", "keys: group, target, be");
        }
    }
    return d;
}

std::string seededVariant(const std::string& text, std::uint64_t seed)
{
    if (seed == 0) return text;
    std::mt19937_64 rng(seed);
    std::map<double, double> moved; // a time and where it goes, drawn in order of first appearance
    std::istringstream in(text);
    std::string line, out;
    double lastMoved = 0;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string at, when;
        words >> at >> when;
        const double t = at == "at" ? secondsOf(when) : -1;
        if (t <= 0) {
            out += line + "\n";
            continue;
        }
        auto it = moved.find(t);
        if (it == moved.end()) {
            const double jitter = std::uniform_real_distribution<double>(-0.4, 0.4)(rng);
            // Keep the order of the times: never before a time already moved that came earlier.
            const double to = std::max({ 0.001, t + jitter, lastMoved });
            it = moved.emplace(t, to).first;
        }
        lastMoved = std::max(lastMoved, it->second);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0fms", std::round(it->second * 1000));
        const auto rest = line.find(when) + when.size();
        out += "at " + std::string(buf) + line.substr(rest) + "\n";
    }
    return out;
}

} // namespace rdt::protect
