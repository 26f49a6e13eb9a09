// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareTestUtil.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace rdt::compare::test {

std::string run(const std::string& command, int* exitCode, bool mergeStderr)
{
    const std::string full = command + (mergeStderr ? " 2>&1" : " 2>/dev/null");
    FILE* p = ::popen(full.c_str(), "r");
    if (!p) {
        *exitCode = -1;
        return {};
    }
    std::string out;
    std::array<char, 4096> buf {};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0)
        out.append(buf.data(), n);
    const int status = ::pclose(p);
    *exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

std::string cli(const std::string& args, int* exitCode, bool mergeStderr)
{
#ifdef RDTSCOPE_CLI
    return run(std::string("'") + RDTSCOPE_CLI + "' " + args, exitCode, mergeStderr);
#else
    *exitCode = -1;
    return "rdtscope-cli was not built";
#endif
}

std::string tempDir()
{
    static int counter = 0;
    const auto dir = std::filesystem::temp_directory_path()
        / ("rdtscope-compare-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(dir);
    static std::vector<std::filesystem::path> made;
    made.push_back(dir);
    static const bool registered = [] {
        std::atexit([] {
            std::error_code ec;
            for (const auto& d : made)
                std::filesystem::remove_all(d, ec);
        });
        return true;
    }();
    (void)registered;
    return dir.string();
}

std::string dataPath(const std::string& name)
{
    return std::string(RDTSCOPE_TEST_DATA) + "/perf/" + name;
}

const SessionPair& noisyNeighbourPair()
{
    static const SessionPair pair = [] {
        const std::string dir = tempDir();
        SessionPair p { dir + "/before.rdts", dir + "/after.rdts" };
        int rc = -1;
        auto out = cli("record -o '" + p.before + "' --source sim --scenario noisy-neighbour --duration 19", &rc, true);
        EXPECT_EQ(rc, 0) << out;
        out = cli("record -o '" + p.after + "' --source sim --scenario noisy-neighbour --duration 60", &rc, true);
        EXPECT_EQ(rc, 0) << out;
        return p;
    }();
    return pair;
}

const DiffRow* findRow(const Comparison& c, Section s, const std::string& item, const std::string& metric, int domain)
{
    for (const auto& r : c.rows)
        if (r.section == s && r.item == item && r.metric == metric && (domain < 0 || r.domain == domain)) return &r;
    return nullptr;
}

} // namespace rdt::compare::test
