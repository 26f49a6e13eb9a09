// SPDX-License-Identifier: GPL-3.0-or-later
// CallTree (top-down and bottom-up trees, thread and CPU filters), the stack rules of SampleStack.h and the "why no
// call stacks" of CallStackSources on readable fixtures: main -> parse -> hash in an in-memory symbol table.
#include "pmu/BranchGraph.h"
#include "pmu/CallStackSources.h"
#include "pmu/CallTree.h"
#include "pmu/SampleStack.h"
#include "pmu/Symbolizer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace rdt::pmu;

namespace {

// main [0x1000,0x1100)  parse [0x1100,0x1200)  hash [0x1200,0x1300)  log [0x1300,0x1400)
void addProgram(Symbolizer& sym)
{
    sym.addSymbolTable(0, "[fixture]",
        { { 0x1000, 0x100, "main" }, { 0x1100, 0x100, "parse" }, { 0x1200, 0x100, "hash" }, { 0x1300, 0x100, "log" } });
}

std::uint64_t sumRootChildren(const std::vector<CallTreeNode>& nodes)
{
    std::uint64_t n = 0;
    for (auto c : nodes[0].children)
        n += nodes[static_cast<std::size_t>(c)].inclusive;
    return n;
}

std::uint64_t sumSelf(const std::vector<CallTreeNode>& nodes)
{
    std::uint64_t n = 0;
    for (const auto& node : nodes)
        n += node.self;
    return n;
}

const CallTreeNode* child(const std::vector<CallTreeNode>& nodes, std::int32_t parent, const std::string& name)
{
    for (auto c : nodes[static_cast<std::size_t>(parent)].children)
        if (nodes[static_cast<std::size_t>(c)].function == name) return &nodes[static_cast<std::size_t>(c)];
    return nullptr;
}

/// Three stacks: main>parse>hash (thread 1, CPU 0, 3 samples), main>parse (thread 1, CPU 1, 2 samples),
/// main>log (thread 2, CPU 1, 4 samples). Frames are leaf first, as samples carry them.
void addFixture(CallTree& t)
{
    const std::vector<std::uint64_t> hash { 0x1210, 0x1120, 0x1010 }, parse { 0x1150, 0x1010 }, log { 0x1300, 0x1020 };
    t.add(7, 1, 0, hash, 3);
    t.add(7, 1, 1, parse, 2);
    for (int i = 0; i < 4; ++i)
        t.add(7, 2, 1, log);
}

} // namespace

TEST(CallTree, TopDownNodesSumTheirStacks)
{
    Symbolizer sym;
    addProgram(sym);
    CallTree t;
    addFixture(t);
    const auto r = t.report(sym);
    EXPECT_EQ(r.samples, 9u);
    EXPECT_EQ(r.allSamples, 9u);
    ASSERT_FALSE(r.topDown.empty());
    EXPECT_EQ(r.topDown[0].inclusive, 9u);
    EXPECT_EQ(sumRootChildren(r.topDown), 9u);
    EXPECT_EQ(sumSelf(r.topDown), 9u) << "every sample stops in exactly one node";
    const auto* main = child(r.topDown, 0, "main");
    ASSERT_NE(main, nullptr);
    EXPECT_EQ(main->inclusive, 9u);
    EXPECT_EQ(main->self, 0u);
    const std::vector<std::string> path { "main", "parse" };
    const auto parse = r.findTopDown(path);
    ASSERT_GE(parse, 0);
    EXPECT_EQ(r.topDown[static_cast<std::size_t>(parse)].inclusive, 5u);
    EXPECT_EQ(r.topDown[static_cast<std::size_t>(parse)].self, 2u);
    const std::vector<std::string> deep { "main", "parse", "hash" };
    ASSERT_GE(r.findTopDown(deep), 0);
    EXPECT_EQ(r.topDown[static_cast<std::size_t>(r.findTopDown(deep))].self, 3u);
    // main's children by inclusive, descending: parse (5) before log (4)
    const auto mainIndex = r.topDown[0].children[0];
    ASSERT_EQ(r.topDown[static_cast<std::size_t>(mainIndex)].children.size(), 2u);
    EXPECT_EQ(r.topDown[static_cast<std::size_t>(r.topDown[static_cast<std::size_t>(mainIndex)].children[0])].function,
        "parse");
    EXPECT_EQ(r.maxDepth, 3u);
}

TEST(CallTree, BottomUpStartsAtTheRunningFunction)
{
    Symbolizer sym;
    addProgram(sym);
    CallTree t;
    addFixture(t);
    const auto r = t.report(sym);
    EXPECT_EQ(r.bottomUp[0].inclusive, 9u);
    EXPECT_EQ(sumRootChildren(r.bottomUp), 9u);
    const auto* log = child(r.bottomUp, 0, "log");
    const auto* hash = child(r.bottomUp, 0, "hash");
    const auto* parse = child(r.bottomUp, 0, "parse");
    ASSERT_TRUE(log && hash && parse);
    EXPECT_EQ(log->inclusive, 4u);
    EXPECT_EQ(log->self, 4u);
    EXPECT_EQ(hash->inclusive, 3u);
    EXPECT_EQ(parse->inclusive, 2u);
    EXPECT_EQ(child(r.bottomUp, 0, "main"), nullptr) << "main never ran itself";
    // hash's caller is parse, whose caller is main
    const auto hashIndex = static_cast<std::int32_t>(hash - r.bottomUp.data());
    const auto* caller = child(r.bottomUp, hashIndex, "parse");
    ASSERT_NE(caller, nullptr);
    EXPECT_EQ(caller->inclusive, 3u);
    EXPECT_EQ(caller->self, 0u);
}

TEST(CallTree, ThreadAndCpuFiltersNarrowTotalsAndKeepTheChoices)
{
    Symbolizer sym;
    addProgram(sym);
    CallTree byThread(StackFilter { 1u, std::nullopt });
    addFixture(byThread);
    auto r = byThread.report(sym);
    EXPECT_EQ(r.samples, 5u);
    EXPECT_EQ(r.allSamples, 9u);
    EXPECT_EQ(r.topDown[0].inclusive, 5u);
    EXPECT_EQ(r.bottomUp[0].inclusive, 5u);
    EXPECT_EQ(child(r.bottomUp, 0, "log"), nullptr);
    ASSERT_EQ(r.threads.size(), 2u) << "every thread is listed, filtered or not";
    EXPECT_EQ(r.threads[0].tid, 1u);
    EXPECT_EQ(r.threads[0].samples, 5u);
    EXPECT_EQ(r.threads[1].samples, 4u);

    CallTree byCpu(StackFilter { std::nullopt, 1u });
    addFixture(byCpu);
    r = byCpu.report(sym);
    EXPECT_EQ(r.samples, 6u);
    ASSERT_EQ(r.cpus.size(), 2u);
    EXPECT_EQ(r.cpus[0].samples, 3u);
    EXPECT_EQ(r.cpus[1].samples, 6u);

    CallTree both(StackFilter { 2u, 0u });
    addFixture(both);
    r = both.report(sym);
    EXPECT_EQ(r.samples, 0u);
    EXPECT_EQ(r.topDown[0].inclusive, 0u);
    EXPECT_TRUE(r.topDown[0].children.empty());
}

TEST(CallTree, ListedSamplesOfferTheirThreadWithoutJoiningTheTrees)
{
    Symbolizer sym;
    addProgram(sym);
    CallTree t;
    t.listOnly(7, 9, 2);
    t.listOnly(7, 9, 2);
    const auto r = t.report(sym);
    EXPECT_EQ(r.samples, 0u);
    EXPECT_EQ(r.topDown[0].inclusive, 0u);
    ASSERT_EQ(r.threads.size(), 1u);
    EXPECT_EQ(r.threads[0].samples, 2u);
    ASSERT_EQ(r.cpus.size(), 1u);
    EXPECT_EQ(r.cpus[0].cpu, 2u);
}

TEST(CallTree, UnknownCpuNeverMatchesACpuFilter)
{
    Symbolizer sym;
    addProgram(sym);
    const std::vector<std::uint64_t> stack { 0x1150, 0x1010 };
    CallTree t(StackFilter { std::nullopt, 0u });
    t.add(7, 7, kUnknownCpu, stack);
    const auto r = t.report(sym);
    EXPECT_EQ(r.samples, 0u);
    EXPECT_FALSE(r.cpuKnown());
    ASSERT_EQ(r.cpus.size(), 1u);
    EXPECT_EQ(r.cpus[0].cpu, kUnknownCpu);
}

TEST(SampleStack, LbrCallStackIsTheBranchGraphsRule)
{
    // The rule BranchGraph uses (its self samples) and the tree uses (its leaves) is one function.
    std::vector<std::uint64_t> frames;
    const std::vector<BranchEntry> entries { { 0x1120, 0x1200, 0 }, { 0x1010, 0x1100, 0 }, { 0, 0, 0 },
        { 0x1020, 0x1300, 0 } };
    lbrCallStackFrames(0x1234, entries, frames);
    EXPECT_EQ(frames, (std::vector<std::uint64_t> { 0x1200, 0x1120, 0x1010 })) << "stops at the all-zero entry";
    lbrCallStackFrames(0x1050, std::vector<BranchEntry> {}, frames);
    EXPECT_EQ(frames, (std::vector<std::uint64_t> { 0x1050 })) << "an empty stack leaves the IP";
}

TEST(SampleStack, CallchainDropsContextMarkers)
{
    std::vector<std::uint64_t> frames;
    const std::vector<std::uint64_t> chain { perf::ContextKernel, 0xffffffff81000010ull, perf::ContextUser, 0x1210,
        0x1120 };
    callchainFrames(chain, frames);
    EXPECT_EQ(frames, (std::vector<std::uint64_t> { 0xffffffff81000010ull, 0x1210, 0x1120 }));
    callchainFrames(std::vector<std::uint64_t> { perf::ContextUser }, frames);
    EXPECT_TRUE(frames.empty());
}

TEST(CallTree, LbrCallStacksTotalTheBranchGraphsSamples)
{
    Symbolizer sym;
    addProgram(sym);
    BranchGraph graph(BranchGraph::Mode::CallStack);
    CallTree tree;
    std::vector<std::uint64_t> frames;
    const std::vector<std::vector<BranchEntry>> stacks { { { 0x1120, 0x1200, 0 }, { 0x1010, 0x1100, 0 } },
        { { 0x1010, 0x1100, 0 } }, {}, { { 0x1020, 0x1300, 0 } } };
    for (int i = 0; i < 10; ++i) {
        const auto& st = stacks[static_cast<std::size_t>(i) % stacks.size()];
        Sample s;
        s.present = perf::SampleIp | perf::SampleTid | perf::SampleBranchStack;
        s.pid = s.tid = 3;
        s.ip = 0x1050;
        s.branches = st;
        s.branchNr = st.size();
        graph.add(s);
        lbrCallStackFrames(s.ip, st, frames);
        tree.add(s.pid, s.tid, kUnknownCpu, frames);
    }
    const auto g = graph.report(sym);
    const auto t = tree.report(sym);
    EXPECT_EQ(t.samples, g.samples);
    EXPECT_EQ(t.topDown[0].inclusive, g.samples);
    EXPECT_EQ(t.bottomUp[0].inclusive, g.samples);
    for (const auto& f : g.functions) { // the bottom-up first level is each function's self samples
        const auto* leaf = child(t.bottomUp, 0, f.name);
        EXPECT_EQ(leaf ? leaf->inclusive : 0u, f.self) << f.name;
    }
}

TEST(CallStackSources, SaysWhichRecordOptionGivesStacks)
{
    CallStackSources none;
    EXPECT_EQ(none.whyNone(), "No samples yet.");
    CallStackSources anyBranch;
    anyBranch.add(true, false, false, false);
    EXPECT_NE(anyBranch.whyNone().find("any-branch mode (perf record -b"), std::string::npos);
    EXPECT_NE(anyBranch.whyNone().find("--call-graph lbr"), std::string::npos);
    CallStackSources plain;
    plain.add(false, false, false, false);
    EXPECT_NE(plain.whyNone().find("PERF_SAMPLE_CALLCHAIN"), std::string::npos);
    EXPECT_NE(plain.whyNone().find(" -g "), std::string::npos);
    EXPECT_NE(plain.whyNone().find("--call-graph dwarf"), std::string::npos);
    CallStackSources dwarf;
    dwarf.add(false, false, false, true);
    EXPECT_NE(dwarf.whyNone().find("does not unwind"), std::string::npos);
    CallStackSources callchain = plain;
    callchain.add(false, false, true, false);
    EXPECT_EQ(callchain.whyNone(), "");
    EXPECT_EQ(callchain.withStacks(), 1u);
    CallStackSources lbr;
    lbr.add(true, true, true, false);
    EXPECT_EQ(lbr.lbrCallStack, 1u);
    EXPECT_EQ(lbr.callchains, 0u) << "a call-stack LBR sample counts once";
}
