// SPDX-License-Identifier: GPL-3.0-or-later
// The perf.data reader on its own (no perf needed): feature sections of the real fixtures (values from
// `perf report --header-only`), pipe streams, zstd records, progress and cancellation, and damaged files.

#include "PerfOracle.h"
#include "perfdata/PerfDataReader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace rdt;
using namespace rdt::perfdata;
using rdt::perfdata::test::dataPath;

namespace {

std::vector<std::byte> slurp(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::vector<char> c((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<std::byte> b(c.size());
    std::memcpy(b.data(), c.data(), c.size());
    return b;
}

struct Counted {
    ReadStats stats;
    std::size_t samples = 0, mmaps = 0, branches = 0;
};

Counted readAll(PerfDataReader& r)
{
    Counted c;
    auto st = r.read([&](const pmu::DecodedRecord& rec) {
        if (rec.kind == pmu::RecordKind::Sample) {
            ++c.samples;
            c.branches += rec.sample.branches.size();
        } else if (rec.kind == pmu::RecordKind::Mmap) {
            ++c.mmaps;
        }
        return true;
    });
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().toString());
    if (st.ok()) c.stats = *st;
    return c;
}

} // namespace

TEST(PerfdataReader, FeatureSectionsOfPropeller)
{
    auto r = PerfDataReader::open(dataPath("propeller_sample_1.perfdata"));
    ASSERT_TRUE(r.ok()) << r.error().toString();
    const auto& h = (*r)->header();
    EXPECT_FALSE((*r)->pipeMode());
    EXPECT_EQ(h.hostname, "nonet5.prod.google.com");
    EXPECT_EQ(h.osRelease, "4.15.0-smp-912.24.0.0");
    EXPECT_EQ(h.version, "4.13.0-14-GOOGLE-g0dd8d80eb2b1");
    EXPECT_EQ(h.arch, "x86_64");
    EXPECT_EQ(h.nrCpusOnline.value_or(0), 112u);
    EXPECT_EQ(h.nrCpusAvailable.value_or(0), 112u);
    EXPECT_EQ(h.cpuDesc, "Intel(R) Xeon(R) Platinum 8173M CPU @ 2.00GHz");
    EXPECT_EQ(h.cpuId, "GenuineIntel,6,85,4");
    EXPECT_EQ(h.totalMemKb.value_or(0), 395073300u);
    EXPECT_EQ(h.commandLine(),
        "/usr/bin/perf record -o propeller_sample_1.perfdata1.gen -e cycles -b -- ./propeller_sample_1.bin.gen");
    EXPECT_TRUE(h.branchStack);
    ASSERT_EQ(h.events.size(), 1u);
    EXPECT_EQ(h.events[0].name, "cycles:u");
    EXPECT_EQ(h.events[0].attr.branchSampleType, std::uint64_t { pmu::perf::BranchAny });
    EXPECT_EQ(h.events[0].attr.size, 112u);
    EXPECT_FALSE(h.topology.coreSiblings.empty());
    EXPECT_EQ(h.topology.cpus.size(), 112u);
    EXPECT_TRUE(h.warnings.empty());
    // Skipped but counted: NUMA topology, PMU mappings, cache.
    EXPECT_FALSE(h.skippedFeatures.empty());

    // Build ids: perf pads the binary's 8-byte id to 20; it must match the binary by the binary's own length.
    ASSERT_EQ(h.buildIds.size(), 4u); // perf buildid-list adds the running kernel's own
    const BuildIdEntry* bin = nullptr;
    for (const auto& b : h.buildIds)
        if (b.filename.find("propeller_sample_1.bin.gen") != std::string::npos) bin = &b;
    ASSERT_NE(bin, nullptr);
    EXPECT_EQ(bin->id.hex(), "572ac72487ae1966000000000000000000000000");
    const std::uint8_t own[] = { 0x57, 0x2a, 0xc7, 0x24, 0x87, 0xae, 0x19, 0x66 };
    EXPECT_TRUE(bin->id.matches(own));
    const std::uint8_t other[] = { 0x57, 0x2a, 0xc7, 0x24, 0x87, 0xae, 0x19, 0x67 };
    EXPECT_FALSE(bin->id.matches(other));
    EXPECT_EQ(h.buildIdFor(bin->filename), bin);
    ASSERT_EQ((*r)->decoder().eventCount(), 1u);

    auto c = readAll(**r);
    EXPECT_EQ(c.samples, 3740u);
    EXPECT_EQ(c.stats.samples, 3740u);
    EXPECT_GT(c.mmaps, 0u);
    EXPECT_EQ(c.stats.decodeErrors, 0u);
    EXPECT_FALSE(c.stats.truncated);
}

TEST(PerfdataReader, GroupDescAndLostSamples)
{
    auto r = PerfDataReader::open(dataPath("perf.data.lost_samples-4.4"));
    ASSERT_TRUE(r.ok()) << r.error().toString();
    const auto& h = (*r)->header();
    ASSERT_EQ(h.groups.size(), 1u);
    EXPECT_EQ(h.groups[0].members, 3u);
    EXPECT_EQ((*r)->decoder().eventCount(), 3u);
    auto c = readAll(**r);
    EXPECT_EQ(c.stats.byType[pmu::perf::RecordLostSamples], 2u);
    EXPECT_GT(c.stats.lostSamples, 0u);
}

TEST(PerfdataReader, PipeModeStreamedFromADescriptor)
{
    const auto path = dataPath("perf.data.branch-4.14.pipe");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    auto bytes = slurp(path);
    ASSERT_GT(bytes.size(), 0u);
    // A writer thread would be the real-life shape; the file is small enough to fit the pipe buffer in parts, so
    // write it from a forked child.
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(fds[0]);
        std::size_t off = 0;
        while (off < bytes.size()) {
            const auto n = write(fds[1], bytes.data() + off, std::min<std::size_t>(4096, bytes.size() - off));
            if (n <= 0) _exit(1);
            off += static_cast<std::size_t>(n);
        }
        _exit(0);
    }
    close(fds[1]);
    auto r = PerfDataReader::openPipe(fds[0]);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_TRUE((*r)->pipeMode());
    auto c = readAll(**r);
    close(fds[0]);
    waitpid(child, nullptr, 0);
    EXPECT_EQ(c.samples, 13u);
    EXPECT_EQ(c.branches, 13u * 32);
    EXPECT_EQ(c.stats.byType[pmu::perf::RecordHeaderAttr], 1u);
    EXPECT_EQ(c.stats.byType[pmu::perf::RecordHeaderFeature], 13u);
    EXPECT_EQ((*r)->header().cpuDesc, "AMD EPYC"); // perf inject wrote the features of the machine it ran on
    EXPECT_FALSE(c.stats.truncated);

    // The same bytes through the mapped path agree.
    auto m = PerfDataReader::open(path);
    ASSERT_TRUE(m.ok());
    EXPECT_TRUE((*m)->pipeMode());
    auto c2 = readAll(**m);
    EXPECT_EQ(c2.samples, 13u);
    EXPECT_EQ(c2.stats.records, c.stats.records);
}

TEST(PerfdataReader, TruncatedPipeStreamReadsWhatIsThere)
{
    auto r = PerfDataReader::open(dataPath("weight_struct.pipe.truncated"));
    ASSERT_TRUE(r.ok()) << r.error().toString();
    auto c = readAll(**r);
    EXPECT_TRUE(c.stats.truncated);
    ASSERT_FALSE(c.stats.warnings.empty());
    EXPECT_NE(c.stats.warnings.back().find("truncated"), std::string::npos) << c.stats.warnings.back();
    EXPECT_GT(c.samples + c.mmaps, 0u);
}

TEST(PerfdataReader, ZstdCompressedRecords)
{
    auto r = PerfDataReader::open(dataPath("cpu-clock-zstd.perfdata"));
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_TRUE((*r)->header().compressionLevel.has_value());
    auto c = readAll(**r);
    EXPECT_EQ(c.stats.compressedRecords, 1u);
    EXPECT_GT(c.stats.decompressedBytes, 0u);
    EXPECT_EQ(c.samples, 19u); // perf report --stats: 19 SAMPLE events, all inside the COMPRESSED record
    EXPECT_EQ(c.stats.decodeErrors, 0u);
}

TEST(PerfdataReader, ProgressAndCancellation)
{
    auto r = PerfDataReader::open(dataPath("propeller_sample_1.perfdata"));
    ASSERT_TRUE(r.ok());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
    ReadOptions opt;
    opt.progressEvery = 256 * 1024;
    opt.progress = [&](std::uint64_t done, std::uint64_t total) {
        calls.emplace_back(done, total);
        return calls.size() < 3; // cancel at the third call
    };
    std::size_t samples = 0;
    auto st = (*r)->read(
        [&](const pmu::DecodedRecord& rec) {
            samples += rec.kind == pmu::RecordKind::Sample;
            return true;
        },
        opt);
    ASSERT_TRUE(st.ok());
    EXPECT_TRUE(st->cancelled);
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_EQ(calls[0].second, (*r)->dataSize());
    EXPECT_LT(calls[0].first, calls[1].first);
    EXPECT_GT(samples, 0u);
    EXPECT_LT(samples, 3740u);
    // A reader reads once.
    EXPECT_FALSE((*r)->read(nullptr).ok());
}

TEST(PerfdataReader, NotPerfDataGivesAClearError)
{
    auto r = PerfDataReader::fromBytes({});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("not a readable perf.data"), std::string::npos);
    auto junk = std::vector<std::byte>(200, std::byte { 'x' });
    r = PerfDataReader::fromBytes(junk);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("PERFILE2"), std::string::npos);
    auto missing = PerfDataReader::open("/nonexistent/perf.data");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
}

TEST(PerfdataReader, EveryTruncationIsHandled)
{
    // Cut propeller at many points: the header, the attrs, inside the data section, inside the features. Never a
    // crash; either a clear error from open() or a read that says it is truncated / lost features.
    const auto bytes = slurp(dataPath("propeller_sample_1.perfdata"));
    ASSERT_GT(bytes.size(), 1000u);
    std::vector<std::size_t> cuts = { 0, 7, 16, 100, 104, 200, 231, 232, 240, 1000, 65536, 1000003, bytes.size() - 1,
        bytes.size() - 100, bytes.size() - 3000 };
    for (std::size_t cut : cuts) {
        std::span<const std::byte> part(bytes.data(), cut);
        auto r = PerfDataReader::fromBytes(part);
        if (!r.ok()) {
            EXPECT_FALSE(r.error().message.empty());
            continue;
        }
        auto st = (*r)->read([](const pmu::DecodedRecord&) { return true; });
        ASSERT_TRUE(st.ok()) << cut << ": " << st.error().toString();
        const bool featuresLost = !(*r)->header().warnings.empty();
        EXPECT_TRUE(st->truncated || featuresLost || cut == 232) << "cut at " << cut;
    }
}

TEST(PerfdataReader, RandomCorruptionNeverCrashes)
{
    const auto original = slurp(dataPath("perf.data.branch-4.14"));
    std::mt19937 rng(1234);
    for (int round = 0; round < 300; ++round) {
        auto bytes = original;
        const int flips = 1 + round % 8;
        for (int i = 0; i < flips; ++i) {
            const auto at = std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng);
            bytes[at] = static_cast<std::byte>(rng());
        }
        auto r = PerfDataReader::fromBytes(bytes);
        if (!r.ok()) continue;
        std::size_t n = 0;
        auto st = (*r)->read([&](const pmu::DecodedRecord&) { return ++n < 100000; });
        if (!st.ok()) {
            EXPECT_FALSE(st.error().message.empty());
        }
    }
}

// A perf.data file that shrinks while it is read (perf still writing it, a copy or a rotation in progress) used to
// kill the process with SIGBUS: the reader mapped the file and touched pages past the new end. It reads with
// pread now; the rest of the file is simply missing, and the stats say it was cut short.
TEST(PerfDataReader, FileCutShortWhileItIsReadIsTruncationNotSigbus)
{
    const std::string copy = ::testing::TempDir() + "/shrinking.perfdata";
    {
        const auto bytes = slurp(dataPath("propeller_sample_1.perfdata"));
        std::ofstream(copy, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    auto whole = PerfDataReader::open(copy);
    ASSERT_TRUE(whole.ok()) << whole.error().toString();
    const Counted all = readAll(**whole);
    ASSERT_FALSE(all.stats.truncated);

    auto r = PerfDataReader::open(copy);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) { // in a child, so that a SIGBUS fails this test instead of ending the test program
        ASSERT_EQ(::truncate(copy.c_str(), 1'000'000), 0);
        const Counted cut = readAll(**r);
        bool said = false;
        for (const auto& w : cut.stats.warnings)
            said = said || w.find("cut short while it was read") != std::string::npos;
        _exit(cut.stats.truncated && said && cut.samples > 0 && cut.samples < all.samples ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the shrunken file was not reported as cut short";
}

TEST(PerfDataReader, OnlyRegularFilesAreOpened)
{
    auto dir = PerfDataReader::open("/tmp");
    ASSERT_FALSE(dir.ok());
    EXPECT_NE(dir.error().toString().find("not a regular file"), std::string::npos) << dir.error().toString();
    auto fifo = std::string(::testing::TempDir()) + "/perf.fifo";
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto f = PerfDataReader::open(fifo); // O_NONBLOCK: a FIFO without a writer never blocks the open
    EXPECT_FALSE(f.ok());
    ::unlink(fifo.c_str());
}
