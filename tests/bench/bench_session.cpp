// SPDX-License-Identifier: GPL-3.0-or-later
// Session file figures (issue 5): write throughput in RDT rows/s (target >= 1 M/s, batched), bytes per RDT row
// on disk, and the time to open and summarize a synthetic one-hour session of 64 groups x 4 domains at 10 Hz
// (9.2 M rows; target < 1 s). The hour file is generated once into $TMPDIR and reused by later runs.
#include "session/SessionReader.h"
#include "session/SessionText.h"
#include "session/SessionWriter.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

using namespace rdt;
using namespace rdt::session;

namespace {

constexpr int kGroups = 64;
constexpr int kDomains = 4;
constexpr std::uint64_t kPeriodNs = 100'000'000; // 10 Hz
constexpr std::uint64_t kStartNs = 1'000'000'000;

std::string tmpPath(const char* name)
{
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/" + name;
}

/// A realistic batch: 64 groups x 4 domains with values that change every poll (so rows do not compress to
/// nothing in SQLite's varints).
RdtSampleBatch makeBatch(std::uint64_t k)
{
    RdtSampleBatch b;
    b.timeNs = kStartNs + k * kPeriodNs;
    b.samples.reserve(kGroups * kDomains);
    for (int g = 0; g < kGroups; ++g) {
        for (int d = 0; d < kDomains; ++d) {
            RdtSample s;
            s.timeNs = b.timeNs;
            s.group = "g" + std::to_string(g);
            s.domain = d;
            const auto gd = static_cast<std::uint64_t>(g * kDomains + d);
            s.occupancyBytes = (1u << 20) + ((k * 7919 + gd * 104729) % 4096) * 4096;
            s.mbmTotalBytes = k * 150'000'000 + gd * 1'000'003;
            s.mbmLocalBytes = k * 100'000'000 + gd * 999'983;
            s.mbmTotalBps = 1.5e9 + static_cast<double>((k * 31 + gd) % 1000) * 1e6;
            s.mbmLocalBps = 1.0e9 + static_cast<double>((k * 17 + gd) % 1000) * 1e6;
            b.samples.push_back(std::move(s));
        }
    }
    return b;
}

SessionMeta benchMeta()
{
    SessionMeta m;
    m.startMonoNs = kStartNs;
    m.source = "synthetic";
    m.simulated = true;
    m.intervalNs = kPeriodNs;
    m.host = "bench";
    return m;
}

void BM_WriteRdtRows(benchmark::State& state)
{
    const std::string path = tmpPath("rdtscope-bench-write.rdts");
    auto w = SessionWriter::create(path, benchMeta(), MachineInfo {}, WriterOptions { true, 0 });
    if (!w) {
        state.SkipWithError(w.error().toString().c_str());
        return;
    }
    std::vector<RdtSampleBatch> batches;
    for (std::uint64_t k = 0; k < 64; ++k)
        batches.push_back(makeBatch(k));
    std::uint64_t k = 0, rows = 0;
    const auto wall0 = std::chrono::steady_clock::now();
    for (auto _ : state) {
        // Reuse the prepared batches with a fresh time stamp: generation is not what is measured.
        RdtSampleBatch& b = batches[k % batches.size()];
        b.timeNs = kStartNs + k * kPeriodNs;
        for (auto& s : b.samples)
            s.timeNs = b.timeNs;
        if (!w.value()->addSamples(b)) {
            state.SkipWithError("write failed");
            return;
        }
        if (++k % 5 == 0 && !w.value()->flush()) // 5 polls at 10 Hz = one 500 ms flush
            state.SkipWithError("flush failed");
        rows += b.samples.size();
    }
    const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    (void)w.value()->close();
    const auto bytes = std::filesystem::file_size(path);
    state.SetItemsProcessed(static_cast<std::int64_t>(rows));
    state.counters["rows_per_s"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
    // Wall-clock rate too: it includes the kernel's share of the writes (and any other load on the machine).
    state.counters["rows_per_wall_s"] = static_cast<double>(rows) / wallS;
    state.counters["bytes_per_row"] = static_cast<double>(bytes) / static_cast<double>(rows);
    std::filesystem::remove(path);
}
BENCHMARK(BM_WriteRdtRows)->Unit(benchmark::kMicrosecond)->MinTime(3.0);

/// Writes the one-hour session once (36,000 polls x 256 rows), unless a complete one is already there.
std::string hourSession(double* genSeconds)
{
    const std::string path = tmpPath("rdtscope-bench-hour.rdts");
    if (auto r = SessionReader::open(path); r && r.value()->closedCleanly() && r.value()->sampleCount() == 36000u * 256)
        return path;
    const auto t0 = std::chrono::steady_clock::now();
    auto w = SessionWriter::create(path, benchMeta(), MachineInfo { {}, {}, "synthetic one-hour session" },
        WriterOptions { true, 0 });
    if (!w)
        return {};
    for (std::uint64_t k = 0; k < 36000; ++k) {
        if (!w.value()->addSamples(makeBatch(k)))
            return {};
        if (k % 5 == 4 && !w.value()->flush())
            return {};
    }
    if (!w.value()->close())
        return {};
    *genSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return path;
}

void BM_OpenAndSummarizeOneHour(benchmark::State& state)
{
    double genSeconds = 0;
    const std::string path = hourSession(&genSeconds);
    if (path.empty()) {
        state.SkipWithError("could not write the one-hour session");
        return;
    }
    std::size_t buckets = 0;
    for (auto _ : state) {
        auto r = SessionReader::open(path);
        if (!r) {
            state.SkipWithError(r.error().toString().c_str());
            return;
        }
        const std::string text = formatSummary(*r.value());
        // What a GUI overview of the whole hour reads: the per-minute summary of every series.
        auto minutes = r.value()->summary(60);
        buckets = minutes ? minutes->size() : 0;
        benchmark::DoNotOptimize(text.data());
    }
    state.counters["rows"] = 36000.0 * 256;
    state.counters["minute_buckets"] = static_cast<double>(buckets);
    state.counters["file_MiB"] = static_cast<double>(std::filesystem::file_size(path)) / (1024.0 * 1024.0);
    if (genSeconds > 0)
        state.counters["generate_s"] = genSeconds;
}
BENCHMARK(BM_OpenAndSummarizeOneHour)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
