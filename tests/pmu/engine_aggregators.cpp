// SPDX-License-Identifier: GPL-3.0-or-later
// BranchGraph and LoadLatency on small readable fixtures: a three-function program in an in-memory symbol table.
#include "pmu/BranchGraph.h"
#include "pmu/LoadLatency.h"
#include "pmu/Symbolizer.h"

#include <gtest/gtest.h>

using namespace rdt::pmu;

namespace {

// main [0x1000,0x1100)  parse [0x1100,0x1200)  hash [0x1200,0x1300)
void addProgram(Symbolizer& sym)
{
    sym.addSymbolTable(
        0, "[fixture]", { { 0x1000, 0x100, "main" }, { 0x1100, 0x100, "parse" }, { 0x1200, 0x100, "hash" } });
}

BranchEntry br(std::uint64_t from, std::uint64_t to, bool mispred = false, std::uint16_t cycles = 0,
    std::uint8_t type = perf::BrUnknown)
{
    return BranchEntry { from, to, BranchEntry::makeFlags(mispred, !mispred, cycles, type) };
}

Sample lbrSample(std::uint64_t ip, std::vector<BranchEntry> entries)
{
    Sample s;
    s.present = perf::SampleIp | perf::SampleTid | perf::SampleBranchStack;
    s.pid = s.tid = 42;
    s.ip = ip;
    s.branches = std::move(entries);
    s.branchNr = s.branches.size();
    return s;
}

const FunctionEdge* findEdge(const BranchGraphReport& r, const std::string& from, const std::string& to)
{
    for (const auto& e : r.edges)
        if (e.from == from && e.to == to) return &e;
    return nullptr;
}

const FunctionNode* findNode(const BranchGraphReport& r, const std::string& name)
{
    for (const auto& n : r.functions)
        if (n.name == name) return &n;
    return nullptr;
}

} // namespace

TEST(BranchGraph, CallStackModeStackIsFirstToThenFroms)
{
    Symbolizer sym;
    addProgram(sym);
    BranchGraph g(BranchGraph::Mode::CallStack);
    // main calls parse (call site 0x1010), parse calls hash (call site 0x1120); sample in hash.
    // entries[0] = {from 0x1120 (in parse), to 0x1200 (hash entry)}, entries[1] = {from 0x1010 (main), to 0x1100}
    for (int i = 0; i < 3; ++i)
        g.add(lbrSample(0x1234, { br(0x1120, 0x1200), br(0x1010, 0x1100) }));
    // a sample in parse: stack parse <- main, plus zero entries after the valid part (SDM 21.1.2.4)
    g.add(lbrSample(0x1150, { br(0x1010, 0x1100), br(0, 0), br(0, 0) }));
    // a kernel sample with an empty user stack
    g.add(lbrSample(0x1050, {}));
    auto r = g.report(sym);
    EXPECT_EQ(r.samples, 5u);
    EXPECT_EQ(r.emptyStacks, 1u);
    ASSERT_NE(findEdge(r, "main", "parse"), nullptr);
    EXPECT_EQ(findEdge(r, "main", "parse")->stats.count, 4u);
    ASSERT_NE(findEdge(r, "parse", "hash"), nullptr);
    EXPECT_EQ(findEdge(r, "parse", "hash")->stats.count, 3u);
    EXPECT_EQ(findEdge(r, "hash", "parse"), nullptr) << "edges point caller -> callee";
    EXPECT_EQ(findNode(r, "hash")->self, 3u);
    EXPECT_EQ(findNode(r, "hash")->inclusive, 3u);
    EXPECT_EQ(findNode(r, "parse")->self, 1u);
    EXPECT_EQ(findNode(r, "parse")->inclusive, 4u);
    EXPECT_EQ(findNode(r, "main")->self, 1u); // the empty-stack sample falls back to its IP
    EXPECT_EQ(findNode(r, "main")->inclusive, 5u);
    EXPECT_EQ(r.functions.front().name, "main");
}

TEST(BranchGraph, AnyBranchEdgesWithMispredictAndCycles)
{
    Symbolizer sym;
    addProgram(sym);
    BranchGraph g(BranchGraph::Mode::AnyBranch);
    // two samples: a call main->parse (predicted, 10 cycles), a loop branch in parse (mispredicted once of 2)
    g.add(
        lbrSample(0x1180, { br(0x1190, 0x1140, true, 6, perf::BrCond), br(0x1010, 0x1100, false, 10, perf::BrCall) }));
    g.add(
        lbrSample(0x1180, { br(0x1190, 0x1140, false, 2, perf::BrCond), br(0x1010, 0x1100, false, 30, perf::BrCall) }));
    g.add(lbrSample(0x1240, { br(0x1120, 0x1200, false, 0, perf::BrCall) }));
    auto r = g.report(sym);
    EXPECT_EQ(r.branches, 5u);
    auto call = findEdge(r, "main", "parse");
    ASSERT_NE(call, nullptr);
    EXPECT_TRUE(call->call());
    EXPECT_EQ(call->kindFrom, EdgeKindFrom::BranchType);
    EXPECT_EQ(call->stats.count, 2u);
    EXPECT_DOUBLE_EQ(call->stats.mispredictRate(), 0.0);
    EXPECT_DOUBLE_EQ(call->stats.averageCycles(), 20.0);
    auto loop = findEdge(r, "parse", "parse");
    ASSERT_NE(loop, nullptr);
    EXPECT_FALSE(loop->call());
    EXPECT_EQ(loop->kind, EdgeKind::Jump);
    EXPECT_DOUBLE_EQ(loop->stats.mispredictRate(), 0.5);
    EXPECT_DOUBLE_EQ(loop->stats.averageCycles(), 4.0);
    auto toHash = findEdge(r, "parse", "hash");
    ASSERT_NE(toHash, nullptr);
    EXPECT_DOUBLE_EQ(toHash->stats.averageCycles(), 0.0) << "cycles 0 = not reported, not averaged in";
    EXPECT_EQ(findNode(r, "parse")->self, 2u);
    EXPECT_EQ(findNode(r, "hash")->self, 1u);
}

TEST(BranchGraph, UnresolvedAddressesShowModuleOrUnknown)
{
    Symbolizer sym;
    MmapRecord m;
    m.isMmap2 = true;
    m.prot = 4;
    m.addr = 0x400000;
    m.len = 0x1000;
    m.pgoff = 0x2000;
    m.filename = "/nonexistent/libgone.so";
    sym.addMapping(7, m);
    EXPECT_EQ(sym.resolve(7, 0x400010).function, "libgone.so+0x2010");
    EXPECT_EQ(sym.resolve(7, 0x400010).module, "libgone.so");
    EXPECT_FALSE(sym.resolve(7, 0x400010).resolved);
    EXPECT_EQ(sym.resolve(7, 0x900000).function, "[unknown] 0x900000");
}

namespace {
Sample loadSample(std::uint64_t ip, std::uint64_t addr, std::uint32_t latency, std::uint64_t dataSrc)
{
    Sample s;
    s.present = perf::SampleIp | perf::SampleTid | perf::SampleAddr | perf::SampleWeightStruct | perf::SampleDataSrc;
    s.pid = s.tid = 9;
    s.ip = ip;
    s.addr = addr;
    s.weight.var1 = latency;
    s.weight.full = latency;
    s.dataSrc = dataSrc;
    return s;
}
using DS = DataSource;
const std::uint64_t kL1 = DS::encode(DS::OpLoad, DS::LvlHit | DS::LvlL1, DS::SnoopNone, 0, DS::TlbHit, DS::LvlNumL1);
const std::uint64_t kL3Hitm
    = DS::encode(DS::OpLoad, DS::LvlHit | DS::LvlL3, DS::SnoopHitm, 0, DS::TlbHit, DS::LvlNumL3);
const std::uint64_t kRemoteRam
    = DS::encode(DS::OpLoad, DS::LvlHit | DS::LvlRemRam1, DS::SnoopMiss, 0, DS::TlbHit, DS::LvlNumRam, true);
} // namespace

TEST(LoadLatency, HistogramByLevelAndTables)
{
    Symbolizer sym;
    addProgram(sym);
    LoadLatency agg;
    EXPECT_EQ(LoadLatency::bucketOf(0), 0u);
    EXPECT_EQ(LoadLatency::bucketOf(1), 0u);
    EXPECT_EQ(LoadLatency::bucketOf(5), 2u); // [4,8)
    EXPECT_EQ(LoadLatency::bucketOf(300), 8u); // [256,512)
    for (int i = 0; i < 8; ++i)
        agg.add(loadSample(0x1130, 0x7000 + static_cast<std::uint64_t>(i) * 8, 5, kL1)); // parse: one line, L1
    agg.add(loadSample(0x1210, 0x8040, 60, kL3Hitm)); // hash: HITM in L3
    agg.add(loadSample(0x1210, 0x8078, 300, kRemoteRam)); // hash: same line (0x8040), remote DRAM
    auto r = agg.report(sym);
    EXPECT_EQ(r.total.count, 10u);
    EXPECT_EQ(r.histogram[2][static_cast<std::size_t>(MemLevel::L1)], 8u);
    EXPECT_EQ(r.histogram[5][static_cast<std::size_t>(MemLevel::L3)], 1u); // 60 in [32,64)
    EXPECT_EQ(r.histogram[8][static_cast<std::size_t>(MemLevel::RemoteDram)], 1u);
    ASSERT_EQ(r.functions.size(), 2u);
    EXPECT_EQ(r.functions[0].key, "hash"); // 360 cycles in total beats 40
    EXPECT_EQ(r.functions[0].stats.count, 2u);
    EXPECT_DOUBLE_EQ(r.functions[0].stats.mean(), 180.0);
    EXPECT_EQ(r.functions[0].stats.hitm, 1u);
    EXPECT_EQ(r.functions[0].stats.remote, 1u);
    EXPECT_EQ(r.functions[0].stats.percentile(0.99), 300u);
    EXPECT_EQ(r.functions[0].stats.percentile(0.5), 60u);
    EXPECT_EQ(r.functions[1].key, "parse");
    EXPECT_EQ(r.functions[1].stats.percentile(0.5), 5u);
    ASSERT_EQ(r.lines.size(), 2u);
    EXPECT_EQ(r.lines[0].key, "0x8040");
    EXPECT_EQ(r.lines[0].function, "hash");
    EXPECT_EQ(r.lines[0].stats.count, 2u);
    EXPECT_EQ(r.lines[1].key, "0x7000");
    EXPECT_EQ(r.lines[1].stats.count, 8u);
    EXPECT_EQ(r.lines[1].stats.dominantLevel(), MemLevel::L1);
}

TEST(LoadLatency, PercentilesExactBelowReservoir)
{
    LatencyStats st;
    std::uint64_t rng = 1;
    for (std::uint32_t v = 1; v <= 100; ++v)
        st.add(v, MemLevel::L2, false, false, rng);
    EXPECT_EQ(st.percentile(0.5), 50u);
    EXPECT_EQ(st.percentile(0.99), 99u);
    EXPECT_EQ(st.percentile(1.0), 100u);
    EXPECT_EQ(st.max, 100u);
    EXPECT_DOUBLE_EQ(st.mean(), 50.5);
}

// A graph per reading thread, merged (perf.data imports tally samples on two threads): every count is the one graph
// fed with all the samples has, and an edge's branch type is that of its last entry in file order, whichever graph
// saw it and in whichever order the graphs merge.
TEST(BranchGraph, MergedGraphsCountWhatOneGraphCounts)
{
    std::vector<Sample> samples;
    for (int i = 0; i < 40; ++i) {
        const auto type = static_cast<std::uint8_t>(i % 3 == 1 ? perf::BrCall : (i % 3 == 2 ? perf::BrUncond : 0));
        const std::uint8_t indirectCall = 5; // PERF_BR_IND_CALL: a call too
        auto s = lbrSample(0x1010 + static_cast<std::uint64_t>(i % 4),
            { br(0x1050, 0x1100, i % 5 == 0, static_cast<std::uint16_t>(i), type), br(0x1180, 0x1060),
                br(0x1120, 0x1200 + static_cast<std::uint64_t>(i % 2), false, 3,
                    i % 2 ? indirectCall : std::uint8_t { perf::BrCall }),
                br(0, 0) });
        if (i % 7 == 0) s.branches = {}; // an empty stack
        samples.push_back(std::move(s));
    }
    // The last typed entry of 0x1050 -> 0x1100 is sample 38's (BrUncond; 39's has no type); of parse -> hash
    // (two address pairs, both calls) sample 39's indirect call.
    BranchGraph whole(BranchGraph::Mode::AnyBranch);
    BranchGraph even(BranchGraph::Mode::AnyBranch), odd(BranchGraph::Mode::AnyBranch);
    for (std::size_t i = 0; i < samples.size(); ++i) {
        whole.add(samples[i], i * 100);
        (i % 2 ? odd : even).add(samples[i], i * 100);
    }
    BranchGraph oddFirst(BranchGraph::Mode::AnyBranch);
    oddFirst.merge(odd);
    oddFirst.merge(even);
    even.merge(odd);
    Symbolizer sym;
    addProgram(sym);
    const auto expected = whole.report(sym);
    for (const auto* merged : { &even, &oddFirst }) {
        const auto r = merged->report(sym);
        EXPECT_EQ(r.samples, 40u);
        EXPECT_EQ(r.samples, expected.samples);
        EXPECT_EQ(r.branches, expected.branches);
        EXPECT_EQ(r.emptyStacks, expected.emptyStacks);
        ASSERT_EQ(r.edges.size(), expected.edges.size());
        for (std::size_t i = 0; i < r.edges.size(); ++i) {
            const auto &a = r.edges[i], &b = expected.edges[i];
            EXPECT_EQ(std::tie(a.from, a.to, a.kind, a.kindFrom), std::tie(b.from, b.to, b.kind, b.kindFrom));
            EXPECT_EQ(a.stats.count, b.stats.count) << a.from << " -> " << a.to;
            EXPECT_EQ(a.stats.mispredicts, b.stats.mispredicts);
            EXPECT_EQ(a.stats.cycles, b.stats.cycles);
            EXPECT_EQ(a.stats.cycleSamples, b.stats.cycleSamples);
            EXPECT_EQ(a.stats.type, b.stats.type) << a.from << " -> " << a.to;
        }
        ASSERT_EQ(r.functions.size(), expected.functions.size());
        for (std::size_t i = 0; i < r.functions.size(); ++i) {
            EXPECT_EQ(r.functions[i].name, expected.functions[i].name);
            EXPECT_EQ(r.functions[i].self, expected.functions[i].self);
        }
    }
    const auto* jump = findEdge(expected, "main", "parse");
    ASSERT_NE(jump, nullptr);
    EXPECT_EQ(jump->stats.type, perf::BrUncond);
    const auto* call = findEdge(expected, "parse", "hash");
    ASSERT_NE(call, nullptr);
    EXPECT_EQ(call->kind, EdgeKind::Call);
    EXPECT_EQ(call->stats.type, 5u);
}

TEST(BranchGraph, MergedCallStackGraphsCountWhatOneGraphCounts)
{
    BranchGraph whole(BranchGraph::Mode::CallStack), a(BranchGraph::Mode::CallStack), b(BranchGraph::Mode::CallStack);
    for (int i = 0; i < 30; ++i) {
        const auto s
            = lbrSample(0x1210, { br(0x1150, 0x1200), br(0x1050 + static_cast<std::uint64_t>(i % 3), 0x1100) });
        whole.add(s);
        (i < 11 ? a : b).add(s);
    }
    a.merge(b);
    Symbolizer sym;
    addProgram(sym);
    const auto r = a.report(sym), expected = whole.report(sym);
    ASSERT_EQ(r.edges.size(), expected.edges.size());
    ASSERT_FALSE(r.edges.empty());
    for (std::size_t i = 0; i < r.edges.size(); ++i)
        EXPECT_EQ(std::tie(r.edges[i].from, r.edges[i].to, r.edges[i].stats.count),
            std::tie(expected.edges[i].from, expected.edges[i].to, expected.edges[i].stats.count));
    ASSERT_NE(findNode(r, "hash"), nullptr);
    EXPECT_EQ(findNode(r, "hash")->self, 30u);
    EXPECT_EQ(findNode(r, "main")->inclusive, findNode(expected, "main")->inclusive);
}
