// SPDX-License-Identifier: GPL-3.0-or-later
// Decode rate of the record decoder on one core (issue 7 benchmark): PEBS load-latency samples (the perf c2c
// layout) and 32-entry LBR samples (`perf record -b`), each also through the in-memory ring reader. Targets for
// decode plus aggregation: 2 M load-latency samples/s and 300 k LBR samples/s; aggregation is added on top by the
// aggregator benchmarks. Prints samples/s as the items_per_second counter.

#include "pmu/RecordDecoder.h"
#include "pmu/RingReader.h"
#include "simpmu/RingWriter.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

using namespace rdt::pmu;

namespace {

template <typename T> void put(std::vector<std::byte>& b, T v)
{
    const auto at = b.size();
    b.resize(at + sizeof v);
    std::memcpy(b.data() + at, &v, sizeof v);
}

void finish(std::vector<std::byte>& rec, std::uint16_t misc)
{
    const std::uint32_t type = perf::RecordSample;
    const auto size = static_cast<std::uint16_t>(rec.size());
    std::memcpy(rec.data(), &type, 4);
    std::memcpy(rec.data() + 4, &misc, 2);
    std::memcpy(rec.data() + 6, &size, 2);
}

EventAttr loadLatencyAttr()
{
    EventAttr a;
    a.type = 4;
    a.config = 0x1cd;
    a.config1 = 30;
    a.sampleType = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleAddr | perf::SampleId
        | perf::SampleCpu | perf::SamplePeriod | perf::SampleWeightStruct | perf::SampleDataSrc;
    return a;
}

/// `n` different load-latency samples back to back.
std::vector<std::byte> loadLatencyStream(std::size_t n)
{
    std::vector<std::byte> all;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<std::byte> r(8);
        put<std::uint64_t>(r, 0x401000 + (i % 97) * 4);
        put<std::uint32_t>(r, 1234);
        put<std::uint32_t>(r, 1234);
        put<std::uint64_t>(r, 1000000 + i * 100);
        put<std::uint64_t>(r, 0x7f0000000000 + (i * 64) % (1 << 20));
        put<std::uint64_t>(r, 7);
        put<std::uint32_t>(r, static_cast<std::uint32_t>(i % 8));
        put<std::uint32_t>(r, 0);
        put<std::uint64_t>(r, 10009);
        put<std::uint32_t>(r, static_cast<std::uint32_t>(30 + i % 300));
        put<std::uint16_t>(r, 0);
        put<std::uint16_t>(r, 0);
        put<std::uint64_t>(r, i % 3 ? 0x10268100142ull : 0x11868100242ull);
        finish(r, perf::MiscUser | perf::MiscExactIp);
        all.insert(all.end(), r.begin(), r.end());
    }
    return all;
}

EventAttr lbrAttr()
{
    EventAttr a;
    a.sampleType = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SamplePeriod | perf::SampleBranchStack;
    a.branchSampleType = perf::BranchAny;
    return a;
}

std::vector<std::byte> lbrStream(std::size_t n)
{
    std::vector<std::byte> all;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<std::byte> r(8);
        put<std::uint64_t>(r, 0x401000 + (i % 61) * 4);
        put<std::uint32_t>(r, 42);
        put<std::uint32_t>(r, 42);
        put<std::uint64_t>(r, 1000000 + i * 1000);
        put<std::uint64_t>(r, 100003);
        put<std::uint64_t>(r, 32);
        for (std::uint64_t e = 0; e < 32; ++e) {
            put<std::uint64_t>(r, 0x401000 + ((i + e) % 211) * 16);
            put<std::uint64_t>(r, 0x402000 + ((i * 7 + e) % 173) * 16);
            put<std::uint64_t>(
                r, BranchEntry::makeFlags(e % 17 == 0, e % 17 != 0, static_cast<std::uint16_t>(1 + e % 40)));
        }
        finish(r, perf::MiscUser);
        all.insert(all.end(), r.begin(), r.end());
    }
    return all;
}

void decodeStream(benchmark::State& state, const EventAttr& attr, const std::vector<std::byte>& stream, std::size_t n)
{
    RecordDecoder d;
    d.addEvent(attr);
    DecodedRecord out;
    std::uint64_t sink = 0;
    for (auto _ : state) {
        std::size_t at = 0;
        while (at < stream.size()) {
            std::uint16_t size;
            std::memcpy(&size, stream.data() + at + 6, 2);
            if (d.decode({ stream.data() + at, size }, out)) sink += out.sample.ip + out.sample.branches.size();
            at += size;
        }
    }
    benchmark::DoNotOptimize(sink);
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(stream.size()));
}

void ringStream(benchmark::State& state, const EventAttr& attr, const std::vector<std::byte>& stream, std::size_t n)
{
    auto ring = MemoryRing::create(1 << 20);
    auto reader = RingReader::create(ring->view());
    RecordDecoder d;
    d.addEvent(attr);
    DecodedRecord scratch;
    std::uint64_t sink = 0;
    for (auto _ : state) {
        std::size_t at = 0;
        while (at < stream.size()) {
            std::uint16_t size;
            std::memcpy(&size, stream.data() + at + 6, 2);
            if (!ring->write({ stream.data() + at, size })) {
                reader->drainDecoded(d, scratch, [&](const DecodedRecord& r) { sink += r.sample.ip; });
                continue;
            }
            at += size;
        }
        reader->drainDecoded(d, scratch, [&](const DecodedRecord& r) { sink += r.sample.ip; });
    }
    benchmark::DoNotOptimize(sink);
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

constexpr std::size_t N = 4096;

void BM_DecodeLoadLatencySample(benchmark::State& state)
{
    decodeStream(state, loadLatencyAttr(), loadLatencyStream(N), N);
}
void BM_DecodeLbr32Sample(benchmark::State& state)
{
    decodeStream(state, lbrAttr(), lbrStream(N), N);
}
void BM_RingDecodeLoadLatencySample(benchmark::State& state)
{
    ringStream(state, loadLatencyAttr(), loadLatencyStream(N), N);
}
void BM_RingDecodeLbr32Sample(benchmark::State& state)
{
    ringStream(state, lbrAttr(), lbrStream(N), N);
}

} // namespace

BENCHMARK(BM_DecodeLoadLatencySample);
BENCHMARK(BM_DecodeLbr32Sample);
BENCHMARK(BM_RingDecodeLoadLatencySample);
BENCHMARK(BM_RingDecodeLbr32Sample);
BENCHMARK_MAIN();
