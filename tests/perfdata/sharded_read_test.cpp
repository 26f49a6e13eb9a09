// SPDX-License-Identifier: GPL-3.0-or-later
// The two-thread reader (PerfDataReader::readSharded, ParallelRecordWalk) against the one-thread pass (read()): the
// same records and ReadStats on every fixture, on copies cut short and with a corrupt record header beyond the first
// chunks, and an import whose samples are tallied on two threads gives the figures of a single pass.

#include "PerfOracle.h"
#include "perfdata/ParallelRecordWalk.h"
#include "perfdata/PerfDataImport.h"
#include "perfdata/PerfDataReader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <mutex>
#include <unistd.h>

using namespace rdt;
using namespace rdt::perfdata;
using rdt::perfdata::test::dataPath;

namespace {

std::vector<char> slurp(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>() };
}

std::string writeTemp(const std::string& name, const std::vector<char>& bytes)
{
    const std::string path = ::testing::TempDir() + "/" + name;
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
}

/// What a pass saw: stats, and per record kind a count and a checksum of the samples' fields.
struct Pass {
    bool ok = false;
    std::string error;
    ReadStats stats;
    std::uint64_t samples = 0, branches = 0, sampleSum = 0, others = 0;
    std::vector<std::uint64_t> orderedOffsets; ///< offsets of the non-sample records, as they came
};

void countSample(Pass& p, const pmu::DecodedRecord& rec)
{
    ++p.samples;
    p.branches += rec.sample.branches.size();
    std::uint64_t h = rec.sample.ip * 31 + rec.sample.time;
    for (std::size_t i = 0; i < rec.sample.branches.size(); ++i)
        h = h * 1099511628211ull + rec.sample.branches[i].from + 3 * rec.sample.branches[i].to;
    p.sampleSum += h; // a sum: the same whatever order the samples come in
}

Pass onePass(const std::string& path, const ReadOptions& opt = {})
{
    Pass p;
    auto r = PerfDataReader::open(path);
    if (!r) {
        p.error = r.error().toString();
        return p;
    }
    auto& reader = **r;
    auto st = reader.read(
        [&](const pmu::DecodedRecord& rec) {
            if (rec.kind == pmu::RecordKind::Sample) {
                countSample(p, rec);
            } else {
                ++p.others;
                p.orderedOffsets.push_back(reader.position());
            }
            return true;
        },
        opt);
    p.ok = st.ok();
    if (st)
        p.stats = *st;
    else
        p.error = st.error().toString();
    return p;
}

Pass sharded(const std::string& path, const ReadOptions& opt = {})
{
    Pass p;
    auto r = PerfDataReader::open(path);
    if (!r) {
        p.error = r.error().toString();
        return p;
    }
    auto& reader = **r;
    EXPECT_TRUE(reader.canReadSharded(opt));
    std::mutex mutex;
    std::atomic<int> inOrdered { 0 };
    auto st = reader.readSharded(
        [&](const pmu::DecodedRecord& rec) {
            EXPECT_EQ(inOrdered.fetch_add(1), 0) << "ordered records came concurrently";
            if (rec.kind == pmu::RecordKind::Sample) {
                std::lock_guard lock(mutex);
                countSample(p, rec);
            } else {
                ++p.others;
                p.orderedOffsets.push_back(reader.position());
            }
            inOrdered.fetch_sub(1);
        },
        [&](unsigned thread, const pmu::DecodedRecord& rec, std::uint64_t) {
            EXPECT_LT(thread, ParallelRecordWalk::Threads);
            EXPECT_EQ(rec.kind, pmu::RecordKind::Sample);
            std::lock_guard lock(mutex);
            countSample(p, rec);
        },
        opt);
    p.ok = st.ok();
    if (st)
        p.stats = *st;
    else
        p.error = st.error().toString();
    return p;
}

void expectSame(const Pass& a, const Pass& b, const std::string& what)
{
    SCOPED_TRACE(what);
    ASSERT_EQ(a.ok, b.ok) << a.error << " / " << b.error;
    EXPECT_EQ(a.error, b.error);
    EXPECT_EQ(a.samples, b.samples);
    EXPECT_EQ(a.branches, b.branches);
    EXPECT_EQ(a.sampleSum, b.sampleSum);
    EXPECT_EQ(a.others, b.others);
    EXPECT_EQ(a.orderedOffsets, b.orderedOffsets);
    const auto &x = a.stats, &y = b.stats;
    EXPECT_EQ(x.records, y.records);
    EXPECT_EQ(x.samples, y.samples);
    EXPECT_EQ(x.bytes, y.bytes);
    EXPECT_EQ(0, std::memcmp(x.byType, y.byType, sizeof x.byType));
    EXPECT_EQ(x.unknownRecords, y.unknownRecords);
    EXPECT_EQ(x.compressedRecords, y.compressedRecords);
    EXPECT_EQ(x.decompressedBytes, y.decompressedBytes);
    EXPECT_EQ(x.finishedRounds, y.finishedRounds);
    EXPECT_EQ(x.lost, y.lost);
    EXPECT_EQ(x.lostSamples, y.lostSamples);
    EXPECT_EQ(x.decodeErrors, y.decodeErrors);
    EXPECT_EQ(x.skippedPayloadBytes, y.skippedPayloadBytes);
    EXPECT_EQ(x.truncated, y.truncated);
    EXPECT_EQ(x.cancelled, y.cancelled);
    EXPECT_EQ(x.warnings, y.warnings);
}

// File mode, with and without zstd-compressed records, and perf 6.14's record types (some stop the walk).
const std::vector<std::string> FileModeFixtures
    = { "propeller_sample_1.perfdata", "perf.data.weight_struct", "perf.data.branch_stack_hw_index",
          "cpu-clock-fp-threads.perfdata", "perf.data.lost_samples-4.4", "perf.data.branch-4.14", "perf.lbr.data",
          "cpu-clock-zstd.perfdata", "perf61-multi-event-z.data", "perf614-records.data" };

} // namespace

TEST(ShardedRead, SameRecordsAndStatsAsOnePassOnEveryFixture)
{
    for (const auto& name : FileModeFixtures) {
        const auto one = onePass(dataPath(name));
        ASSERT_TRUE(one.ok) << name << ": " << one.error;
        ASSERT_GT(one.stats.records, 0u) << name;
        expectSame(one, sharded(dataPath(name)), name);
    }
}

// propeller is 3 MiB: six chunks, records cut by every chunk edge. Cut it short at chunk edges, inside records and
// inside record headers; corrupt a header after the first chunks; the two-thread read says what one pass says.
TEST(ShardedRead, DamagedFilesReadAsInOnePass)
{
    const auto bytes = slurp(dataPath("propeller_sample_1.perfdata"));
    ASSERT_GT(bytes.size(), 4 * ParallelRecordWalk::ChunkBytes);
    std::uint64_t dataOffset = 0;
    std::memcpy(&dataOffset, bytes.data() + 40, 8); // perf_file_header.data.offset
    for (const std::size_t cut : { std::size_t { dataOffset + ParallelRecordWalk::ChunkBytes },
             std::size_t { dataOffset + 2 * ParallelRecordWalk::ChunkBytes + 3 }, std::size_t { 1'000'000 },
             std::size_t { 2'345'679 }, bytes.size() - 1000 }) {
        const auto path
            = writeTemp("cut.perfdata", { bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut) });
        const auto one = onePass(path);
        if (!one.ok && one.error.find("cannot") != std::string::npos) continue;
        expectSame(one, sharded(path), "cut at " + std::to_string(cut));
    }
    // A record header of size 4 at the first record after 1.5 MiB: an error naming its offset and the records
    // before it.
    auto corrupt = bytes;
    std::size_t at = dataOffset;
    while (at < dataOffset + 3 * ParallelRecordWalk::ChunkBytes) {
        std::uint16_t size = 0;
        std::memcpy(&size, corrupt.data() + at + 6, 2);
        at += size;
    }
    const std::uint16_t bad = 4;
    std::memcpy(corrupt.data() + at + 6, &bad, 2);
    const auto path = writeTemp("corrupt.perfdata", corrupt);
    const auto one = onePass(path);
    ASSERT_FALSE(one.ok);
    EXPECT_NE(one.error.find("corrupt record header at offset " + std::to_string(at)), std::string::npos) << one.error;
    expectSame(one, sharded(path), "corrupt header");
}

TEST(ShardedRead, ProgressComesFromTheCallerAndCancels)
{
    const auto path = dataPath("propeller_sample_1.perfdata");
    const auto caller = ::gettid();
    std::vector<std::uint64_t> calls;
    ReadOptions opt;
    opt.progressEvery = 256 * 1024;
    opt.progress = [&](std::uint64_t done, std::uint64_t) {
        EXPECT_EQ(::gettid(), caller);
        calls.push_back(done);
        return true;
    };
    const auto all = sharded(path, opt);
    ASSERT_TRUE(all.ok);
    // At least the last call; more when the caller's thread handled chunks (on a loaded machine the other thread
    // may have handled them all).
    ASSERT_GE(calls.size(), 1u);
    EXPECT_TRUE(std::is_sorted(calls.begin(), calls.end()));
    EXPECT_EQ(calls.back(), all.stats.bytes);

    // Cancelled at the first call, after the caller's first chunk. The other thread may have handled the whole file
    // by then on a loaded machine (the caller was not scheduled): try a few times.
    opt.progressEvery = 1;
    opt.progress = [&](std::uint64_t, std::uint64_t) { return false; };
    Pass cancelled;
    for (int attempt = 0; attempt < 10 && !cancelled.stats.cancelled; ++attempt)
        cancelled = sharded(path, opt);
    ASSERT_TRUE(cancelled.ok);
    EXPECT_TRUE(cancelled.stats.cancelled);
    EXPECT_LT(cancelled.samples, all.samples);
    EXPECT_LT(cancelled.stats.bytes, all.stats.bytes);
}

TEST(ShardedRead, PipesAndRawRecordsAreReadInOnePass)
{
    auto pipe = PerfDataReader::fromBytes({});
    EXPECT_FALSE(pipe.ok());
    auto r = PerfDataReader::open(dataPath("perf.data.branch-4.14"));
    ASSERT_TRUE(r.ok());
    ReadOptions raw;
    raw.onRawRecord = [](std::span<const std::byte>) {};
    EXPECT_FALSE((*r)->canReadSharded(raw));
    EXPECT_TRUE((*r)->canReadSharded({}));
    const auto bytes = slurp(dataPath("perf.data.branch-4.14"));
    std::vector<std::byte> copy(bytes.size());
    std::memcpy(copy.data(), bytes.data(), bytes.size());
    auto inMemory = PerfDataReader::fromBytes(copy);
    ASSERT_TRUE(inMemory.ok());
    EXPECT_FALSE((*inMemory)->canReadSharded({}));
    EXPECT_FALSE((*inMemory)->readSharded([](const pmu::DecodedRecord&) {}, nullptr).ok());
}

// The import tallies samples per thread when it may (no per-record callbacks): the same figures as one pass.
TEST(ShardedRead, ImportFiguresEqualOnePass)
{
    for (const std::string name : { "propeller_sample_1.perfdata", "perf.data.branch_stack_hw_index",
             "perf.data.branch-4.14", "cpu-clock-fp-threads.perfdata", "perf.data.weight_struct" }) {
        SCOPED_TRACE(name);
        ImportOptions sharded;
        sharded.symfs = { dataPath("") };
        sharded.threads = 2;
        ImportOptions one = sharded;
        one.threads = 1;
        const auto a = importPerfData(dataPath(name), sharded);
        const auto b = importPerfData(dataPath(name), one);
        ASSERT_TRUE(a.ok() && b.ok());
        EXPECT_EQ(a->samples, b->samples);
        EXPECT_GT(a->samples, 0u);
        EXPECT_EQ(a->stats.records, b->stats.records);
        EXPECT_EQ(a->stats.warnings, b->stats.warnings);
        ASSERT_EQ(a->bySymbol.size(), b->bySymbol.size());
        for (std::size_t i = 0; i < a->bySymbol.size(); ++i) {
            EXPECT_EQ(a->bySymbol[i].symbol, b->bySymbol[i].symbol);
            EXPECT_EQ(a->bySymbol[i].samples, b->bySymbol[i].samples);
            EXPECT_EQ(a->bySymbol[i].period, b->bySymbol[i].period);
        }
        EXPECT_EQ(a->lbrMode, b->lbrMode);
        EXPECT_EQ(a->lbr.samples, b->lbr.samples);
        EXPECT_EQ(a->lbr.branches, b->lbr.branches);
        EXPECT_EQ(a->lbr.emptyStacks, b->lbr.emptyStacks);
        EXPECT_EQ(a->lbr.kernelOnlyStacks, b->lbr.kernelOnlyStacks);
        ASSERT_EQ(a->lbr.edges.size(), b->lbr.edges.size());
        for (std::size_t i = 0; i < a->lbr.edges.size(); ++i) {
            const auto &x = a->lbr.edges[i], &y = b->lbr.edges[i];
            EXPECT_EQ(std::tie(x.from, x.to, x.kind, x.kindFrom), std::tie(y.from, y.to, y.kind, y.kindFrom));
            EXPECT_EQ(std::tie(x.stats.count, x.stats.mispredicts, x.stats.cycles, x.stats.cycleSamples, x.stats.type,
                          x.stats.newType),
                std::tie(y.stats.count, y.stats.mispredicts, y.stats.cycles, y.stats.cycleSamples, y.stats.type,
                    y.stats.newType));
        }
        ASSERT_EQ(a->lbr.functions.size(), b->lbr.functions.size());
        for (std::size_t i = 0; i < a->lbr.functions.size(); ++i)
            EXPECT_EQ(std::tie(a->lbr.functions[i].name, a->lbr.functions[i].self, a->lbr.functions[i].inclusive),
                std::tie(b->lbr.functions[i].name, b->lbr.functions[i].self, b->lbr.functions[i].inclusive));
        EXPECT_EQ(a->hasMem, b->hasMem);
        EXPECT_EQ(a->mem.total.count, b->mem.total.count);
    }
}
