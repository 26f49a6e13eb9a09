// SPDX-License-Identifier: GPL-3.0-or-later
#include "Scenario.h"

#include "EmbeddedScenarios.h"
#include "SimCpuid.h"
#include "Workload.h"
#include "core/BoundedFile.h"
#include "core/Text.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace rdt::sim {

namespace {

constexpr double kMaxDurationNs = 100.0 * 365.25 * 24 * 3600 * 1e9;

std::vector<std::string> words(const std::string& line)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    std::string w;
    while (in >> w)
        out.push_back(w);
    return out;
}

/// The rest of the line after skipping n words (keeps inner spaces), without surrounding quotes.
std::string restAfter(const std::string& line, std::size_t n)
{
    std::size_t pos = 0;
    for (std::size_t i = 0; i < n; ++i) {
        pos = line.find_first_not_of(" \t", pos);
        pos = line.find_first_of(" \t", pos);
        if (pos == std::string::npos) return {};
    }
    pos = line.find_first_not_of(" \t", pos);
    if (pos == std::string::npos) return {};
    std::string r = line.substr(pos);
    while (!r.empty() && (r.back() == ' ' || r.back() == '\t' || r.back() == '\r'))
        r.pop_back();
    if (r.size() >= 2 && r.front() == '"' && r.back() == '"') r = r.substr(1, r.size() - 2);
    return r;
}

bool splitKv(const std::string& w, std::string& k, std::string& v)
{
    auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    k = w.substr(0, eq);
    v = w.substr(eq + 1);
    return true;
}

Result<std::uint64_t> number(const std::string& s)
{
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), &end, 0);
    if (s.empty() || *end != '\0' || errno != 0) return errnoError(EINVAL, "'" + s + "' is not a number");
    return static_cast<std::uint64_t>(v);
}

const char* const kVerbs[]
    = { "mkdir", "rmdir", "write", "thread", "set", "move", "assign", "msr", "unavailable", "note", "flush" };

} // namespace

Result<std::uint64_t> parseDuration(const std::string& text)
{
    std::size_t used = 0;
    const auto v = parseFiniteDouble(text, &used);
    if (!v || *v < 0) return errnoError(EINVAL, "bad time '" + text + "'", "write e.g. 10s, 250ms, 1.5s, 2m");
    const std::string unit = text.substr(used);
    double mult = unit == "s" || unit.empty() ? 1e9
        : unit == "ms"                        ? 1e6
        : unit == "us"                        ? 1e3
        : unit == "ns"                        ? 1
        : unit == "m"                         ? 60e9
                                              : -1;
    if (mult < 0) return errnoError(EINVAL, "bad time unit in '" + text + "'", "use ns, us, ms, s or m");
    // Checked before the conversion: beyond 2^64 ns the cast is undefined behaviour. A century is plenty.
    if (*v * mult > kMaxDurationNs)
        return errnoError(EINVAL, "time '" + text + "' is longer than a century", "scenario times are at most 3.1e9s");
    return static_cast<std::uint64_t>(*v * mult + 0.5);
}

Result<Scenario> parseScenario(const std::string& text, const std::string& name, const std::string& baseDir)
{
    Scenario sc;
    sc.name = name;
    std::istringstream in(text);
    std::string raw;
    int lineNo = 0;
    auto err = [&](const std::string& what) {
        return errnoError(EINVAL, name + ":" + std::to_string(lineNo) + ": " + what,
            "see resources/scenarios/README.md for the scenario format");
    };
    while (std::getline(in, raw)) {
        ++lineNo;
        std::string line = raw;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto w = words(line);
        if (w.empty() || w[0][0] == '#') continue;
        std::size_t skip = 0;
        std::uint64_t at = 0;
        if (w[0] == "at") {
            if (w.size() < 3) return err("'at' needs a time and a command");
            auto t = parseDuration(w[1]);
            if (!t) return err(t.error().message);
            at = *t;
            skip = 2;
        }
        const std::string& verb = w[skip];
        if (skip == 0) { // header keywords (never timed)
            if (verb == "name") {
                sc.name = restAfter(line, 1);
                continue;
            }
            if (verb == "title") {
                sc.title = restAfter(line, 1);
                continue;
            }
            if (verb == "duration") {
                auto d = w.size() == 2 ? parseDuration(w[1])
                                       : Result<std::uint64_t>(errnoError(EINVAL, "duration needs a time"));
                if (!d) return err(d.error().message);
                sc.durationNs = *d;
                continue;
            }
            if (verb == "machine") {
                for (std::size_t i = 1; i < w.size(); ++i) {
                    std::string k, v;
                    if (!splitKv(w[i], k, v)) return err("machine settings are key=value, got '" + w[i] + "'");
                    if (k == "preset") {
                        sc.preset = v;
                        continue;
                    }
                    if (k == "cpuid") {
                        sc.cpuidFile = (!v.empty() && v[0] != '/' && !baseDir.empty()) ? baseDir + "/" + v : v;
                        continue;
                    }
                    if (k == "tick") {
                        auto t = parseDuration(v);
                        if (!t || *t == 0) return err("bad tick '" + v + "'");
                        sc.tickNs = *t;
                        continue;
                    }
                    auto n = number(v);
                    if (!n) return err(n.error().message);
                    if (k == "sockets")
                        sc.sockets = unsigned(*n);
                    else if (k == "cores")
                        sc.cores = unsigned(*n);
                    else if (k == "threads_per_core")
                        sc.threadsPerCore = unsigned(*n);
                    else if (k == "sampling")
                        sc.sampling = std::uint32_t(*n);
                    else
                        return err("unknown machine setting '" + k + "'");
                }
                continue;
            }
            if (verb == "override") {
                for (std::size_t i = 1; i < w.size(); ++i) {
                    std::string k, v;
                    if (!splitKv(w[i], k, v)) return err("overrides are key=value, got '" + w[i] + "'");
                    auto n = number(v);
                    if (!n) return err(n.error().message);
                    sc.overrides.emplace_back(k, *n);
                }
                continue;
            }
            if (verb == "mount") {
                for (std::size_t i = 1; i < w.size(); ++i) {
                    std::string k, v;
                    if (w[i] == "cdp")
                        sc.cdp = true;
                    else if (w[i] == "cdpl2")
                        sc.cdpl2 = true;
                    else if (splitKv(w[i], k, v) && k == "min_cbm_bits" && number(v))
                        sc.minCbmBits = unsigned(*number(v));
                    else
                        return err("unknown mount option '" + w[i] + "' (cdp, cdpl2, min_cbm_bits=N)");
                }
                continue;
            }
        }
        if (std::find(std::begin(kVerbs), std::end(kVerbs), verb) == std::end(kVerbs))
            return err("unknown command '" + verb + "'");
        ScenarioStep st;
        st.atNs = at;
        st.verb = verb;
        st.line = lineNo;
        if (verb == "write") {
            if (w.size() < skip + 3) return err("write needs a path and the text to write");
            st.args = { w[skip + 1], restAfter(line, skip + 2) };
        } else if (verb == "note") {
            st.args = { restAfter(line, skip + 1) };
        } else {
            st.args.assign(w.begin() + long(skip) + 1, w.end());
        }
        // Validate what can be checked without a machine, so a typo fails at load time, not at 40 s.
        if (verb == "thread" || verb == "set") {
            if (st.args.empty()) return err(verb + " needs a thread name");
            WorkloadSpec probe;
            for (std::size_t i = 1; i < st.args.size(); ++i) {
                std::string k, v;
                if (!splitKv(st.args[i], k, v)) return err("thread settings are key=value, got '" + st.args[i] + "'");
                if (k == "cpu" || k == "group") continue;
                if (auto s = applyWorkloadSetting(probe, k, v); !s) return err(s.error().message);
            }
        }
        if ((verb == "mkdir" || verb == "rmdir" || verb == "flush") && st.args.size() != (verb == "flush" ? 0u : 1u))
            return err(verb + " takes " + (verb == "flush" ? "no arguments" : "one path"));
        sc.steps.push_back(std::move(st));
    }
    std::stable_sort(
        sc.steps.begin(), sc.steps.end(), [](const ScenarioStep& a, const ScenarioStep& b) { return a.atNs < b.atNs; });
    return sc;
}

std::vector<std::string> builtinScenarioNames()
{
    std::vector<std::string> out;
    for (const auto& s : embeddedScenarios())
        out.push_back(s.name);
    return out;
}

Result<Scenario> loadScenario(const std::string& nameOrPath)
{
    for (const auto& s : embeddedScenarios())
        if (s.name == nameOrPath) {
            auto sc = parseScenario(s.text, s.name);
            if (sc) sc->source = "built-in";
            return sc;
        }
    if (::access(nameOrPath.c_str(), F_OK) != 0) {
        std::string names;
        for (const auto& n : builtinScenarioNames())
            names += (names.empty() ? "" : ", ") + n;
        return errnoError(
            ENOENT, "no built-in scenario or readable file '" + nameOrPath + "'", "built-in scenarios: " + names);
    }
    // A scenario is a page of text; 1 MiB leaves room for generated ones and keeps /dev/zero out.
    auto text = readBoundedFile(nameOrPath, 1u << 20, "scenario");
    if (!text) return text.error();
    auto slash = nameOrPath.find_last_of('/');
    std::string dir = slash == std::string::npos ? "." : nameOrPath.substr(0, slash);
    std::string base = slash == std::string::npos ? nameOrPath : nameOrPath.substr(slash + 1);
    auto sc = parseScenario(*text, base, dir);
    if (sc) sc->source = nameOrPath;
    return sc;
}

} // namespace rdt::sim
