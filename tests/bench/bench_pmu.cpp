// SPDX-License-Identifier: GPL-3.0-or-later
// Decode + aggregate throughput on one core (issue 7 targets: >= 2 M load-latency samples/s, >= 300 k 32-entry LBR
// samples/s). The records are byte-exact perf records produced by the simulated PMU; each iteration decodes every
// record with RecordDecoder and feeds LoadLatency / BranchGraph, optionally reading them out of a MemoryRing first.
#include "pmu/BranchGraph.h"
#include "pmu/LoadLatency.h"
#include "pmu/RecordDecoder.h"
#include "pmu/RingReader.h"
#include "simpmu/SimPmu.h"

#include <benchmark/benchmark.h>

#include <cstring>

using namespace rdt::pmu;

namespace {

struct Corpus {
    std::vector<std::vector<std::byte>> records; ///< samples only
    RecordDecoder decoder;
    std::size_t bytes = 0;
};

Corpus& corpus(SimCapture capture)
{
    static Corpus ll, lbr;
    Corpus& c = capture == SimCapture::LoadLatency ? ll : lbr;
    if (!c.records.empty()) return c;
    SimPmuConfig cfg;
    cfg.capture = capture;
    cfg.loadPeriod = 1;
    cfg.samplePeriodCycles = 5000;
    cfg.ringBytes = 4u << 20;
    auto sim = SimPmu::create(cfg);
    if (!sim) return c;
    sim->addEventsTo(c.decoder);
    auto view = RingReader::viewOfMapping(sim->ring().base(), sim->ring().mapSize(), sim->ring().pageSize());
    auto reader = RingReader::create(*view);
    while (c.records.size() < 100000) {
        sim->run(2'000'000);
        reader->drain([&](std::span<const std::byte> rec) {
            if (rec.size() >= 8 && static_cast<std::uint32_t>(rec[0]) == perf::RecordSample) {
                c.records.emplace_back(rec.begin(), rec.end());
                c.bytes += rec.size();
            }
        });
    }
    return c;
}

void BM_DecodeAggregateLoadLatency(benchmark::State& state)
{
    Corpus& c = corpus(SimCapture::LoadLatency);
    DecodedRecord rec;
    std::size_t n = 0;
    for (auto _ : state) {
        // A fresh aggregator per batch of 100 k samples: the insert cost of new IPs and lines is part of the figure.
        LoadLatency agg;
        for (const auto& r : c.records) {
            if (c.decoder.decode(r, rec)) agg.add(rec.sample);
        }
        n += c.records.size();
        benchmark::DoNotOptimize(agg.samples());
    }
    state.counters["samples/s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(c.bytes));
}
BENCHMARK(BM_DecodeAggregateLoadLatency)->Unit(benchmark::kMillisecond);

void BM_DecodeAggregateLbr32(benchmark::State& state)
{
    Corpus& c = corpus(SimCapture::LbrAny);
    BranchGraph graph(BranchGraph::Mode::AnyBranch);
    DecodedRecord rec;
    std::size_t n = 0, entries = 0;
    for (auto _ : state) {
        for (const auto& r : c.records) {
            if (c.decoder.decode(r, rec)) {
                entries += rec.sample.branches.size();
                graph.add(rec.sample);
            }
        }
        n += c.records.size();
    }
    benchmark::DoNotOptimize(graph.samples());
    state.counters["samples/s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
    state.counters["entries/sample"] = static_cast<double>(entries) / static_cast<double>(std::max<std::size_t>(n, 1));
}
BENCHMARK(BM_DecodeAggregateLbr32)->Unit(benchmark::kMillisecond);

// The same through the ring reader: copy the corpus into a MemoryRing (untimed), then drain + decode + aggregate.
void BM_RingDrainLoadLatency(benchmark::State& state)
{
    Corpus& c = corpus(SimCapture::LoadLatency);
    auto ring = MemoryRing::create(8u << 20);
    auto view = RingReader::viewOfMapping(ring->base(), ring->mapSize(), ring->pageSize());
    auto reader = RingReader::create(*view);
    LoadLatency agg;
    DecodedRecord rec;
    std::size_t n = 0;
    for (auto _ : state) {
        state.PauseTiming();
        for (const auto& r : c.records)
            if (!ring->write(r)) break;
        state.ResumeTiming();
        n += reader->drainDecoded(c.decoder, rec, [&](const DecodedRecord& d) { agg.add(d.sample); });
    }
    state.counters["samples/s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RingDrainLoadLatency)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
