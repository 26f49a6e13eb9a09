// SPDX-License-Identifier: GPL-3.0-or-later
// The agent protocol's cost for RDT samples (docs/PROTOCOL.md "Sample batches"): 64 groups x 4 domains at 10 Hz,
// encoded by the agent's Connection and decoded by the client's, over a socketpair. Prints bytes per second on
// the wire (target <= 50 kB/s) and the sender's CPU per second of samples (target for the whole agent: <= 2 %
// of a core). The counters move like a busy machine's: occupancy in 64 KiB steps, 0.1-2 GB/s of traffic per
// group with noise, rates computed over jittered poll intervals as the sampler computes them. The same stream
// through a real sshd with the engine behind the agent: bench_agent_ssh.
#include "protocol/Connection.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <random>
#include <sys/socket.h>

namespace {
using namespace rdt;
using namespace rdt::protocol;

constexpr int kGroups = 64;
constexpr int kDomains = 4;
constexpr int kHz = 10;

struct Traffic {
    std::mt19937_64 rng { 42 };
    std::vector<RdtSample> series;
    std::uint64_t t = 0;
    Traffic()
    {
        for (int g = 0; g < kGroups; ++g)
            for (int d = 0; d < kDomains; ++d) {
                RdtSample s;
                s.group = g == 0 ? ""
                                 : (g % 8 == 0 ? "p" + std::to_string(g / 8)
                                               : "p" + std::to_string(g / 8) + "/mon_groups/m" + std::to_string(g));
                s.domain = d;
                s.occupancyBytes = (rng() % 600) * 65536;
                series.push_back(s);
            }
    }
    RdtSampleBatch next()
    {
        // Polls are not exactly 100 ms apart (the sampler's thread wakes with jitter); rates are bytes over the
        // elapsed time as the sampler computes them (rdt/Sampler.cpp), not a neat multiple of the bytes.
        const std::uint64_t elapsed = 1'000'000'000 / kHz - 2'000'000 + rng() % 4'000'000;
        t += elapsed;
        const double secs = static_cast<double>(elapsed) * 1e-9;
        RdtSampleBatch b;
        b.timeNs = t;
        for (std::size_t i = 0; i < series.size(); ++i) {
            auto& s = series[i];
            const double gbps = 0.1 + 1.9 * static_cast<double>(i % 17) / 16.0;
            const auto bytes
                = static_cast<std::uint64_t>(gbps * 1e9 / kHz * (0.9 + 0.2 * static_cast<double>(rng() % 1000) / 1000));
            const auto local = bytes * (60 + rng() % 30) / 100;
            s.mbmTotalBytes += bytes;
            s.mbmLocalBytes += local;
            s.mbmTotalBps = static_cast<double>(bytes) / secs;
            s.mbmLocalBps = static_cast<double>(local) / secs;
            if (rng() % 4 == 0) {
                const auto step = static_cast<std::int64_t>(rng() % 5) - 2;
                s.occupancyBytes = static_cast<std::uint64_t>(
                    std::max<std::int64_t>(0, static_cast<std::int64_t>(s.occupancyBytes) + step * 65536));
            }
            s.timeNs = t;
            b.samples.push_back(s);
        }
        return b;
    }
};

double cpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Figures {
    double bytesPerSecond = 0;
    double rawBytesPerSecond = 0;
    double encodeCpuPerSecond = 0;
    double decodeCpuPerSecond = 0;
} g_figures;

void BM_SampleStream(benchmark::State& state)
{
    const int seconds = 60;
    for (auto _ : state) {
        int sv[2];
        ::socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
        ConnectionOptions o;
        Connection agent { UniqueFd { sv[0] }, {}, o, 0 };
        Connection client { UniqueFd { sv[1] }, {}, o, 0 };
        Traffic traffic;
        std::vector<RdtSampleBatch> batches;
        for (int i = 0; i < seconds * kHz; ++i)
            batches.push_back(traffic.next());
        double enc = 0, dec = 0;
        std::size_t received = 0;
        for (const auto& b : batches) {
            const double c0 = cpuSeconds();
            agent.sendSamples(b);
            (void)agent.flush(1);
            const double c1 = cpuSeconds();
            std::vector<Incoming> in;
            (void)client.readAvailable(in, 1);
            dec += cpuSeconds() - c1;
            enc += c1 - c0;
            received += in.size();
        }
        benchmark::DoNotOptimize(received);
        const auto& st = agent.stats();
        g_figures.bytesPerSecond = static_cast<double>(st.bytesOut) / seconds;
        g_figures.encodeCpuPerSecond = enc / seconds;
        g_figures.decodeCpuPerSecond = dec / seconds;
        state.counters["wire_kB_per_s"] = g_figures.bytesPerSecond / 1000;
        state.counters["batches"] = static_cast<double>(received);
    }
}
BENCHMARK(BM_SampleStream)->Unit(benchmark::kMillisecond)->Iterations(3);
}

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    std::printf("\n64 groups x 4 domains at 10 Hz through the protocol (socketpair, zstd level 1):\n");
    std::printf("  wire: %.1f kB/s (target <= 50 kB/s)\n", g_figures.bytesPerSecond / 1000);
    std::printf("  sender CPU: %.3f %% of a core (encode + write); receiver CPU: %.3f %% of a core\n",
        100 * g_figures.encodeCpuPerSecond, 100 * g_figures.decodeCpuPerSecond);
    return 0;
}
