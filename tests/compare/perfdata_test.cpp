// SPDX-License-Identifier: GPL-3.0-or-later
// perf.data fixtures (tests/data/perf, real recordings): a file against itself changes nothing; two different
// programs list their mismatched symbols; load latency per data source and per memory region; a session against a
// perf.data file.

#include "CompareTestUtil.h"
#include "compare/CompareFormat.h"
#include "perfdata/PerfDataSession.h"
#include "pmu/DataSource.h"
#include "pmu/PerfRecord.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>

using namespace rdt::compare;
using namespace rdt::compare::test;

namespace {

Comparison compare(const std::string& a, const std::string& b, Normalize n = Normalize::None)
{
    CompareRequest req;
    req.pathA = a;
    req.pathB = b;
    req.loadA.symfs = req.loadB.symfs = { std::string(RDTSCOPE_TEST_DATA) + "/perf" };
    req.options.normalize = n;
    auto c = compareFiles(req);
    EXPECT_TRUE(c.ok()) << (c ? "" : c.error().toString());
    return c ? std::move(c).value() : Comparison {};
}

/// Writes a copy of the file-mode load-latency recording `source` to `out` whose samples carry mem_region
/// `region(i)` (i: the sample's index) in perf_mem_data_src: 5 bits at shift 46 (Linux 7.0 uapi
/// include/uapi/linux/perf_event.h, PERF_MEM_REGION_*), what a Diamond Rapids recording holds. Every other byte is
/// kept. Every field before DATA_SRC must have a fixed size (checked); returns the samples per region written.
std::map<std::uint64_t, std::uint64_t> withMemRegions(
    const std::string& source, const std::string& out, const std::function<std::uint64_t(std::size_t)>& region)
{
    namespace perf = rdt::pmu::perf;
    std::ifstream in(source, std::ios::binary);
    std::vector<char> f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto u64 = [&](std::size_t off) {
        std::uint64_t v = 0;
        std::memcpy(&v, f.data() + off, 8);
        return v;
    };
    std::map<std::uint64_t, std::uint64_t> written;
    EXPECT_GE(f.size(), 104u);
    if (f.size() < 104) return written;
    // struct perf_file_header (tools/perf/util/header.h): attr_size 16, attrs {offset, size} 24, data 40.
    const std::uint64_t attrSize = u64(16), attrs = u64(24), attrsSize = u64(32), data = u64(40), dataSize = u64(48);
    const std::uint64_t sampleType = u64(attrs + 24); // perf_event_attr.sample_type
    for (std::uint64_t a = attrs; a < attrs + attrsSize; a += attrSize)
        EXPECT_EQ(u64(a + 24), sampleType) << "every event must lay its samples out alike";
    const std::uint64_t variable = perf::SampleRead | perf::SampleCallchain | perf::SampleRaw | perf::SampleBranchStack
        | perf::SampleRegsUser | perf::SampleStackUser;
    EXPECT_EQ(sampleType & variable, 0u);
    EXPECT_TRUE(sampleType & perf::SampleDataSrc);
    // The sample's fields before DATA_SRC, in the kernel's order (perf_output_sample), one u64 each.
    const std::uint64_t before = perf::SampleIdentifier | perf::SampleIp | perf::SampleTid | perf::SampleTime
        | perf::SampleAddr | perf::SampleId | perf::SampleStreamId | perf::SampleCpu | perf::SamplePeriod
        | perf::SampleWeight | perf::SampleWeightStruct;
    const std::size_t dataSrcAt = 8 + 8 * static_cast<std::size_t>(std::popcount(sampleType & before));
    std::size_t index = 0;
    for (std::uint64_t at = data; at + 8 <= data + dataSize;) {
        std::uint32_t type = 0;
        std::uint16_t size = 0;
        std::memcpy(&type, f.data() + at, 4);
        std::memcpy(&size, f.data() + at + 6, 2);
        if (size < 8) break;
        if (type == perf::RecordSample && size >= dataSrcAt + 8) {
            const std::uint64_t g = region(index++);
            const std::uint64_t dataSrc = (u64(at + dataSrcAt) & ~(0x1full << 46)) | (g << 46);
            std::memcpy(f.data() + at + dataSrcAt, &dataSrc, 8);
            ++written[g];
        }
        at += size;
    }
    std::ofstream(out, std::ios::binary).write(f.data(), static_cast<std::streamsize>(f.size()));
    return written;
}

} // namespace

TEST(ComparePerfData, SameFileAgainstItselfHasAllDeltasZero)
{
    for (const char* name : { "propeller_sample_1.perfdata", "perf.data.weight_struct", "perf.lbr.data" }) {
        SCOPED_TRACE(name);
        const Comparison c = compare(dataPath(name), dataPath(name));
        ASSERT_FALSE(c.rows.empty());
        for (const auto& r : c.rows) {
            ASSERT_TRUE(r.delta()) << r.item;
            EXPECT_EQ(*r.delta(), 0.0) << r.item << " " << r.metric;
            if (r.shareRow()) {
                EXPECT_EQ(r.ratio().value_or(1.0), 1.0) << r.item;
            }
        }
        EXPECT_TRUE(c.onlyInA.empty());
        EXPECT_TRUE(c.onlyInB.empty());
        EXPECT_TRUE(c.mismatches.empty()) << c.mismatches.front().text;
    }
}

TEST(ComparePerfData, PropellerEdgesCarryPerfsCounts)
{
    const Comparison c = compare(dataPath("propeller_sample_1.perfdata"), dataPath("propeller_sample_1.perfdata"));
    // `perf report -b -n` summed per symbol pair: main -> compute_flag 15930 calls, main -> main 72413 branches.
    const DiffRow* call = findRow(c, Section::CallEdge, "main -> compute_flag", "share");
    ASSERT_NE(call, nullptr);
    EXPECT_EQ(*call->countA, 15930);
    const DiffRow* loop = findRow(c, Section::HotBranch, "main", "share");
    ASSERT_NE(loop, nullptr);
    EXPECT_EQ(*loop->countA, 72413);
    EXPECT_EQ(c.a.family, 6u);
    EXPECT_EQ(c.a.model, 85u); // Xeon Platinum 8173M: GenuineIntel,6,85,4
}

TEST(ComparePerfData, DifferentProgramsListMismatchedSymbols)
{
    const Comparison c = compare(dataPath("propeller_sample_1.perfdata"), dataPath("perf.data.branch-4.14"));
    EXPECT_FALSE(c.onlyInA.empty());
    EXPECT_FALSE(c.onlyInB.empty());
    EXPECT_NE(std::find(c.onlyInA.begin(), c.onlyInA.end(), "compute_flag"), c.onlyInA.end());
    bool symbols = false, machine = false;
    for (const auto& m : c.mismatches) {
        symbols = symbols || m.kind == "symbols";
        machine = machine || m.kind == "machine"; // Skylake-SP server vs Skylake client (model 78)
    }
    EXPECT_TRUE(symbols);
    EXPECT_TRUE(machine);
    // Edges of one side only: delta = the side's share, no ratio.
    const DiffRow* onlyA = findRow(c, Section::CallEdge, "main -> compute_flag", "share");
    ASSERT_NE(onlyA, nullptr);
    EXPECT_FALSE(onlyA->b);
    EXPECT_DOUBLE_EQ(*onlyA->delta(), -*onlyA->a);
    EXPECT_FALSE(onlyA->ratio());
    const std::string text = formatText(c, 5);
    EXPECT_NE(text.find("Functions only in A"), std::string::npos) << text;
    EXPECT_NE(text.find("[only in A]"), std::string::npos) << text;
}

TEST(ComparePerfData, LoadLatencyPerDataSourceAndWindows)
{
    const Comparison whole = compare(dataPath("perf.data.weight_struct"), dataPath("perf.data.weight_struct"));
    ASSERT_TRUE(whole.a.hasMem);
    std::uint64_t total = 0;
    for (const auto& s : whole.a.latencyBySource)
        total += s.count;
    EXPECT_EQ(total, whole.a.loadSamples) << "every load is in exactly one data source";
    EXPECT_FALSE(whole.a.latencyByFunction.empty());

    // Half of the recording against the whole, normalised by duration: shares are comparable, counts per second.
    CompareRequest req;
    req.pathA = req.pathB = dataPath("perf.data.weight_struct");
    req.loadA.window.kind = Window::Kind::Range;
    req.loadA.window.toS = whole.a.recordingS / 2;
    req.options.normalize = Normalize::Duration;
    auto half = compareFiles(req);
    ASSERT_TRUE(half.ok()) << half.error().toString();
    EXPECT_LT(half->a.loadSamples, whole.a.loadSamples);
    EXPECT_EQ(half->normalize, Normalize::Duration);
    const DiffRow* any = nullptr;
    for (const auto& r : half->rows)
        if (r.section == Section::LatencySource && r.metric == "share" && r.countA && r.countB) any = &r;
    ASSERT_NE(any, nullptr);
    // countA is per second of A's window: samples / seconds.
    const auto& figures = half->a.latencyBySource;
    const auto it
        = std::find_if(figures.begin(), figures.end(), [&](const LatencyFigures& f) { return f.key == any->item; });
    ASSERT_NE(it, figures.end());
    EXPECT_NEAR(*any->countA, static_cast<double>(it->count) / half->a.durationS(), 1e-6 * *any->countA);

    // Nothing counts instructions in this file: asking for it is reported, and the counts stay raw.
    req.options.normalize = Normalize::Instructions;
    auto instr = compareFiles(req);
    ASSERT_TRUE(instr.ok());
    EXPECT_EQ(instr->normalize, Normalize::None);
    EXPECT_TRUE(std::any_of(
        instr->mismatches.begin(), instr->mismatches.end(), [](const Mismatch& m) { return m.kind == "normalize"; }));
}

// Linux 7.0's mem_region (Diamond Rapids): `diff` lists load latency per memory region where the recordings carry
// it, from the same decoder as `report --mem`, and says nothing about regions where they do not.
TEST(ComparePerfData, LoadLatencyByMemoryRegion)
{
    using rdt::pmu::DataSource;
    const std::string dir = tempDir();
    const std::string a = dir + "/regions-a.data", b = dir + "/regions-b.data";
    // A: even samples in the local shared cache, odd ones MMIO. B: every sample in memory region 0.
    const auto inA = withMemRegions(dataPath("perf.data.weight_struct"), a,
        [](std::size_t i) { return i % 2 ? DataSource::RegionMmio : DataSource::RegionLocalShare; });
    const auto inB
        = withMemRegions(dataPath("perf.data.weight_struct"), b, [](std::size_t) { return DataSource::RegionMem0; });
    ASSERT_EQ(inA.size(), 2u);
    ASSERT_EQ(inB.size(), 1u);

    const Comparison c = compare(a, b);
    ASSERT_TRUE(c.a.hasMem);
    ASSERT_TRUE(c.b.hasMem);
    ASSERT_EQ(c.a.latencyByRegion.size(), 2u);
    ASSERT_EQ(c.b.latencyByRegion.size(), 1u);
    EXPECT_EQ(c.b.latencyByRegion[0].key, "memory region 0");
    EXPECT_EQ(c.b.latencyByRegion[0].count, c.b.loadSamples) << "every load in the one region";
    std::uint64_t total = 0;
    for (const auto& r : c.a.latencyByRegion)
        total += r.count;
    EXPECT_EQ(total, c.a.loadSamples);
    // The regions' figures: the counts the fixture wrote (every sample of this recording is a load).
    const DiffRow* mmio = findRow(c, Section::LatencyRegion, "MMIO", "share");
    const DiffRow* shared = findRow(c, Section::LatencyRegion, "local shared cache", "share");
    const DiffRow* mem0 = findRow(c, Section::LatencyRegion, "memory region 0", "share");
    ASSERT_NE(mmio, nullptr);
    ASSERT_NE(shared, nullptr);
    ASSERT_NE(mem0, nullptr);
    EXPECT_EQ(mmio->countA, static_cast<double>(inA.at(DataSource::RegionMmio)));
    EXPECT_EQ(shared->countA, static_cast<double>(inA.at(DataSource::RegionLocalShare)));
    EXPECT_FALSE(mmio->b) << "MMIO is only in A";
    EXPECT_FALSE(mem0->a);
    EXPECT_DOUBLE_EQ(*mem0->b, 100.0);
    EXPECT_NEAR(*mmio->a + *shared->a, 100.0, 1e-9);
    const DiffRow* mean = findRow(c, Section::LatencyRegion, "MMIO", "mean");
    ASSERT_NE(mean, nullptr);
    EXPECT_GT(*mean->a, 0.0);
    // The data sources are the same bytes on both sides: unchanged.
    for (const auto& r : c.rows)
        if (r.section == Section::LatencySource && r.metric == "share") {
            EXPECT_EQ(*r.delta(), 0.0) << r.item;
        }

    int rc = -1;
    const std::string text = cli("diff '" + a + "' '" + b + "'", &rc);
    EXPECT_EQ(rc, 0) << text;
    EXPECT_NE(text.find("Load latency by memory region"), std::string::npos) << text;
    EXPECT_NE(text.find("memory region 0  [only in B]"), std::string::npos) << text;
    EXPECT_NE(text.find("MMIO  [only in A]"), std::string::npos) << text;
    const std::string csv = cli("diff '" + a + "' '" + b + "' --csv", &rc);
    EXPECT_NE(csv.find("\nlatency-region,MMIO,"), std::string::npos) << csv;

    // A recording without mem_region (every perf before Linux 7.0, every other CPU): no region rows at all.
    const Comparison plain = compare(dataPath("perf.data.weight_struct"), a);
    EXPECT_TRUE(plain.a.latencyByRegion.empty());
    EXPECT_FALSE(std::any_of(plain.rows.begin(), plain.rows.end(),
        [](const DiffRow& r) { return r.section == Section::LatencyRegion && r.a.has_value(); }));
    EXPECT_EQ(
        cli("diff '" + dataPath("perf.data.weight_struct") + "' '" + dataPath("perf.data.weight_struct") + "'", &rc)
            .find("memory region"),
        std::string::npos);

    // A session of the import holds the same records: the same regions, nothing changed.
    const std::string session = dir + "/regions-a.rdts";
    rdt::perfdata::ImportOptions io;
    io.symfs = { std::string(RDTSCOPE_TEST_DATA) + "/perf" };
    auto imported = rdt::perfdata::importToSession(a, session, io);
    ASSERT_TRUE(imported.ok()) << imported.error().toString();
    const Comparison stored = compare(session, a);
    ASSERT_EQ(stored.a.latencyByRegion.size(), 2u);
    std::size_t regionRows = 0;
    for (const auto& r : stored.rows)
        if (r.section == Section::LatencyRegion) {
            ++regionRows;
            ASSERT_TRUE(r.delta()) << r.item << " " << r.metric;
            EXPECT_EQ(*r.delta(), 0.0) << r.item << " " << r.metric;
        }
    EXPECT_EQ(regionRows, 6u); // share, mean, p99 of two regions
}

TEST(ComparePerfData, SessionAgainstPerfDataSaysWhatCannotBeCompared)
{
    const Comparison c = compare(noisyNeighbourPair().before, dataPath("propeller_sample_1.perfdata"));
    EXPECT_TRUE(
        std::any_of(c.mismatches.begin(), c.mismatches.end(), [](const Mismatch& m) { return m.kind == "kind"; }));
    EXPECT_TRUE(
        std::any_of(c.mismatches.begin(), c.mismatches.end(), [](const Mismatch& m) { return m.kind == "simulated"; }));
    // RDT rows from A only, LBR rows from B only: both kept.
    EXPECT_NE(findRow(c, Section::Rdt, "victim", "occupancy_mean", 0), nullptr);
    EXPECT_NE(findRow(c, Section::CallEdge, "main -> compute_flag", "share"), nullptr);
    // A perf.data file has no markers.
    CompareRequest req;
    req.pathA = req.pathB = dataPath("propeller_sample_1.perfdata");
    req.loadA.window.kind = Window::Kind::Markers;
    req.loadA.window.fromMarker = "x";
    req.loadA.window.toMarker = "y";
    auto bad = compareFiles(req);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("no markers"), std::string::npos);
}

TEST(ComparePerfData, RejectsFilesThatAreNeither)
{
    auto r = loadProfile(std::string(RDTSCOPE_TEST_DATA) + "/perf/README.md");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("neither an rdtscope session nor a perf.data file"), std::string::npos);
    // A cut file shows what it holds, and says so.
    auto truncated = loadProfile(dataPath("weight_struct.pipe.truncated"));
    ASSERT_TRUE(truncated.ok()) << truncated.error().toString();
    EXPECT_TRUE(std::any_of(truncated->notes.begin(), truncated->notes.end(),
        [](const std::string& n) { return n.find("truncated") != std::string::npos; }));
}

// `rdtscope-cli import FILE -o SESSION` keeps the file's records in the session: comparing that session with the
// file itself gives the same PMU figures (one aggregation for both), and a window on the session counts fewer.
TEST(ComparePerfData, SessionOfAnImportComparesLikeTheFileItself)
{
    for (const char* name : { "propeller_sample_1.perfdata", "perf.data.weight_struct" }) {
        SCOPED_TRACE(name);
        const std::string session = ::testing::TempDir() + "/" + name + ".rdts";
        std::filesystem::remove(session);
        rdt::perfdata::ImportOptions io;
        io.symfs = { std::string(RDTSCOPE_TEST_DATA) + "/perf" };
        auto imported = rdt::perfdata::importToSession(dataPath(name), session, io);
        ASSERT_TRUE(imported.ok()) << imported.error().toString();

        const Comparison c = compare(session, dataPath(name));
        EXPECT_EQ(c.a.kind, "session");
        EXPECT_EQ(c.a.hasLbr, c.b.hasLbr);
        EXPECT_EQ(c.a.hasMem, c.b.hasMem);
        EXPECT_TRUE(c.a.hasLbr || c.a.hasMem);
        EXPECT_EQ(c.a.lbrSamples, c.b.lbrSamples);
        EXPECT_EQ(c.a.branches, c.b.branches);
        EXPECT_EQ(c.a.loadSamples, c.b.loadSamples);
        EXPECT_EQ(c.a.interval, c.b.interval); // the events' sampling settings, from the stored attrs
        EXPECT_EQ(c.a.family, c.b.family); // perf's HEADER_CPUID, kept by the import
        EXPECT_EQ(c.a.model, c.b.model);
        EXPECT_TRUE(c.mismatches.empty()) << c.mismatches.front().text; // same records, same figures
        std::size_t pmuRows = 0;
        for (const auto& r : c.rows) {
            if (r.section == Section::Rdt || r.section == Section::Allocation || r.section == Section::Tma) continue;
            ++pmuRows;
            ASSERT_TRUE(r.delta()) << r.item << " " << r.metric;
            EXPECT_EQ(*r.delta(), 0.0) << r.item << " " << r.metric;
        }
        EXPECT_GT(pmuRows, 0u);
        EXPECT_TRUE(c.onlyInA.empty());
        EXPECT_TRUE(c.onlyInB.empty());
        EXPECT_FALSE(std::any_of(c.a.notes.begin(), c.a.notes.end(),
            [](const std::string& n) { return n.find("compare the perf.data file") != std::string::npos; }));

        // The first half of the session holds fewer samples than the whole.
        CompareRequest req;
        req.pathA = req.pathB = session;
        req.loadA.symfs = req.loadB.symfs = io.symfs;
        req.loadA.window.kind = Window::Kind::Range;
        req.loadA.window.toS = c.b.recordingS / 2;
        auto half = compareFiles(req);
        ASSERT_TRUE(half.ok()) << half.error().toString();
        EXPECT_LT(half->a.lbrSamples + half->a.loadSamples, half->b.lbrSamples + half->b.loadSamples);
        EXPECT_GT(half->a.lbrSamples + half->a.loadSamples, 0u);
        // ... the same samples as that window of the file.
        req.pathB = dataPath(name);
        req.loadB.window = req.loadA.window;
        auto halves = compareFiles(req);
        ASSERT_TRUE(halves.ok()) << halves.error().toString();
        EXPECT_EQ(halves->a.lbrSamples, halves->b.lbrSamples);
        EXPECT_EQ(halves->a.loadSamples, halves->b.loadSamples);
        EXPECT_NEAR(halves->a.recordingS, halves->b.recordingS, 1e-3);
        std::filesystem::remove(session);
    }
}
