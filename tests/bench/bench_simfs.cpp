// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated kernel served through FUSE (capture/simfs, `rdtscope-cli sim --mount`), on a simulated 4-socket
// Xeon Gold 6154 (4 L3 domains) with the default group and 63 monitor groups:
//  - reads per second of one mon_data counter file through the mount (pread at offset 0 on a kept fd, as the backend
//    polls, and open + read + close, as a shell tool reads);
//  - one full poll of 64 groups x 4 domains x 3 events (ResctrlBackend::readCountersMany) through the mount vs
//    through the Fs seam (SimResctrlFs itself) on the same machine, and their ratio;
//  - write + read-back latency of a schemata change through the mount, p50 and p99.
// Wall time: the FUSE server is another thread of this process and the kernel's FUSE work is nobody's thread time.
// Needs root and /dev/fuse (the mount lives in a private mount namespace of this process); without them it says why
// and exits 1.
#include "core/PosixFs.h"
#include "rdt/ResctrlBackend.h"
#include "sim/SimCpuid.h"
#include "sim/SimMachine.h"
#include "sim/SimResctrlFs.h"
#include "simfs/FsFuseMount.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr int kGroups = 64; ///< the default group and 63 monitor groups
constexpr int kSchemataSamples = 2000;

struct Setup {
    std::unique_ptr<rdt::sim::SimMachine> machine;
    std::shared_ptr<rdt::sim::SimResctrlFs> kernel;
    std::unique_ptr<rdt::simfs::FsFuseMount> mount;
    std::string dir;
    std::vector<std::string> groups;
    std::unique_ptr<rdt::ResctrlBackend> seam, mounted;
    ~Setup()
    {
        seam.reset();
        mounted.reset();
        mount.reset(); // unmounts
        if (!dir.empty()) ::rmdir(dir.c_str());
    }
};

Setup* g_setup = nullptr;
double g_pollSeamNs = 0, g_pollMountNs = 0, g_preadNs = 0, g_openReadNs = 0;

double wallNs()
{
    return double(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

template <typename F> void timed(benchmark::State& state, double& out, F&& body)
{
    std::uint64_t n = 0;
    const double t0 = wallNs();
    for (auto _ : state) {
        body();
        ++n;
    }
    if (n) out = (wallNs() - t0) / double(n);
}

/// Empty on success, else why the benchmark cannot run here.
std::string prepare(Setup& s)
{
    if (auto ok = rdt::simfs::checkFuseAvailable(); !ok) return ok.error().toString();
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return "cannot make a private mount namespace (needs CAP_SYS_ADMIN)";
    auto cpuid = rdt::sim::presetCpuid("skx-6154");
    if (!cpuid) return cpuid.error().toString();
    rdt::sim::SimOptions o;
    o.topology.sockets = 4; // one L3 domain per socket
    o.topology.coresPerSocket = 2;
    auto m = rdt::sim::SimMachine::create(*cpuid, o);
    if (!m) return m.error().toString();
    s.machine = std::move(*m);
    auto fs = rdt::sim::SimResctrlFs::mount(*s.machine);
    if (!fs) return fs.error().toString();
    s.kernel = std::move(*fs);
    s.groups.push_back("");
    for (int g = 1; g < kGroups; ++g) {
        const std::string path = "mon_groups/m" + std::to_string(g);
        if (auto st = s.kernel->mkdir(path); !st) return st.error().toString();
        s.groups.push_back(path);
    }
    if (auto st = s.kernel->mkdir("fenced"); !st) return st.error().toString();
    char tmpl[] = "/tmp/rdtscope-bench-simfs-XXXXXX";
    if (!::mkdtemp(tmpl)) return "cannot make a temporary directory";
    s.dir = tmpl;
    auto mounted = rdt::simfs::FsFuseMount::mount(s.kernel, s.dir);
    if (!mounted) return mounted.error().toString();
    s.mount = std::move(*mounted);
    s.mount->start();
    auto seam = rdt::ResctrlBackend::open(s.kernel);
    auto posix = rdt::ResctrlBackend::open(std::make_shared<rdt::PosixFs>(s.dir));
    if (!seam) return seam.error().toString();
    if (!posix) return posix.error().toString();
    s.seam = std::move(*seam);
    s.mounted = std::move(*posix);
    auto caps = s.mounted->capabilities();
    if (!caps) return caps.error().toString();
    if (caps->monitoring.domains.size() != 4)
        return "the simulated machine has " + std::to_string(caps->monitoring.domains.size()) + " L3 domains, not 4";
    return {};
}

void BM_CounterPreadThroughMount(benchmark::State& state)
{
    const std::string file = g_setup->dir + "/mon_data/mon_L3_00/mbm_total_bytes";
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    char buf[64];
    timed(state, g_preadNs, [&] { benchmark::DoNotOptimize(::pread(fd, buf, sizeof buf, 0)); });
    ::close(fd);
    state.SetItemsProcessed(state.iterations());
}

void BM_CounterOpenReadCloseThroughMount(benchmark::State& state)
{
    const std::string file = g_setup->dir + "/mon_data/mon_L3_00/mbm_total_bytes";
    char buf[64];
    timed(state, g_openReadNs, [&] {
        const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
        benchmark::DoNotOptimize(::read(fd, buf, sizeof buf));
        ::close(fd);
    });
    state.SetItemsProcessed(state.iterations());
}

void poll(benchmark::State& state, rdt::ResctrlBackend& backend, double& out)
{
    timed(state, out, [&] {
        auto r = backend.readCountersMany(g_setup->groups);
        if (r.size() != std::size_t(kGroups) || !r.back()) state.SkipWithError("a group's counters did not read");
        benchmark::DoNotOptimize(r);
    });
}

void BM_FullPollThroughFsSeam(benchmark::State& state)
{
    poll(state, *g_setup->seam, g_pollSeamNs);
}

void BM_FullPollThroughMount(benchmark::State& state)
{
    poll(state, *g_setup->mounted, g_pollMountNs);
}

BENCHMARK(BM_CounterPreadThroughMount)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CounterOpenReadCloseThroughMount)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FullPollThroughFsSeam)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FullPollThroughMount)->Unit(benchmark::kMicrosecond);

/// The L3 mask of domain 0 in a schemata file's text (the kernel pads it or not: parsed as a number).
unsigned long readBackMask(const std::string& text)
{
    const auto at = text.find("L3:0=");
    return at == std::string::npos ? 0 : std::strtoul(text.c_str() + at + 5, nullptr, 16);
}

/// write(2) of one schemata line to the group's file, then read(2) of the file back, as a tool checks its change:
/// per-change wall latencies in ns. Alternates two masks so every write changes something.
std::vector<double> schemataLatencies()
{
    const std::string file = g_setup->dir + "/fenced/schemata";
    std::vector<double> out;
    char buf[512];
    for (int i = 0; i < kSchemataSamples; ++i) {
        const std::string line = i % 2 ? "L3:0=00f;1=00f;2=00f;3=00f\n" : "L3:0=7f0;1=7f0;2=7f0;3=7f0\n";
        const double t0 = wallNs();
        const int w = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
        const bool wrote = w >= 0 && ::write(w, line.data(), line.size()) == ssize_t(line.size());
        if (w >= 0) ::close(w);
        const int r = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
        const ssize_t n = r >= 0 ? ::read(r, buf, sizeof buf - 1) : -1;
        if (r >= 0) ::close(r);
        const double t1 = wallNs();
        if (!wrote || n <= 0 || readBackMask(std::string(buf, std::size_t(n))) != (i % 2 ? 0x00fu : 0x7f0u)) {
            std::fprintf(stderr, "schemata change %d did not read back\n", i);
            return {};
        }
        out.push_back(t1 - t0);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    Setup setup;
    if (const std::string why = prepare(setup); !why.empty()) {
        std::fprintf(stderr, "bench_simfs: cannot run here: %s\n", why.c_str());
        return 1;
    }
    g_setup = &setup;
    benchmark::RunSpecifiedBenchmarks();
    const auto latencies = schemataLatencies();
    benchmark::Shutdown();
    std::printf("\nsimulated Xeon Gold 6154, 4 sockets (4 L3 domains), %d groups, served through FUSE at %s\n", kGroups,
        setup.dir.c_str());
    if (g_preadNs > 0)
        std::printf(
            "one mon_data counter through the mount: %.0f reads/s (pread at offset 0 on a kept fd), ", 1e9 / g_preadNs);
    if (g_openReadNs > 0) std::printf("%.0f reads/s (open + read + close)\n", 1e9 / g_openReadNs);
    if (g_pollSeamNs > 0 && g_pollMountNs > 0)
        std::printf("full poll, %d groups x 4 domains x 3 events: %.0f us through the mount, %.0f us through the Fs "
                    "seam: ratio %.1fx (wall)\n",
            kGroups, g_pollMountNs / 1e3, g_pollSeamNs / 1e3, g_pollMountNs / g_pollSeamNs);
    if (latencies.empty()) return 1;
    std::printf("schemata write + read-back through the mount, %zu changes: p50 %.1f us, p99 %.1f us (wall)\n",
        latencies.size(), latencies[latencies.size() / 2] / 1e3, latencies[latencies.size() * 99 / 100] / 1e3);
    g_setup = nullptr;
    return 0;
}
