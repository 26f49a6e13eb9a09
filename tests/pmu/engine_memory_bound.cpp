// SPDX-License-Identifier: GPL-3.0-or-later
// TMA's memory-bound share of a group's threads (pmu/MemoryBound.h, pmu/TaskGroupCounter.h, engine/GroupPmuCounter.h)
// against a fake kernel whose counters count known amounts: Sapphire Rapids from topdown-mem-bound, Skylake-SP from
// CYCLE_ACTIVITY / EXE_ACTIVITY and level 1, multiplexing scaled back, a model without a formula refused with the
// reason, and a refused event leaving IPC and MPKI counted without a share.
#include "FakeCountingPerf.h"
#include "engine/GroupPmuCounter.h"
#include "pmu/MemoryBound.h"
#include "pmu/TaskGroupCounter.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::pmu;
using namespace rdt::pmu::test;

namespace {

MemoryBoundRecipes recipesFor(const char* pfmName)
{
    auto r = memoryBoundRecipes(EventEncoder::forModel(modelForPfmName(pfmName)), RecipeOptions {});
    EXPECT_TRUE(r.ok()) << r.error().toString();
    return r.ok() ? *r : MemoryBoundRecipes {};
}

// Sapphire Rapids, per read: slots 1000 and the level-1 metrics 200 + 100 + 200 + 500 (sum 1000), memory bound 300.
void sprCounts(CountingPerfState& s)
{
    s.stepPerRead[0x0400] = 1000; // slots
    s.stepPerRead[0x8000] = 200; // topdown-retiring
    s.stepPerRead[0x8100] = 100; // topdown-bad-spec
    s.stepPerRead[0x8200] = 200; // topdown-fe-bound
    s.stepPerRead[0x8300] = 500; // topdown-be-bound
    s.stepPerRead[0x8700] = 300; // topdown-mem-bound
}

// Skylake-SP, per read: cycles 1000 (4000 slots), UOPS_ISSUED.ANY 2000, UOPS_RETIRED.RETIRE_SLOTS 1600,
// IDQ_UOPS_NOT_DELIVERED.CORE 400, no recovery cycles: frontend 0.1, bad speculation 0.1, retiring 0.4, backend
// 1 - 0.1 - 2000/4000 = 0.4. STALLS_MEM_ANY 300, BOUND_ON_STORES 100, STALLS_TOTAL 500, 1_PORTS_UTIL 200,
// 2_PORTS_UTIL 250: memory bound = (300 + 100) / (500 + 200 + 0.4 * 250 + 100) * 0.4 = 0.4 / 0.9 * 0.4.
constexpr double kSkxShare = 400.0 / 900.0 * 0.4;
void skxCounts(CountingPerfState& s)
{
    s.stepPerRead[0x010e] = 2000;
    s.stepPerRead[0x02c2] = 1600;
    s.stepPerRead[0x019c] = 400;
    s.stepPerRead[0x140014a3] = 300;
    s.stepPerRead[0x40a6] = 100;
    s.stepPerRead[0x040004a3] = 500;
    s.stepPerRead[0x02a6] = 200;
    s.stepPerRead[0x04a6] = 250;
}

} // namespace

TEST(MemoryBound, RecipesPerModelAndAReasonWhereThereIsNoFormula)
{
    EXPECT_EQ(recipesFor("spr").groups.size(), 1u) << "level 2 is in the slots group itself";
    const auto icx = recipesFor("icx");
    ASSERT_EQ(icx.groups.size(), 3u);
    EXPECT_EQ(icx.groups[0].tma, TmaModel::Icelake);
    EXPECT_EQ(icx.groups[1].events[1].attr.config, 0x020040a6u) << "Ice Lake: BOUND_ON_STORES with cmask 2";
    const auto skx = recipesFor("skx");
    ASSERT_EQ(skx.groups.size(), 3u);
    // Each stall group fits the four general counters of an SMT thread.
    EXPECT_EQ(skx.groups[1].events.size(), 3u);
    EXPECT_EQ(skx.groups[2].events.size(), 2u);
    EXPECT_EQ(skx.groups[1].events[0].attr.config, 0x140014a3u) << "event A3H umask 14H cmask 20";
    for (const char* old : { "hsw", "bdw_ep", "adl_grt" }) {
        auto r = memoryBoundRecipes(EventEncoder::forModel(modelForPfmName(old)), RecipeOptions {});
        ASSERT_FALSE(r.ok()) << old;
        EXPECT_NE(r.error().advice.find("unfinished"), std::string::npos) << r.error().toString();
        EXPECT_NE(r.error().advice.find("IPC and MPKI are still counted"), std::string::npos);
    }
}

TEST(MemoryBound, SapphireRapidsShareIsTheMemBoundMetricOverTheLevelOneSum)
{
    auto state = intelMachine();
    sprCounts(*state);
    FakeCountingPerf perf(state);
    const auto r = recipesFor("spr");
    TaskGroupCounter counter(perf, r.groups);
    auto sums = counter.count({ 11, 12 });
    ASSERT_TRUE(sums.ok()) << sums.error().toString();
    ASSERT_EQ(state->opens.size(), 2u * 9u) << "slots + 8 metric events per thread";
    for (const auto& o : state->opens) {
        EXPECT_EQ(o.cpu, -1);
        EXPECT_FALSE(o.attr.disabled()) << "counting starts at once";
    }
    const auto share = memoryBoundShare(r, *sums);
    ASSERT_TRUE(share.share) << share.note;
    EXPECT_NEAR(*share.share, 0.3, 1e-9);
}

TEST(MemoryBound, SkylakeShareFollowsPerfsFormulaAndMultiplexingIsScaledBack)
{
    auto state = intelMachine();
    skxCounts(*state);
    FakeCountingPerf perf(state);
    const auto r = recipesFor("skx");
    TaskGroupCounter counter(perf, r.groups);
    auto first = counter.count({ 21, 22, 23 });
    ASSERT_TRUE(first.ok()) << first.error().toString();
    ASSERT_EQ(state->opens.size(), 3u * 10u) << "5 + 3 + 2 events per thread";
    for (const auto& o : state->opens)
        EXPECT_TRUE(o.groupFd == -1 || o.attr.readFormat & perf::ReadGroup);
    auto share = memoryBoundShare(r, *first);
    ASSERT_TRUE(share.share) << share.note;
    EXPECT_NEAR(*share.share, kSkxShare, 1e-9);
    // Multiplexed half the time: every group is scaled by enabled / running; the interval's share is the same.
    state->running = 0.5;
    auto second = counter.count({ 21, 22, 23 });
    ASSERT_TRUE(second.ok());
    std::vector<ReadData> deltas;
    for (std::size_t i = 0; i < second->size(); ++i)
        deltas.push_back(deltaRead((*second)[i], (*first)[i]));
    share = memoryBoundShare(r, deltas);
    ASSERT_TRUE(share.share) << share.note;
    EXPECT_NEAR(*share.share, kSkxShare, 1e-6);
}

TEST(MemoryBound, GroupCountsCarryTheShareAsCyclesAndARefusedEventLeavesIpc)
{
    auto state = intelMachine();
    skxCounts(*state);
    engine::GroupPmuCounter counter(std::make_unique<FakeCountingPerf>(state),
        [](const PerfEnvironment&) { return memoryBoundRecipes(EventEncoder::forModel(modelForPfmName("skx")), {}); });
    auto a = counter.count("victim", { 31 });
    ASSERT_TRUE(a.ok()) << a.error().toString();
    auto b = counter.count("victim", { 31 });
    ASSERT_TRUE(b.ok());
    ASSERT_TRUE(a->memoryStallCycles && b->memoryStallCycles) << b->method;
    EXPECT_NEAR((*b->memoryStallCycles - *a->memoryStallCycles) / (b->cycles - a->cycles), kSkxShare, 1e-9);
    EXPECT_NE(b->method.find("CYCLE_ACTIVITY.STALLS_MEM_ANY"), std::string::npos) << b->method;

    auto refusing = intelMachine();
    skxCounts(*refusing);
    refusing->refusedConfigs = { 0x04a6 }; // EXE_ACTIVITY.2_PORTS_UTIL
    engine::GroupPmuCounter partial(std::make_unique<FakeCountingPerf>(refusing),
        [](const PerfEnvironment&) { return memoryBoundRecipes(EventEncoder::forModel(modelForPfmName("skx")), {}); });
    auto c = partial.count("victim", { 31 });
    ASSERT_TRUE(c.ok()) << c.error().toString();
    EXPECT_DOUBLE_EQ(c->instructions / c->cycles, 2.0) << "IPC is still counted";
    EXPECT_FALSE(c->memoryStallCycles) << "no share, never a zero for it";
    EXPECT_NE(c->method.find("memory-bound share: not counted"), std::string::npos) << c->method;

    engine::GroupPmuCounter none(std::make_unique<FakeCountingPerf>(intelMachine()),
        [](const PerfEnvironment&) { return memoryBoundRecipes(EventEncoder::forModel(modelForPfmName("hsw")), {}); });
    auto d = none.count("victim", { 31 });
    ASSERT_TRUE(d.ok());
    EXPECT_FALSE(d->memoryStallCycles);
    EXPECT_NE(d->method.find("not counted on this PMU (hsw)"), std::string::npos) << d->method;
}
