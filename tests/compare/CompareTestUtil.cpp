// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareTestUtil.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/file.h>
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
    // ctest runs every test in its own process: the pair is recorded once into the build tree (under a lock, as
    // tests may run in parallel) and reused while it is newer than the rdtscope-cli that recorded it.
    static const SessionPair pair = [] {
        namespace fs = std::filesystem;
        const fs::path dir = fs::path(RDTSCOPE_COMPARE_WORK);
        fs::create_directories(dir);
        SessionPair p { (dir / "before.rdts").string(), (dir / "after.rdts").string() };
        const int lock = ::open((dir / "lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
        if (lock >= 0) ::flock(lock, LOCK_EX);
        std::error_code ec;
        const auto cliTime = fs::last_write_time(RDTSCOPE_CLI, ec);
        auto fresh = [&](const std::string& f) {
            std::error_code e;
            return fs::exists(f, e) && fs::exists(f + ".ok", e) && fs::last_write_time(f, e) > cliTime;
        };
        for (const auto& [file, seconds] : { std::pair { p.before, "19" }, { p.after, "60" } }) {
            if (fresh(file)) continue;
            fs::remove(file + ".ok", ec);
            int rc = -1;
            auto out
                = cli("record -o '" + file + "' --force --source sim --scenario noisy-neighbour --duration " + seconds,
                    &rc, true);
            EXPECT_EQ(rc, 0) << out;
            if (rc == 0) std::ofstream(file + ".ok") << "recorded\n";
        }
        if (lock >= 0) ::close(lock);
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
