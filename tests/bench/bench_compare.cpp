// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #20's figures: `diff` of two one-hour sessions (64 groups x 4 domains at 10 Hz, 9.2 M rows each; target
// under 2 s and 200 MiB) and of two 256 MiB LBR perf.data files (RDTSCOPE_COMPARE_BENCH_MB to change the size).
// Each comparison runs in a forked child so its peak RSS (ru_maxrss) is its own, not the generator's. The inputs
// are generated once into $TMPDIR and reused by later runs.

#include "PerfDataGenerator.h"
#include "compare/Compare.h"
#include "session/SessionReader.h"
#include "session/SessionWriter.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace rdt;
using namespace rdt::session;

namespace {

constexpr std::uint64_t kPolls = 36000; // one hour at 10 Hz
constexpr int kGroups = 64, kDomains = 4;

std::string tmpPath(const std::string& name)
{
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/" + name;
}

/// One hour of 64 groups x 4 domains; `shift` changes the values so A and B differ.
std::string hourSession(const std::string& name, std::uint64_t shift)
{
    const std::string path = tmpPath(name);
    // Reused from an earlier run only when complete and written with the minute sketches (rdt_summary.sketch).
    if (auto r = SessionReader::open(path);
        r && r.value()->closedCleanly() && r.value()->sampleCount() == kPolls * 256 && r.value()->sketchEnd())
        return path;
    std::filesystem::remove(path);
    SessionMeta meta;
    meta.startMonoNs = 1'000'000'000;
    meta.source = "synthetic";
    meta.simulated = true;
    meta.intervalNs = 100'000'000;
    auto w = SessionWriter::create(path, meta, MachineInfo {}, WriterOptions { true, 0 });
    if (!w) return {};
    for (std::uint64_t k = 0; k < kPolls; ++k) {
        RdtSampleBatch b;
        b.timeNs = meta.startMonoNs + k * meta.intervalNs;
        for (int g = 0; g < kGroups; ++g)
            for (int d = 0; d < kDomains; ++d) {
                const auto gd = static_cast<std::uint64_t>(g * kDomains + d);
                RdtSample s;
                s.timeNs = b.timeNs;
                s.group = "g" + std::to_string(g);
                s.domain = d;
                s.occupancyBytes = (1u << 20) + ((k * 7919 + gd * 104729 + shift) % 4096) * 4096;
                s.mbmTotalBps = 1.5e9 + static_cast<double>((k * 31 + gd + shift) % 1000) * 1e6;
                s.mbmLocalBps = 1.0e9 + static_cast<double>((k * 17 + gd) % 1000) * 1e6;
                s.flags = k == 0 ? static_cast<std::uint32_t>(SampleFirst) : 0u;
                b.samples.push_back(std::move(s));
            }
        if (!w.value()->addSamples(b)) return {};
        if (k % 5 == 4 && !w.value()->flush()) return {};
    }
    if (!w.value()->close()) return {};
    return path;
}

struct ChildFigures {
    double wallS = 0;
    long maxRssKb = 0;
    double cpuS = 0; ///< the child's user + system time (both files are read in parallel)
    std::size_t rows = 0;
    bool ok = false;
};

/// Compares a and b in a child process; its wall time (through a pipe) and its own peak RSS.
ChildFigures compareInChild(const std::string& a, const std::string& b)
{
    int fds[2];
    if (::pipe(fds) != 0) return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        const auto t0 = std::chrono::steady_clock::now();
        compare::CompareRequest req;
        req.pathA = a;
        req.pathB = b;
        auto c = compare::compareFiles(req);
        double out[2] = { std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
            c ? static_cast<double>(c->rows.size()) : -1.0 };
        if (!c) std::fprintf(stderr, "compare failed: %s\n", c.error().toString().c_str());
        (void)!::write(fds[1], out, sizeof out);
        ::_exit(c ? 0 : 1);
    }
    ::close(fds[1]);
    double in[2] = {};
    const bool got = ::read(fds[0], in, sizeof in) == static_cast<ssize_t>(sizeof in);
    ::close(fds[0]);
    int status = 0;
    rusage ru {};
    ::wait4(pid, &status, 0, &ru);
    ChildFigures f;
    f.ok = got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    f.wallS = in[0];
    f.rows = static_cast<std::size_t>(in[1]);
    f.maxRssKb = ru.ru_maxrss;
    f.cpuS = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec)
        + static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    return f;
}

void report(benchmark::State& state, const ChildFigures& f)
{
    if (!f.ok) {
        state.SkipWithError("the comparison failed");
        return;
    }
    state.counters["wall_s"] = f.wallS;
    state.counters["cpu_s"] = f.cpuS;
    state.counters["peak_rss_MiB"] = static_cast<double>(f.maxRssKb) / 1024.0;
    state.counters["rows"] = static_cast<double>(f.rows);
}

void BM_DiffTwoOneHourSessions(benchmark::State& state)
{
    const std::string a = hourSession("rdtscope-bench-compare-a.rdts", 0);
    const std::string b = hourSession("rdtscope-bench-compare-b.rdts", 500);
    if (a.empty() || b.empty()) {
        state.SkipWithError("could not write the one-hour sessions");
        return;
    }
    ChildFigures f;
    for (auto _ : state)
        f = compareInChild(a, b);
    report(state, f);
}
BENCHMARK(BM_DiffTwoOneHourSessions)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_DiffTwoLbrPerfDataFiles(benchmark::State& state)
{
    const char* mbEnv = std::getenv("RDTSCOPE_COMPARE_BENCH_MB");
    const std::uint64_t mb = mbEnv ? std::strtoull(mbEnv, nullptr, 10) : 256;
    const std::string src = std::string(RDTSCOPE_TEST_DATA) + "/perf/propeller_sample_1.perfdata";
    const std::string a = tmpPath("rdtscope-bench-compare-a.perfdata"),
                      b = tmpPath("rdtscope-bench-compare-b.perfdata");
    for (const auto& [path, bytes] : { std::pair { a, mb << 20 }, { b, (mb << 20) + (mb << 17) } }) {
        std::error_code ec;
        if (std::filesystem::exists(path, ec) && std::filesystem::file_size(path, ec) >= bytes) continue;
        if (!bench::writeReplayedPerfData(src, path, bytes)) {
            state.SkipWithError("could not generate the perf.data files");
            return;
        }
    }
    ChildFigures f;
    for (auto _ : state)
        f = compareInChild(a, b);
    report(state, f);
    state.counters["MiB_each"] = static_cast<double>(mb);
}
BENCHMARK(BM_DiffTwoLbrPerfDataFiles)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

BENCHMARK_MAIN();
