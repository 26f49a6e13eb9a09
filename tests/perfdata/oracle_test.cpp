// SPDX-License-Identifier: GPL-3.0-or-later
// The reader against Linux perf on the same files: record counts per type and samples per event
// (`perf report --stats`), branch stacks per sample (`perf script -F brstack`), data source, weight and address
// (`perf script -F data_src,weight,addr`).

#include "PerfOracle.h"
#include "perfdata/PerfDataReader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <tuple>

using namespace rdt;
using namespace rdt::perfdata;
using namespace rdt::perfdata::test;

namespace {

struct Collected {
    ReadStats stats;
    std::vector<std::vector<pmu::BranchEntry>> brstacks; ///< samples whose attr has BRANCH_STACK
    std::vector<pmu::Sample> samples;
    std::map<std::string, unsigned long> samplesByEvent;
    HeaderInfo header;
};

Collected collect(const std::string& file, bool keepSamples = false)
{
    Collected c;
    auto r = PerfDataReader::open(file);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().toString());
    if (!r.ok()) return c;
    auto& reader = **r;
    auto stats = reader.read([&](const pmu::DecodedRecord& rec) {
        if (rec.kind != pmu::RecordKind::Sample) return true;
        if (rec.sample.has(pmu::perf::SampleBranchStack)) c.brstacks.push_back(rec.sample.branches);
        if (keepSamples) c.samples.push_back(rec.sample);
        const auto i = reader.decoder().eventIndex(rec.attr);
        const auto& events = reader.header().events;
        c.samplesByEvent[i < events.size() ? events[i].name : "?"]++;
        return true;
    });
    EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().toString());
    if (stats.ok()) c.stats = *stats;
    c.header = reader.header();
    return c;
}

std::string perfTypeName(std::uint32_t type)
{
    auto n = pmu::recordTypeName(type);
    if (n.rfind("HEADER_", 0) == 0) n = n.substr(7); // perf prints ATTR, FEATURE, BUILD_ID, TRACING_DATA
    return n;
}

const char* const AllFixtures[] = { "perf.data.branch-4.14", "perf.data.branch_stack_hw_index",
    "perf.data.lost_samples-4.4", "perf.data.weight_struct", "propeller_sample_1.perfdata", "perf.lbr.data",
    "perf.data.branch-4.14.pipe", "cpu-clock-zstd.perfdata" };

} // namespace

TEST(PerfdataOracle, RecordCountsAndSamplesPerEventMatchPerfReportStats)
{
    RDT_REQUIRE_PERF();
    for (const char* name : AllFixtures) {
        SCOPED_TRACE(name);
        const auto file = dataPath(name);
        auto ours = collect(file);
        auto theirs = perfStats(file);
        ASSERT_FALSE(theirs.byType.empty()) << "perf report --stats printed nothing for " << name;
        EXPECT_EQ(ours.stats.decodeErrors, 0u);
        EXPECT_TRUE(ours.stats.warnings.empty()) << ours.stats.warnings.front();
        unsigned long total = 0;
        for (std::uint32_t t = 1; t < 128; ++t) {
            if (!ours.stats.byType[t]) continue;
            total += ours.stats.byType[t];
            EXPECT_EQ(ours.stats.byType[t], theirs.byType[perfTypeName(t)]) << perfTypeName(t);
        }
        for (const auto& [type, n] : theirs.byType) {
            if (type != "TOTAL") {
                EXPECT_GT(n, 0u) << type;
            }
        }
        EXPECT_EQ(total, theirs.byType["TOTAL"]);
        // Pipe files carry no event names of their own (perf derives e.g. "cycles:pppH" from the attr).
        if (std::string(name).find("pipe") == std::string::npos) {
            for (const auto& [event, n] : theirs.samplesByEvent)
                EXPECT_EQ(ours.samplesByEvent[event], n) << event;
        }
    }
}

TEST(PerfdataOracle, BranchStacksMatchPerfScriptBrstack)
{
    RDT_REQUIRE_PERF();
    for (const char* name : { "perf.data.branch-4.14", "perf.data.branch_stack_hw_index", "propeller_sample_1.perfdata",
             "perf.lbr.data", "perf.data.branch-4.14.pipe" }) {
        SCOPED_TRACE(name);
        const auto file = dataPath(name);
        auto ours = collect(file);
        auto theirs = perfBrstacks(file);
        ASSERT_EQ(ours.brstacks.size(), theirs.size());
        // perf script sorts samples by time across CPUs (ordered events); we keep file order. Compare each
        // sample's whole stack as a multiset of per-sample strings, every field perf prints.
        std::vector<std::string> a, b;
        std::size_t entries = 0;
        for (const auto& stack : ours.brstacks) {
            std::ostringstream o;
            for (const auto& e : stack)
                o << std::hex << e.from << '/' << e.to << '/'
                  << (e.mispred()            ? 'M'
                             : e.predicted() ? 'P'
                                             : '-')
                  << '/' << std::dec << e.cycles() << ' ';
            a.push_back(o.str());
            entries += stack.size();
        }
        for (const auto& stack : theirs) {
            std::ostringstream o;
            for (const auto& e : stack)
                o << std::hex << e.from << '/' << e.to << '/' << e.pred << '/' << std::dec << e.cycles << ' ';
            b.push_back(o.str());
        }
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i] != b[i]) ++mismatches;
        EXPECT_EQ(mismatches, 0u) << "of " << a.size() << " samples; first ours: " << a.front()
                                  << "\nfirst perf's: " << b.front();
        EXPECT_GT(entries, 0u);
    }
}

TEST(PerfdataOracle, DataSourceWeightAddrMatchPerfScript)
{
    RDT_REQUIRE_PERF();
    const auto file = dataPath("perf.data.weight_struct");
    auto ours = collect(file, true);
    std::istringstream in(run("perf script -F addr,data_src,weight -i '" + file + "' 2>/dev/null"));
    std::string line;
    std::vector<std::tuple<unsigned long long, unsigned long long, unsigned long long>> theirs, mine;
    while (std::getline(in, line)) {
        // "    ADDR     DATASRC |OP LOAD|LVL ...|BLK  N/A      WEIGHT"
        std::istringstream w(line);
        std::string addr, src;
        w >> addr >> src;
        theirs.emplace_back(std::stoull(addr, nullptr, 16), std::stoull(src, nullptr, 16),
            std::stoull(line.substr(line.find_last_of(' ') + 1)));
    }
    std::map<pmu::MemLevel, unsigned> levels;
    for (const auto& s : ours.samples) {
        mine.emplace_back(s.addr, s.dataSrc, s.latency());
        levels[s.dataSource().level()]++;
    }
    // perf script orders samples by time across CPUs; compare as multisets.
    std::sort(theirs.begin(), theirs.end());
    std::sort(mine.begin(), mine.end());
    EXPECT_GT(mine.size(), 0u);
    EXPECT_EQ(mine, theirs);
    EXPECT_GT(levels[pmu::MemLevel::L1] + levels[pmu::MemLevel::Lfb], 0u);
}

TEST(PerfdataOracle, PipeModeFromInjectEqualsTheFile)
{
    RDT_REQUIRE_PERF();
    // perf inject -o - rewrites a file in pipe mode (HEADER_ATTR, HEADER_FEATURE, in-band build ids).
    const auto src = dataPath("propeller_sample_1.perfdata");
    const std::string pipeFile = ::testing::TempDir() + "/propeller.pipe";
    int rc = -1;
    run("perf inject -i '" + src + "' -o - > '" + pipeFile + "' 2>/dev/null", &rc);
    ASSERT_EQ(rc, 0);
    auto a = collect(src);
    auto b = collect(pipeFile);
    ASSERT_EQ(a.brstacks.size(), b.brstacks.size());
    for (std::size_t i = 0; i < a.brstacks.size(); ++i) {
        ASSERT_EQ(a.brstacks[i].size(), b.brstacks[i].size());
        for (std::size_t j = 0; j < a.brstacks[i].size(); ++j) {
            EXPECT_EQ(a.brstacks[i][j].from, b.brstacks[i][j].from);
            EXPECT_EQ(a.brstacks[i][j].flags, b.brstacks[i][j].flags);
        }
    }
    // perf inject writes its own header features (this machine's cpudesc, its own command line) in-band.
    EXPECT_NE(b.header.commandLine().find("inject"), std::string::npos) << b.header.commandLine();
    EXPECT_TRUE(b.header.features.test(FeatCmdline));
    EXPECT_EQ(b.stats.byType[pmu::perf::RecordHeaderAttr], 1u);
}
