// SPDX-License-Identifier: GPL-3.0-or-later
#include "Synthetic.h"

#include "session/Schema.h"
#include "session/SessionReader.h"
#include "session/SessionText.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <tuple>

using namespace rdt;
using namespace rdt::session;
using namespace rdt::session::testing;

namespace {

constexpr std::uint64_t kSec = 1'000'000'000;

struct Written {
    std::vector<AllocationChanged> allocs;
    std::vector<MembershipSnapshot> members;
    std::vector<Marker> markers;
    std::vector<TmaInterval> tma;
    std::vector<PmuBatch> pmu;
    std::vector<AddressMap> maps;
    std::vector<Symbol> symbols;
};

Written writeEveryTable(const std::string& path, int seconds)
{
    Written w;
    auto writer = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
    EXPECT_TRUE(writer.ok()) << (writer ? "" : writer.error().toString());
    auto& s = *writer.value();
    w.allocs = {
        { 1 * kSec, "initial", "g1", "L3", 0, "", "7ff", true, "" },
        { 2 * kSec, "cli", "g1", "L3", 0, "7ff", "3", true, "" },
        { 3 * kSec, "gui", "g2", "MB", 1, "100", "5", false, "MB value 5 below min_bandwidth 10" },
    };
    w.members = { { 1 * kSec, "g1", "100 101", "0-3" }, { 2 * kSec + 500, "g2", "200", "4-7" } };
    w.markers = { { 1 * kSec + 42, "note", "start \"stream\", x4" } };
    w.tma = { { 1 * kSec, 2 * kSec, "system", 1, "retiring", 0.25 },
        { 1 * kSec, 2 * kSec, "pid:7", 2, "memory_bound", 0.5 } };
    std::vector<std::uint8_t> payload(5000);
    for (std::size_t i = 0; i < payload.size(); ++i)
        payload[i] = static_cast<std::uint8_t>(i * 7 % 13);
    w.pmu = { { 1 * kSec, 2 * kSec, "lbr", 123, payload }, { 2 * kSec, 3 * kSec, "load-latency", 9, { 1, 2, 3 } } };
    w.maps = { { 1 * kSec, 4242, 0x400000, 0x401000, 0x1000, "/usr/bin/stream", "abcd" } };
    w.symbols = { { "/usr/bin/stream", 0x1130, 64, "triad" }, { "/usr/bin/stream", 0x1000, 16, "main" } };
    for (const auto& a : w.allocs)
        EXPECT_TRUE(s.addAllocation(a).ok());
    for (const auto& m : w.members)
        EXPECT_TRUE(s.addMembership(m).ok());
    for (const auto& m : w.markers)
        EXPECT_TRUE(s.addMarker(m).ok());
    EXPECT_TRUE(s.addTma(w.tma).ok());
    for (const auto& p : w.pmu)
        EXPECT_TRUE(s.addPmuBatch(p).ok());
    for (const auto& m : w.maps)
        EXPECT_TRUE(s.addAddressMap(m).ok());
    EXPECT_TRUE(s.addSymbols(w.symbols).ok());
    for (int i = 0; i < seconds * 10; ++i) {
        EXPECT_TRUE(s.addSamples(syntheticBatch(1 * kSec + static_cast<std::uint64_t>(i) * kSec / 10, 3, 2)).ok());
        if (i % 5 == 4) {
            EXPECT_TRUE(s.flush().ok());
        }
    }
    EXPECT_TRUE(s.close("test done").ok());
    return w;
}

} // namespace

TEST(SessionRoundTrip, EveryTableReadsBackAsWritten)
{
    TempDir dir;
    const auto path = dir.file("rt.rdts");
    const Written w = writeEveryTable(path, 3);

    auto opened = SessionReader::open(path);
    ASSERT_TRUE(opened.ok()) << opened.error().toString();
    auto& r = *opened.value();
    EXPECT_TRUE(r.issues().empty()) << r.issues().front();
    EXPECT_TRUE(r.closedCleanly());
    EXPECT_EQ(r.stopReason(), "test done");
    EXPECT_EQ(r.schemaVersion(), kSchemaVersion);

    const SessionMeta m = syntheticMeta();
    EXPECT_EQ(r.meta().startWallNs, m.startWallNs);
    EXPECT_EQ(r.meta().startMonoNs, m.startMonoNs);
    EXPECT_EQ(r.meta().host, m.host);
    EXPECT_EQ(r.meta().kernel, m.kernel);
    EXPECT_EQ(r.meta().source, m.source);
    EXPECT_TRUE(r.meta().simulated);
    EXPECT_EQ(r.meta().toolVersion, m.toolVersion);
    EXPECT_EQ(r.meta().commandLine, m.commandLine);
    EXPECT_EQ(r.meta().intervalNs, m.intervalNs);
    EXPECT_EQ(r.machine().cpuidJson, syntheticMachine().cpuidJson);
    EXPECT_EQ(r.machine().topology, syntheticMachine().topology);
    EXPECT_EQ(r.machine().description, syntheticMachine().description);

    // Samples: every field of every row.
    auto rows = r.samples(0, UINT64_MAX);
    ASSERT_TRUE(rows.ok());
    ASSERT_EQ(rows->size(), 30u * 3 * 2);
    EXPECT_EQ(r.sampleCount(), 180u);
    // Within one time stamp rows are ordered by group id (first seen first), so look each one up.
    std::set<std::tuple<std::uint64_t, std::string, int>> seen;
    std::uint64_t prevT = 0;
    for (const RdtSample& a : *rows) {
        ASSERT_GE(a.timeNs, prevT);
        prevT = a.timeNs;
        ASSERT_TRUE(seen.emplace(a.timeNs, a.group, a.domain).second) << "duplicate row";
        ASSERT_EQ((a.timeNs - kSec) % (kSec / 10), 0u);
        const int g = a.group.empty() ? 0 : std::stoi(a.group.substr(1));
        const RdtSample e = syntheticSample(a.timeNs, g, a.domain);
        EXPECT_EQ(a.group, e.group);
        EXPECT_EQ(a.occupancyBytes, e.occupancyBytes);
        EXPECT_EQ(a.mbmTotalBytes, e.mbmTotalBytes);
        EXPECT_EQ(a.mbmLocalBytes, e.mbmLocalBytes);
        EXPECT_DOUBLE_EQ(a.mbmTotalBps, e.mbmTotalBps);
        EXPECT_DOUBLE_EQ(a.mbmLocalBps, e.mbmLocalBps);
        EXPECT_EQ(a.flags, e.flags);
    }
    EXPECT_EQ(r.firstTimeNs(), 1 * kSec);
    EXPECT_EQ(r.lastTimeNs(), 1 * kSec + 29 * kSec / 10);

    ASSERT_EQ(r.groups().size(), 3u);
    for (const auto& g : r.groups())
        EXPECT_EQ(g.samples, 60u) << g.path;

    ASSERT_EQ(r.allocations().size(), w.allocs.size());
    for (std::size_t i = 0; i < w.allocs.size(); ++i) {
        const auto &a = r.allocations()[i], &e = w.allocs[i];
        EXPECT_EQ(a.timeNs, e.timeNs);
        EXPECT_EQ(a.who, e.who);
        EXPECT_EQ(a.group, e.group);
        EXPECT_EQ(a.resource, e.resource);
        EXPECT_EQ(a.domain, e.domain);
        EXPECT_EQ(a.oldValue, e.oldValue);
        EXPECT_EQ(a.newValue, e.newValue);
        EXPECT_EQ(a.ok, e.ok);
        EXPECT_EQ(a.message, e.message);
    }
    ASSERT_EQ(r.memberships().size(), 2u);
    EXPECT_EQ(r.memberships()[1].timeNs, w.members[1].timeNs);
    EXPECT_EQ(r.memberships()[1].group, "g2");
    EXPECT_EQ(r.memberships()[1].tasks, "200");
    EXPECT_EQ(r.memberships()[1].cpus, "4-7");
    ASSERT_EQ(r.markers().size(), 1u);
    EXPECT_EQ(r.markers()[0].text, w.markers[0].text);
    EXPECT_EQ(r.markers()[0].timeNs, w.markers[0].timeNs);

    auto tma = r.tma();
    ASSERT_TRUE(tma.ok());
    ASSERT_EQ(tma->size(), 2u);
    EXPECT_EQ((*tma)[1].scope, "pid:7");
    EXPECT_EQ((*tma)[1].level, 2);
    EXPECT_EQ((*tma)[1].metric, "memory_bound");
    EXPECT_DOUBLE_EQ((*tma)[1].value, 0.5);

    auto pmu = r.pmuBatches();
    ASSERT_TRUE(pmu.ok());
    ASSERT_EQ(pmu->size(), 2u);
    EXPECT_EQ((*pmu)[0].kind, "lbr");
    EXPECT_EQ((*pmu)[0].count, 123u);
    EXPECT_EQ((*pmu)[0].payload, w.pmu[0].payload);
    EXPECT_EQ((*pmu)[1].payload, w.pmu[1].payload);
    auto lbrOnly = r.pmuBatches("lbr");
    ASSERT_TRUE(lbrOnly.ok());
    EXPECT_EQ(lbrOnly->size(), 1u);
    auto late = r.pmuBatches("", 2 * kSec + 1, UINT64_MAX);
    ASSERT_TRUE(late.ok());
    ASSERT_EQ(late->size(), 1u);
    EXPECT_EQ(late->front().kind, "load-latency");

    auto maps = r.addressMaps();
    ASSERT_TRUE(maps.ok());
    ASSERT_EQ(maps->size(), 1u);
    EXPECT_EQ((*maps)[0].pid, 4242);
    EXPECT_EQ((*maps)[0].start, 0x400000u);
    EXPECT_EQ((*maps)[0].pgoff, 0x1000u);
    EXPECT_EQ((*maps)[0].buildId, "abcd");
    auto syms = r.symbols();
    ASSERT_TRUE(syms.ok());
    ASSERT_EQ(syms->size(), 2u);
    EXPECT_EQ((*syms)[0].name, "main"); // ordered by address
    EXPECT_EQ((*syms)[1].size, 64u);
}

TEST(SessionRoundTrip, SummaryBucketsMatchTheRawSamples)
{
    TempDir dir;
    const auto path = dir.file("sum.rdts");
    writeEveryTable(path, 3);
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok());
    auto raw = r.value()->samples(0, UINT64_MAX);
    auto buckets = r.value()->summary(1);
    ASSERT_TRUE(raw.ok() && buckets.ok());
    ASSERT_EQ(buckets->size(), 3u * 3 * 2); // 3 seconds x 3 groups x 2 domains
    for (const auto& b : *buckets) {
        double mn = 1e300, mx = -1e300, sum = 0;
        std::uint64_t n = 0;
        for (const auto& s : *raw) {
            if (s.timeNs / kSec != b.bucket || s.group != b.group || s.domain != b.domain) continue;
            const double v = static_cast<double>(s.occupancyBytes);
            mn = std::min(mn, v);
            mx = std::max(mx, v);
            sum += v;
            ++n;
        }
        EXPECT_EQ(b.count, n);
        EXPECT_DOUBLE_EQ(b.occMin, mn);
        EXPECT_DOUBLE_EQ(b.occMax, mx);
        EXPECT_NEAR(b.occMean, sum / static_cast<double>(n), 1e-6);
    }
    auto minutes = r.value()->summary(60);
    ASSERT_TRUE(minutes.ok());
    ASSERT_EQ(minutes->size(), 6u);
    EXPECT_EQ(minutes->front().count, 30u);
}

TEST(SessionRoundTrip, CsvExportHasTheMonitorHeaderAndOneLinePerSample)
{
    TempDir dir;
    const auto path = dir.file("csv.rdts");
    writeEveryTable(path, 1);
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok());
    char* buf = nullptr;
    std::size_t len = 0;
    std::FILE* mem = open_memstream(&buf, &len);
    ASSERT_TRUE(exportCsv(*r.value(), 0, UINT64_MAX, mem).ok());
    std::fclose(mem);
    const std::string csv(buf, len);
    std::free(buf);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 10 * 3 * 2);
    // First row: t = 1 s = start_mono_ns, so time 0.000, default group "/".
    const RdtSample e = syntheticSample(kSec, 0, 0);
    EXPECT_NE(csv.find("\n0.000,default,0," + std::to_string(e.occupancyBytes) + ",1500000000,500000000\n"),
        std::string::npos)
        << csv.substr(0, 200);
}

TEST(SessionWriter, RefusesToOverwriteUnlessAsked)
{
    TempDir dir;
    const auto path = dir.file("x.rdts");
    writeEveryTable(path, 1);
    auto again = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.error().toString().find("will not overwrite"), std::string::npos);
    auto forced = SessionWriter::create(path, syntheticMeta(), syntheticMachine(), WriterOptions { true, 0 });
    ASSERT_TRUE(forced.ok()) << forced.error().toString();
    ASSERT_TRUE(forced.value()->close().ok());
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value()->sampleCount(), 0u);
}

TEST(SessionWriter, OnlyFlushedRowsAreVisibleToAReaderWhileRecording)
{
    TempDir dir;
    const auto path = dir.file("live.rdts");
    auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value()->addSamples(syntheticBatch(kSec, 2, 2)).ok());
    ASSERT_TRUE(w.value()->flush().ok());
    ASSERT_TRUE(w.value()->addSamples(syntheticBatch(2 * kSec, 2, 2)).ok()); // not flushed
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    auto rows = r.value()->samples(0, UINT64_MAX);
    ASSERT_TRUE(rows.ok());
    EXPECT_EQ(rows->size(), 4u);
    EXPECT_FALSE(r.value()->closedCleanly());
    EXPECT_EQ(w.value()->committedSamples(), 4u);
    EXPECT_EQ(w.value()->pendingSamples(), 4u);
}

TEST(SessionWriter, DiskFullStopsRecordingAndKeepsWhatWasCommitted)
{
    TempDir dir;
    const auto path = dir.file("full.rdts");
    // max_page_count makes SQLite report SQLITE_FULL exactly as a full disk does.
    auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine(), WriterOptions { false, 64 });
    ASSERT_TRUE(w.ok()) << w.error().toString();
    std::uint64_t committed = 0;
    Status last;
    for (int i = 0; i < 10000 && last.ok(); ++i) {
        last = w.value()->addSamples(syntheticBatch(kSec + static_cast<std::uint64_t>(i) * 1000, 8, 4));
        if (last && i % 10 == 9) {
            last = w.value()->flush();
            if (last) committed = w.value()->committedSamples();
        }
    }
    ASSERT_FALSE(last.ok()) << "64 pages should fill up";
    const std::string msg = last.error().toString();
    EXPECT_NE(msg.find("recording stopped"), std::string::npos) << msg;
    EXPECT_NE(msg.find("full"), std::string::npos) << msg;
    EXPECT_TRUE(w.value()->failed());
    EXPECT_FALSE(w.value()->addSamples(syntheticBatch(9 * kSec, 1, 1)).ok());
    EXPECT_FALSE(w.value()->close().ok());
    ASSERT_GT(committed, 0u);
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    auto rows = r.value()->samples(0, UINT64_MAX);
    ASSERT_TRUE(rows.ok());
    EXPECT_EQ(rows->size(), committed);
}

TEST(SessionWriter, DiskFullAtCreationSaysNothingWasRecordedAndKeepsTheOldSession)
{
    // Issue #44: a full disk while the new file is made used to say "everything committed before this point is
    // kept" when nothing was. With --force over a session, the old one is untouched (the new one is made beside
    // it) and nothing is left behind.
    TempDir dir;
    const auto path = dir.file("old.rdts");
    {
        auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
        ASSERT_TRUE(w.ok()) << w.error().toString();
        ASSERT_TRUE(w.value()->addSamples(syntheticBatch(kSec, 2, 2)).ok());
        ASSERT_TRUE(w.value()->close().ok());
    }
    const auto bytes = [](const std::string& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    };
    const std::string before = bytes(path);
    auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine(), WriterOptions { true, 2 });
    ASSERT_FALSE(w.ok()) << "2 pages cannot hold the schema";
    const std::string msg = w.error().toString();
    EXPECT_NE(msg.find("nothing was recorded"), std::string::npos) << msg;
    EXPECT_NE(msg.find(path + " is unchanged"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("committed before"), std::string::npos) << msg;
    EXPECT_EQ(bytes(path), before);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e :
        std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
        ++files;
    EXPECT_EQ(files, 1u) << "a half-made file was left beside the session";
    // And a complete replacement takes the old one's place.
    auto replaced = SessionWriter::create(path, syntheticMeta(), syntheticMachine(), WriterOptions { true });
    ASSERT_TRUE(replaced.ok()) << replaced.error().toString();
    ASSERT_TRUE(replaced.value()->addSamples(syntheticBatch(kSec, 3, 1)).ok());
    EXPECT_EQ(bytes(path), before) << "replaced before the new session was complete";
    ASSERT_TRUE(replaced.value()->close().ok());
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    auto rows = r.value()->samples(0, UINT64_MAX);
    ASSERT_TRUE(rows.ok());
    EXPECT_EQ(rows->size(), 3u);
}
