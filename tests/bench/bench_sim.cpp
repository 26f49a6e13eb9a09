// SPDX-License-Identifier: GPL-3.0-or-later
// Simulator throughput: simulated cache accesses per second on one core (target >= 30 M/s), and whether the
// default scenario (8 simulated cores) runs in real time using under a quarter of one core. Also prints the
// set-sampling error against the full model. Times are CPU time of this process (the figures must not depend on
// how busy the machine is with other work).
// Measured (2-vCPU VM shared with other builds, RelWithDebInfo, median of 5): random 42, stream 57, chase 49, mix
// 39 M simulated accesses per CPU second; default scenario 0.070 of a core. Before the per-set recency order and the
// inlined access path: 24-28 M/s and 0.13-0.15 of a core. Instructions per simulated access (callgrind, S=64,
// 48 MiB working set): random 355, stream 386, chase 395, mix 354 (were 760, 880, 881, 715).
#include "sim/Scenario.h"
#include "sim/SimMachine.h"
#include "sim/Simulation.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <ctime>

using namespace rdt::sim;

namespace {

double cpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

std::unique_ptr<SimMachine> machine(std::uint32_t sampling, unsigned cores = 1)
{
    SimOptions o;
    o.topology.coresPerSocket = cores;
    o.setSampling = sampling;
    return SimMachine::create(presetCpuid("skx-6154").value(), o).value();
}

std::uint64_t simulatedAccesses(const SimMachine& m)
{
    std::uint64_t n = 0;
    for (const auto& t : m.threads())
        n += t.stats.accesses;
    return n / m.sampling();
}

/// One thread per workload kind on one simulated core, advanced tick by tick: every access goes through
/// L1/L2/L3 lookups, fills, CAT masks, RMID counters and the timing model.
void BM_SimulatedAccesses(benchmark::State& state)
{
    auto m = machine(64);
    WorkloadSpec w;
    w.pattern = static_cast<Pattern>(state.range(0));
    w.workingSet = 48ull << 20; // twice the L3: hits and misses
    w.computeCycles = 0;
    (void)m->addThread("t", 0, w);
    std::uint64_t before = simulatedAccesses(*m);
    for (auto _ : state)
        m->advance(10'000'000);
    const auto n = simulatedAccesses(*m) - before;
    state.counters["sim_accesses_per_s"] = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
    state.SetLabel(patternName(w.pattern));
}
BENCHMARK(BM_SimulatedAccesses)
    ->Arg(int(Pattern::Random))
    ->Arg(int(Pattern::Stream))
    ->Arg(int(Pattern::Chase))
    ->Arg(int(Pattern::Mix))
    ->Unit(benchmark::kMillisecond);

/// The PMU engine's path: SimMachine::access() for sampled addresses (takes the lock each call).
void BM_AccessApi(benchmark::State& state)
{
    auto m = machine(64);
    std::uint64_t addr = 0, n = 0;
    for (auto _ : state) {
        addr = (addr + 64 * 64 * 7919) & ((1ull << 36) - 1);
        benchmark::DoNotOptimize(m->access(0, addr, AccessKind::Load));
        ++n;
    }
    state.counters["accesses_per_s"] = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_AccessApi);

/// The default scenario: simulated seconds per CPU second. Real time needs >= 1; "a quarter of a core" means the
/// CPU time per simulated second (cpu_fraction) must stay below 0.25.
void BM_DefaultScenarioRealTime(benchmark::State& state)
{
    auto sim = Simulation::create(loadScenario(defaultScenarioName()).value()).value();
    sim->advance(1'000'000'000); // warm caches
    const std::uint64_t before = simulatedAccesses(sim->machine());
    const double c0 = cpuSeconds();
    std::uint64_t simNs = 0;
    for (auto _ : state) {
        sim->advance(100'000'000);
        simNs += 100'000'000;
    }
    const double cpu = cpuSeconds() - c0;
    state.counters["cpu_fraction"] = cpu / (double(simNs) * 1e-9);
    state.counters["sim_accesses_per_cpu_s"] = double(simulatedAccesses(sim->machine()) - before) / cpu;
    state.counters["sampling"] = sim->machine().sampling();
}
BENCHMARK(BM_DefaultScenarioRealTime)->Unit(benchmark::kMillisecond)->Iterations(30);

/// Set sampling error: L3 miss ratio and occupancy at S = 16, 64, 128 against the full model (S = 1).
void printSamplingError()
{
    auto run = [](std::uint32_t s) {
        auto m = machine(s);
        WorkloadSpec w;
        w.pattern = Pattern::Random;
        w.workingSet = m->features().l3.sizeBytes() * 3 / 4;
        w.rate = 80e6;
        w.computeCycles = 0;
        auto t = m->addThread("t", 0, w).value();
        (void)m->setTaskAssociation(t, 1, 1);
        m->setL3Mask(0, 1, 0x0FF); // 8 of 11 ways: the buffer is a bit more than that
        m->advance(80'000'000);
        return std::make_pair(m->thread(t)->stats.l3MissRatio(), double(m->occupancyBytes(0, 1)));
    };
    auto full = run(1);
    std::printf("set sampling error (random over 3/4 of L3 confined to 8 of 11 ways, 6.4M accesses):\n");
    std::printf("  S=1    miss ratio %.4f  occupancy %.0f B\n", full.first, full.second);
    for (std::uint32_t s : { 16u, 64u, 128u }) {
        auto r = run(s);
        std::printf("  S=%-4u miss ratio %.4f (%+.2f%%)  occupancy %.0f B (%+.2f%%)\n", s, r.first,
            100 * (r.first - full.first) / full.first, r.second, 100 * (r.second - full.second) / full.second);
    }
}

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    printSamplingError();
    return 0;
}
