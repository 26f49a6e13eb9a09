// SPDX-License-Identifier: GPL-3.0-or-later
// Blame held to ground truth (docs/BLAME.md "Held to ground truth"): generated two-socket machines with a victim and
// 4-8 other groups of known guilt (capture/blame/ScenarioGenerator.h), each run once with probes; the passive
// ranking is the order before the probes. Prints top-1 and top-2 accuracy and the false-blame rate, passive and with
// probes, the source-clock time to a verdict and the probe writes per verdict. Simulated time: the machine runs as
// fast as it can. RDTSCOPE_BLAME_SCENARIOS sets how many (default 100).
#include "blame/Blame.h"
#include "blame/ScenarioGenerator.h"
#include "blame/SuspectRanking.h"
#include "engine/CaptureService.h"
#include "rdt/GroupNames.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace rdt;
using namespace rdt::blame;

namespace {

struct Tally {
    unsigned runs = 0, failed = 0;
    unsigned passiveTop1 = 0, passiveTop2 = 0, probeTop1 = 0, probeTop2 = 0;
    unsigned passiveFalse = 0, probeFalse = 0; ///< runs that blamed at least one innocent group
    unsigned passiveBlamedInnocent = 0, probeBlamedInnocent = 0, innocents = 0; ///< per group
    unsigned verdicts = 0, writes = 0, culpritVerdicts = 0;
    double verdictSeconds = 0, wallSeconds = 0;
    unsigned withVerdict = 0;
};

bool inTop(const GeneratedScenario& g, const std::vector<std::string>& order, std::size_t k)
{
    for (std::size_t i = 0; i < std::min(k, order.size()); ++i)
        if (g.isCulprit(order[i])) return true;
    return false;
}

void runOne(const GeneratedScenario& g, const std::string& dir, Tally& t, bool verbose)
{
    const std::string path = dir + "/" + g.name + ".scn";
    std::ofstream(path) << g.text;
    engine::ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = path;
    auto svc = engine::CaptureService::open(o);
    ++t.runs;
    if (!svc) {
        ++t.failed;
        std::fprintf(stderr, "%s: %s\n", g.name.c_str(), svc.error().toString().c_str());
        return;
    }
    BlameSettings s;
    s.victim = "victim";
    s.durationNs = 6'000'000'000;
    s.windowNs = 1'000'000'000;
    s.probe = true;
    s.probeSettleNs = 500'000'000;
    s.probeMeasureNs = 1'000'000'000;
    const auto wall0 = std::chrono::steady_clock::now();
    auto r = runBlame(**svc, s);
    t.wallSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    if (!r) {
        ++t.failed;
        std::fprintf(stderr, "%s: %s\n", g.name.c_str(), r.error().toString().c_str());
        return;
    }
    std::vector<std::string> final;
    for (const auto& x : r->ranking)
        final.push_back(x.group);
    t.passiveTop1 += inTop(g, r->passiveOrder, 1);
    t.passiveTop2 += inTop(g, r->passiveOrder, 2);
    t.probeTop1 += inTop(g, final, 1);
    t.probeTop2 += inTop(g, final, 2);
    bool passiveFalse = false, probeFalse = false;
    for (const auto& x : r->ranking) {
        const bool innocent = !g.isCulprit(x.group);
        t.innocents += innocent;
        if (innocent && passivelyBlamed(x)) {
            passiveFalse = true;
            ++t.passiveBlamedInnocent;
        }
        if (x.probe && !x.probe->verdict.empty()) {
            ++t.verdicts;
            if (x.probe->verdict == "culprit") {
                ++t.culpritVerdicts;
                if (innocent) {
                    probeFalse = true;
                    ++t.probeBlamedInnocent;
                }
            }
        }
    }
    t.passiveFalse += passiveFalse;
    t.probeFalse += probeFalse;
    t.writes += r->probeWrites;
    if (r->verdictNs) {
        ++t.withVerdict;
        t.verdictSeconds += static_cast<double>(r->verdictNs) / 1e9;
    }
    if (verbose || !inTop(g, final, 1) || probeFalse || passiveFalse || !r->restored) {
        std::fprintf(stderr, "%s:%s%s\n", g.name.c_str(), r->restored ? "" : " NOT RESTORED", "");
        for (const auto& gg : g.groups)
            std::fprintf(stderr, "  truth %-8s %-34s %s\n", displayGroup(gg.group).c_str(), gg.kind.c_str(),
                gg.culprit ? "culprit" : "innocent");
        for (const auto& x : r->ranking)
            std::fprintf(stderr, "  ranked %-8s effect %.3f +- %.3f fills %.0f MB/s %s\n",
                displayGroup(x.group).c_str(), x.effect, x.uncertainty, x.fillBps / 1e6,
                x.probe ? (x.probe->verdict + " (" + x.probe->sentence + ")").c_str() : "");
    }
}

void BM_BlameOnGeneratedScenarios(benchmark::State& state)
{
    const char* env = std::getenv("RDTSCOPE_BLAME_SCENARIOS");
    const unsigned n = env ? static_cast<unsigned>(std::strtoul(env, nullptr, 10)) : 100;
    const bool verbose = std::getenv("RDTSCOPE_BLAME_VERBOSE") != nullptr;
    char tmpl[] = "/tmp/rdtscope-bench-blame-XXXXXX";
    const std::string dir = ::mkdtemp(tmpl) ? tmpl : "/tmp";
    Tally t;
    for (auto _ : state) {
        ScenarioGenerator gen(48);
        for (unsigned i = 0; i < n; ++i)
            runOne(gen.next(), dir, t, verbose);
    }
    std::filesystem::remove_all(dir);
    const double runs = std::max(1u, t.runs - t.failed);
    std::printf("blame over %u generated scenarios (%u failed to run), simulated:\n", t.runs, t.failed);
    std::printf("  passive:     top-1 %.1f %%, top-2 %.1f %%, false blame %.1f %% of runs (%u of %u innocent groups)\n",
        100 * t.passiveTop1 / runs, 100 * t.passiveTop2 / runs, 100 * t.passiveFalse / runs, t.passiveBlamedInnocent,
        t.innocents);
    std::printf("  with probes: top-1 %.1f %%, top-2 %.1f %%, false blame %.1f %% of runs (%u of %u innocent groups)\n",
        100 * t.probeTop1 / runs, 100 * t.probeTop2 / runs, 100 * t.probeFalse / runs, t.probeBlamedInnocent,
        t.innocents);
    std::printf("  time to a culprit verdict: %.1f s of simulated time on average (%u runs with one); %.2f s wall per "
                "run\n",
        t.withVerdict ? t.verdictSeconds / t.withVerdict : 0.0, t.withVerdict, t.wallSeconds / runs);
    std::printf("  probe writes per verdict: %.2f (%u writes, %u verdicts, %u of them culprit)\n",
        t.verdicts ? static_cast<double>(t.writes) / t.verdicts : 0.0, t.writes, t.verdicts, t.culpritVerdicts);
    state.counters["passive_top1_pct"] = 100 * t.passiveTop1 / runs;
    state.counters["probe_top1_pct"] = 100 * t.probeTop1 / runs;
    state.counters["probe_false_blame_pct"] = 100 * t.probeFalse / runs;
}

} // namespace

BENCHMARK(BM_BlameOnGeneratedScenarios)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_MAIN();
