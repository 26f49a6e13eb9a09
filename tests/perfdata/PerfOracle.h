// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Linux perf as an independent oracle: run it on the same file and parse what it prints.

#include <array>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace rdt::perfdata::test {

inline std::string dataPath(const std::string& name)
{
    return std::string(RDTSCOPE_TEST_DATA) + "/perf/" + name;
}

/// Runs a shell command and returns its stdout ("" when it cannot run).
inline std::string run(const std::string& cmd, int* status = nullptr)
{
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    std::array<char, 65536> buf;
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
        out.append(buf.data(), n);
    const int rc = pclose(p);
    if (status) *status = rc;
    return out;
}

inline bool perfInstalled()
{
    int rc = -1;
    run("perf --version 2>/dev/null", &rc);
    return rc == 0;
}

#define RDT_REQUIRE_PERF()                                                                                             \
    do {                                                                                                               \
        if (!rdt::perfdata::test::perfInstalled())                                                                     \
            GTEST_SKIP() << "Linux perf is not installed (Debian package linux-perf): the oracle comparison "          \
                            "cannot run";                                                                              \
    } while (0)

/// `perf report --stats`: "Aggregated stats" record counts by perf's type name, and SAMPLE counts per event name.
struct PerfStats {
    std::map<std::string, unsigned long> byType;
    std::map<std::string, unsigned long> samplesByEvent;
    std::map<std::string, unsigned long> lostSamplesByEvent;
};

inline PerfStats perfStats(const std::string& file)
{
    PerfStats s;
    std::istringstream in(run("perf report --stats -i '" + file + "' 2>/dev/null"));
    std::string line, event;
    bool aggregated = false;
    while (std::getline(in, line)) {
        if (line.find("Aggregated stats:") != std::string::npos) {
            aggregated = true;
            continue;
        }
        if (line.size() > 7 && line.compare(line.size() - 7, 7, " stats:") == 0) {
            aggregated = false;
            event = line.substr(0, line.size() - 7);
            continue;
        }
        const auto pos = line.find(" events:");
        if (pos == std::string::npos) continue;
        std::istringstream name(line.substr(0, pos));
        std::string type;
        name >> type;
        const unsigned long n = std::stoul(line.substr(pos + 8));
        if (aggregated)
            s.byType[type] = n;
        else if (type == "SAMPLE")
            s.samplesByEvent[event] = n;
        else if (type == "LOST_SAMPLES")
            s.lostSamplesByEvent[event] = n;
    }
    return s;
}

/// One branch entry as `perf script -F brstack` prints it: 0xFROM/0xTO/P|M|-/X|-/A|-/CYCLES/...
struct PerfBranch {
    unsigned long long from = 0, to = 0;
    char pred = '-';
    unsigned cycles = 0;
};

/// Every sample's branch stack, in file order (samples without branches give an empty vector).
inline std::vector<std::vector<PerfBranch>> perfBrstacks(const std::string& file)
{
    std::vector<std::vector<PerfBranch>> all;
    std::istringstream in(run("perf script -F brstack -i '" + file + "' 2>/dev/null"));
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string w;
        std::vector<PerfBranch> stack;
        while (words >> w) {
            std::vector<std::string> parts;
            std::string part;
            std::istringstream ps(w);
            while (std::getline(ps, part, '/'))
                parts.push_back(part);
            if (parts.size() < 6) continue;
            PerfBranch b;
            b.from = std::stoull(parts[0], nullptr, 16);
            b.to = std::stoull(parts[1], nullptr, 16);
            b.pred = parts[2].empty() ? '-' : parts[2][0];
            b.cycles = static_cast<unsigned>(std::stoul(parts[5]));
            stack.push_back(b);
        }
        all.push_back(std::move(stack));
    }
    return all;
}

} // namespace rdt::perfdata::test
