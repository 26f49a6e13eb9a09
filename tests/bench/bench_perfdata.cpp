// SPDX-License-Identifier: GPL-3.0-or-later
// perf.data import benchmark (issues 8 and 46): generated LBR perf.data files of 256 MiB and 1 GiB (or
// RDTSCOPE_PERFDATA_BENCH_MB MiB only) made by replaying propeller_sample_1's samples, then on each
//   cat:   `cat FILE > /dev/null` with the file in the page cache (the floor: reading it at all)
//   ours:  import + branch call graph (rdt::perfdata::importPerfData, symbols through the real binary), on two
//          threads, in the pipelined single pass, and as `report` chooses (the ratios are of the last)
//   perf:  `perf report --stdio -b` on the same file with the same binary
// each in its own child process, timed on the wall clock with the child's CPU time and peak RSS (wait4). Prints
// the two ratios of issue 46.
// Also a Google Benchmark of the reader alone on the fixture (records/s).

#include "PerfDataGenerator.h"
#include "perfdata/PerfDataImport.h"
#include "perfdata/PerfDataReader.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

const std::string Fixtures = std::string(RDTSCOPE_TEST_DATA) + "/perf";
const std::string PropellerRecorded = "/build/work/11ef31a2a8be9640fa8d4c917e76f0db3923/google3/blaze-out/k8-opt/"
                                      "genfiles/devtools/crosstool/autofdo/testdata/propeller_sample_1.bin.gen";

constexpr int Repeats = 5;

struct ChildRun {
    double seconds = 0;
    double cpuSeconds = 0; ///< user + system time of the child
    long maxRssKb = 0;
    int status = -1;
};

template <typename F> ChildRun inChild(F&& work)
{
    ChildRun r;
    std::fflush(stdout); // the child must not flush the parent's buffered lines again
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) _exit(work());
    rusage ru {};
    int status = 0;
    wait4(pid, &status, 0, &ru);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.maxRssKb = ru.ru_maxrss;
    r.cpuSeconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec)
        + static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    r.status = status;
    return r;
}

void BM_ReadPropeller(benchmark::State& state)
{
    std::uint64_t records = 0;
    for (auto _ : state) {
        auto r = rdt::perfdata::PerfDataReader::open(Fixtures + "/propeller_sample_1.perfdata");
        auto st = (*r)->read([](const rdt::pmu::DecodedRecord&) { return true; });
        records += st->records;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(records));
}
BENCHMARK(BM_ReadPropeller)->Unit(benchmark::kMillisecond);

/// The median run of `n` (by wall time).
template <typename F> ChildRun medianOf(int n, F&& run)
{
    std::vector<ChildRun> runs;
    for (int i = 0; i < n; ++i)
        runs.push_back(run());
    std::sort(runs.begin(), runs.end(), [](const ChildRun& a, const ChildRun& b) { return a.seconds < b.seconds; });
    return runs[runs.size() / 2];
}

void compareWithPerf(std::uint64_t mb, const std::string& dir, const std::string& symfs)
{
    const std::string file = dir + "/lbr-" + std::to_string(mb) + "M.perfdata";
    const auto gen = rdt::bench::writeReplayedPerfData(Fixtures + "/propeller_sample_1.perfdata", file, mb << 20);
    if (!gen) {
        std::printf("generator failed: %s\n", gen.error().toString().c_str());
        return;
    }
    const double mib = static_cast<double>(gen->bytes) / (1 << 20);
    std::printf("\n== %llu MiB: generated %s: %.1f MiB, %llu samples x 32 LBR entries, %llu FINISHED_ROUNDs\n",
        static_cast<unsigned long long>(mb), file.c_str(), mib, static_cast<unsigned long long>(gen->samples),
        static_cast<unsigned long long>(gen->rounds));

    // The floor: reading the same file from the page cache (it was just written, and is read once more to warm it).
    const auto catRun = [&]() {
        return inChild([&]() {
            const std::string cmd = "exec cat '" + file + "' > /dev/null";
            execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
            return 127;
        });
    };
    (void)catRun();
    const auto pageCache = medianOf(Repeats, catRun);
    std::printf("cat FILE > /dev/null (page cache):  %.3f s wall, %.3f s CPU (%.0f MiB/s)\n", pageCache.seconds,
        pageCache.cpuSeconds, mib / pageCache.seconds);
    const auto readOnly = medianOf(Repeats, [&]() {
        return inChild([&]() {
            auto r = rdt::perfdata::PerfDataReader::open(file);
            if (!r) return 1;
            std::uint64_t branches = 0;
            auto st = (*r)->read([&](const rdt::pmu::DecodedRecord& rec) {
                branches += rec.sample.branches.size();
                return true;
            });
            return st && branches > 0 ? 0 : 1;
        });
    });
    std::printf("rdtscope read + decode only:        %.3f s wall, %.3f s CPU (%.0f MiB/s), peak RSS %.0f MiB%s\n",
        readOnly.seconds, readOnly.cpuSeconds, mib / readOnly.seconds, static_cast<double>(readOnly.maxRssKb) / 1024.0,
        readOnly.status == 0 ? "" : " (FAILED)");
    // The real import `report --lbr` runs: every record decoded, symbols through the real binary, the branch graph;
    // on both threads (ImportOptions::threads 2), in the pipelined single pass (1), and as `report` runs it (0: two
    // threads when the load average leaves a core idle).
    const auto importRun = [&](unsigned threads) {
        return medianOf(Repeats, [&]() {
            return inChild([&]() {
                rdt::perfdata::ImportOptions opt;
                opt.symfs = { Fixtures };
                opt.threads = threads;
                auto r = rdt::perfdata::importPerfData(file, opt);
                return r && r->samples == gen->samples && !r->lbr.edges.empty() ? 0 : 1;
            });
        });
    };
    const auto printImport = [&](const char* what, const ChildRun& run) {
        std::printf("%s %.3f s wall, %.3f s CPU (%.0f MiB/s, %.0f k samples/s), peak RSS %.0f MiB%s\n", what,
            run.seconds, run.cpuSeconds, mib / run.seconds, static_cast<double>(gen->samples) / run.seconds / 1000.0,
            static_cast<double>(run.maxRssKb) / 1024.0, run.status == 0 ? "" : " (FAILED)");
    };
    double load = 0;
    (void)getloadavg(&load, 1);
    printImport("rdtscope import, two threads:      ", importRun(2));
    printImport("rdtscope import, pipelined pass:   ", importRun(1));
    const auto ours = importRun(0);
    std::printf("(load average %.1f: `report` uses %s)\n", load,
        load < static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN)) - 1.0 ? "two threads" : "the pipelined pass");
    printImport("rdtscope import + branch graph:    ", ours);
    std::printf("ratio: rdtscope import is %.1fx a page-cache read\n", ours.seconds / pageCache.seconds);

    if (std::system("perf --version >/dev/null 2>&1") != 0) {
        std::printf("perf is not installed (Debian package linux-perf): no comparison\n");
        std::filesystem::remove(file);
        return;
    }
    const auto perf = inChild([&]() {
        const std::string cmd
            = "exec perf report --stdio -b -i '" + file + "' --symfs '" + symfs + "' > /dev/null 2>&1";
        execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        return 127;
    });
    std::printf("perf report --stdio -b:             %.3f s wall, %.3f s CPU (%.0f MiB/s), peak RSS %.0f MiB%s\n",
        perf.seconds, perf.cpuSeconds, mib / perf.seconds, static_cast<double>(perf.maxRssKb) / 1024.0,
        perf.status == 0 ? "" : " (perf exited with an error)");
    std::printf("ratio: rdtscope is %.1fx faster than perf, with %.1fx less peak memory\n", perf.seconds / ours.seconds,
        static_cast<double>(perf.maxRssKb) / static_cast<double>(std::max(1L, ours.maxRssKb)));
    std::filesystem::remove(file);
}

void compareWithPerf()
{
    // RDTSCOPE_PERFDATA_BENCH_MB=N measures one size only (e.g. while profiling); by default both of issue 46.
    std::vector<std::uint64_t> sizes { 256, 1024 };
    if (const char* env = std::getenv("RDTSCOPE_PERFDATA_BENCH_MB")) sizes = { std::strtoull(env, nullptr, 10) };
    const std::string dir = std::filesystem::temp_directory_path().string() + "/rdtscope-bench-perfdata";
    std::filesystem::create_directories(dir);
    const std::string symfs = dir + "/symfs";
    const std::filesystem::path bin = symfs + PropellerRecorded;
    std::filesystem::create_directories(bin.parent_path());
    std::filesystem::copy_file(
        Fixtures + "/propeller_sample_1.bin", bin, std::filesystem::copy_options::overwrite_existing);
    std::printf(
        "\nmedians of %d runs (perf: one run); wall on the clock, CPU = the child's user + system time\n", Repeats);
    for (const auto mb : sizes)
        compareWithPerf(mb, dir, symfs);
}

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    compareWithPerf();
    return 0;
}
