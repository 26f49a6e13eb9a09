// SPDX-License-Identifier: GPL-3.0-or-later
// One sampler poll of 64 groups x 4 domains x 3 events through PosixFs on a tmpfs tree (/dev/shm), as a ratio
// to plain loops that pread() the same 768 files. Target: <= 1.3x. Prints the ratios after the benchmarks.
#include "core/PosixFs.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Sampler.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {
constexpr int kGroups = 64;
constexpr int kDomains = 4;
const char* kEvents[] = { "llc_occupancy", "mbm_total_bytes", "mbm_local_bytes" };

struct Tree {
    std::string root;
    std::vector<std::string> groups; ///< group paths as the backend names them ("" = default)
    std::vector<std::string> files; ///< absolute paths of the 768 counter files
    Tree()
    {
        const std::string base = std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp";
        char templ[256];
        std::snprintf(templ, sizeof templ, "%s/rdt-bench-XXXXXX", base.c_str());
        root = ::mkdtemp(templ);
        auto put = [](const std::string& p, const std::string& text) {
            std::filesystem::create_directories(std::filesystem::path(p).parent_path());
            std::ofstream(p) << text;
        };
        put(root + "/schemata", "L3:0=fffff;1=fffff;2=fffff;3=fffff\n");
        put(root + "/info/L3/cbm_mask", "fffff\n");
        put(root + "/info/L3/num_closids", "128\n");
        put(root + "/info/L3_MON/num_rmids", "256\n");
        put(root + "/info/L3_MON/mon_features", "llc_occupancy\nmbm_total_bytes\nmbm_local_bytes\n");
        for (int g = 0; g < kGroups; ++g) {
            const std::string path = g == 0 ? "" : "g" + std::to_string(g);
            groups.push_back(path);
            for (int d = 0; d < kDomains; ++d)
                for (const char* e : kEvents) {
                    char dir[32];
                    std::snprintf(dir, sizeof dir, "mon_data/mon_L3_%02d/", d);
                    const auto f = root + "/" + (path.empty() ? "" : path + "/") + dir + e;
                    put(f, std::to_string(123456789 + g * 1000 + d) + "\n");
                    files.push_back(f);
                }
        }
    }
    ~Tree() { std::filesystem::remove_all(root); }
};

Tree& tree()
{
    static Tree t;
    return t;
}

double g_pollNs = 0, g_openPreadNs = 0, g_preadNs = 0;

/// Thread CPU time (user + system) per iteration: on a shared 2-core machine wall time mostly measures the
/// other processes, CPU time measures the work.
double threadCpuNs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

template <typename F> void timed(benchmark::State& state, double& out, F&& body)
{
    std::uint64_t n = 0;
    const double t0 = threadCpuNs();
    for (auto _ : state) {
        body();
        ++n;
    }
    if (n) out = (threadCpuNs() - t0) / static_cast<double>(n);
}

void BM_SamplerPollPosixFs(benchmark::State& state)
{
    auto backend = rdt::ResctrlBackend::open(std::make_shared<rdt::PosixFs>(tree().root));
    if (!backend) {
        state.SkipWithError(backend.error().toString().c_str());
        return;
    }
    rdt::SamplerConfig cfg;
    cfg.groups = tree().groups;
    cfg.queueCapacity = 4;
    rdt::Sampler sampler(**backend, cfg);
    std::uint64_t t = 1;
    timed(state, g_pollNs, [&] {
        auto b = sampler.pollOnce(t += 100'000'000);
        benchmark::DoNotOptimize(b);
        while (sampler.queue().pop()) { }
    });
}

void BM_OpenPreadClose(benchmark::State& state)
{
    char buf[64];
    timed(state, g_openPreadNs, [&] {
        for (const auto& f : tree().files) {
            const int fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
            benchmark::DoNotOptimize(::pread(fd, buf, sizeof buf, 0));
            ::close(fd);
        }
    });
}

void BM_PreadOpenFds(benchmark::State& state)
{
    std::vector<int> fds;
    for (const auto& f : tree().files)
        fds.push_back(::open(f.c_str(), O_RDONLY | O_CLOEXEC));
    char buf[64];
    timed(state, g_preadNs, [&] {
        for (int fd : fds)
            benchmark::DoNotOptimize(::pread(fd, buf, sizeof buf, 0));
    });
    for (int fd : fds)
        ::close(fd);
}

BENCHMARK(BM_SamplerPollPosixFs)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OpenPreadClose)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PreadOpenFds)->Unit(benchmark::kMicrosecond);
}

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::printf("\nrdt poll: %d groups x %d domains x 3 events = %zu files on %s\n", kGroups, kDomains,
        tree().files.size(), tree().root.c_str());
    std::printf("sampler poll through PosixFs: %.1f us CPU\n", g_pollNs / 1e3);
    if (g_openPreadNs > 0) std::printf("ratio vs open+pread+close loop: %.2fx (CPU time)\n", g_pollNs / g_openPreadNs);
    if (g_preadNs > 0)
        std::printf("ratio vs pread on pre-opened fds: %.2fx (CPU time; target <= 1.3x)\n", g_pollNs / g_preadNs);
    return 0;
}
