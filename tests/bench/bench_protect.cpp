// SPDX-License-Identifier: GPL-3.0-or-later
// The protect lab on the shipped scenarios (docs/PROTECT.md "Figures"): every policy run on its own simulated
// machine of the same seeded scenario; per policy the share of broken 1 s windows, the best-effort throughput, the
// convergence after each load step and the schemata writes, then the goals checked: `model` at most the best other
// policy's violation share, at least 20 % more best-effort throughput than `static`, convergence under 2 s of
// simulated time after every load step. Simulated time: the machine runs as fast as it can.
// RDTSCOPE_PROTECT_SEEDS sets how many seeds per scenario (default 3).
#include "protect/Lab.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>

using namespace rdt;
using namespace rdt::protect;

namespace {

void printScenario(const std::string& scenario, unsigned seeds)
{
    std::map<std::string, double> viol, thr, worstConv;
    std::map<std::string, unsigned> writes, neverConverged;
    unsigned runs = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (unsigned seed = 1; seed <= seeds; ++seed) {
        LabSettings s;
        s.scenario = scenario;
        s.seed = seed;
        auto lab = runLab(s);
        if (!lab) {
            std::printf("%s seed %u: %s\n", scenario.c_str(), seed, lab.error().toString().c_str());
            return;
        }
        ++runs;
        for (const auto& f : lab->figures) {
            viol[f.policy] += f.violationShare1s.value_or(1.0);
            thr[f.policy] += f.beThroughput.value_or(0);
            writes[f.policy] += f.writes;
            for (const auto& c : f.convergenceS) {
                if (!c)
                    ++neverConverged[f.policy];
                else
                    worstConv[f.policy] = std::max(worstConv[f.policy], *c);
            }
        }
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("protect lab on %s, seeds 1-%u (simulated, 60 s each):\n", scenario.c_str(), seeds);
    std::printf("  %-7s %12s %18s %16s %14s\n", "policy", "viol 1s", "BE G instr/s", "worst conv (s)", "writes/run");
    for (const char* p : { "static", "slack", "fsm", "model" }) {
        char conv[32];
        if (neverConverged[p])
            std::snprintf(conv, sizeof conv, "never x%u", neverConverged[p]);
        else
            std::snprintf(conv, sizeof conv, "%.1f", worstConv[p]);
        std::printf("  %-7s %10.1f %% %18.3f %16s %14.1f\n", p, viol[p] / runs * 100, thr[p] / runs / 1e9, conv,
            static_cast<double>(writes[p]) / runs);
    }
    double bestOther = 1;
    for (const char* p : { "static", "slack", "fsm" })
        bestOther = std::min(bestOther, viol[p] / runs);
    const double gain = thr["static"] > 0 ? thr["model"] / thr["static"] - 1 : 0;
    std::printf("  goals: model violation %.1f %% <= best other %.1f %%: %s; model BE throughput %+.1f %% vs static "
                "(goal >= +20 %%): %s; model convergence < 2 s after every step: %s\n",
        viol["model"] / runs * 100, bestOther * 100, viol["model"] / runs <= bestOther + 1e-12 ? "met" : "NOT met",
        gain * 100, gain >= 0.2 ? "met" : "NOT met",
        neverConverged["model"] == 0 && worstConv["model"] < 2 ? "met" : "NOT met");
    std::printf("  %.0f s wall\n", wall);
}

void BM_ProtectLab(benchmark::State& state)
{
    const char* env = std::getenv("RDTSCOPE_PROTECT_SEEDS");
    const unsigned seeds = env ? static_cast<unsigned>(std::max(1, std::atoi(env))) : 3;
    for (auto _ : state) {
        printScenario("load-steps", seeds);
        printScenario("no-partitioning", seeds);
    }
}

} // namespace

BENCHMARK(BM_ProtectLab)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_MAIN();
