// SPDX-License-Identifier: GPL-3.0-or-later
// TMA arithmetic: Ice Lake read() values (already in slots) and the Skylake level-1 formulas.
#include "pmu/Recipes.h"
#include "pmu/Tma.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace rdt::pmu;

TEST(Tma, IcelakeReadValuesNormaliseBySumOfLevel1)
{
    // slots=1000; the kernel gave slots*val/0xff per metric; they sum to 999 after rounding.
    IcelakeTmaCounts c { 1000, 400, 100, 199, 300 };
    auto b = tmaFromIcelake(c);
    ASSERT_TRUE(b.valid);
    EXPECT_NEAR(b.level1.retiring, 400.0 / 999, 1e-12);
    EXPECT_NEAR(b.level1.badSpeculation, 100.0 / 999, 1e-12);
    EXPECT_NEAR(b.level1.frontendBound, 199.0 / 999, 1e-12);
    EXPECT_NEAR(b.level1.backendBound, 300.0 / 999, 1e-12);
    EXPECT_NEAR(
        b.level1.retiring + b.level1.badSpeculation + b.level1.frontendBound + b.level1.backendBound, 1.0, 1e-12);
    EXPECT_FALSE(b.level2.present);
}

TEST(Tma, SapphireRapidsLevel2Derivations)
{
    IcelakeTmaCounts c { 2000, 800, 200, 400, 600, true, 300, 150, 250, 450 };
    auto b = tmaFromIcelake(c);
    ASSERT_TRUE(b.valid);
    ASSERT_TRUE(b.level2.present);
    EXPECT_NEAR(b.level2.heavyOperations, 0.15, 1e-12);
    EXPECT_NEAR(b.level2.lightOperations, 0.40 - 0.15, 1e-12); // Light_Ops = Retiring - Heavy_Ops
    EXPECT_NEAR(b.level2.branchMispredicts, 0.075, 1e-12);
    EXPECT_NEAR(b.level2.machineClears, 0.10 - 0.075, 1e-12); // Machine_Clears = Bad_Spec - Br_Mispredict
    EXPECT_NEAR(b.level2.fetchLatency, 0.125, 1e-12);
    EXPECT_NEAR(b.level2.fetchBandwidth, 0.20 - 0.125, 1e-12); // Fetch_BW = FE_Bound - Fetch_Lat
    EXPECT_NEAR(b.level2.memoryBound, 0.225, 1e-12);
    EXPECT_NEAR(b.level2.coreBound, 0.30 - 0.225, 1e-12); // Core_Bound = BE_Bound - Mem_Bound
}

TEST(Tma, SkylakeLevel2Formulas)
{
    // 1000 cycles * 4 = 4000 slots; level 1: FE 0.1, bad spec 0.125, retiring 0.65, BE 0.125 (as SkylakeFormulas).
    SkylakeTmaCounts c { 3000, 2600, 400, 25, 1000, 4 };
    c.level2 = true;
    c.cycles0UopsDelivered = 60; // 240 slots: fetch latency 0.06
    c.brMispRetired = 30;
    c.machineClears = 10; // 3/4 of bad speculation
    c.stallsMemAny = 90;
    c.boundOnStores = 10;
    c.stallsTotal = 120;
    c.onePortUtil = 40;
    c.twoPortsUtil = 100; // weighted by retiring: 65
    c.idqMsUops = 300; // * 2600/3000 / 4000
    auto b = tmaFromSkylake(c);
    ASSERT_TRUE(b.valid);
    ASSERT_TRUE(b.level2.present);
    EXPECT_NEAR(b.level2.fetchLatency, 4.0 * 60 / 4000, 1e-12);
    EXPECT_NEAR(b.level2.fetchBandwidth, 0.1 - 0.06, 1e-12);
    EXPECT_NEAR(b.level2.branchMispredicts, 0.75 * 0.125, 1e-12);
    EXPECT_NEAR(b.level2.machineClears, 0.25 * 0.125, 1e-12);
    const double memFraction = (90.0 + 10) / (120 + (40 + 0.65 * 100) + 10);
    EXPECT_NEAR(b.level2.memoryBound, memFraction * 0.125, 1e-12);
    EXPECT_NEAR(b.level2.coreBound, (1 - memFraction) * 0.125, 1e-12);
    EXPECT_NEAR(b.level2.heavyOperations, 2600.0 / 3000 * 300 / 4000, 1e-12);
    EXPECT_NEAR(b.level2.lightOperations, 0.65 - 2600.0 / 3000 * 300 / 4000, 1e-12);
    EXPECT_TRUE(b.note.empty()) << b.note;

    c.cycles0UopsDelivered = 200; // 800 slots > frontend bound's 400: capped at its parent, and said so
    b = tmaFromSkylake(c);
    EXPECT_NEAR(b.level2.fetchLatency, 0.1, 1e-12);
    EXPECT_NEAR(b.level2.fetchBandwidth, 0.0, 1e-12);
    EXPECT_FALSE(b.note.empty());
    c.level2 = false;
    EXPECT_FALSE(tmaFromSkylake(c).level2.present);
}

TEST(Tma, IcelakeEmptyIntervalIsInvalidWithReason)
{
    auto b = tmaFromIcelake({});
    EXPECT_FALSE(b.valid);
    EXPECT_FALSE(b.note.empty());
}

TEST(Tma, SkylakeFormulas)
{
    // 1000 cycles * 4 = 4000 slots. issued 3000, retired 2600, not delivered 400, recovery 25 cycles (100 slots).
    SkylakeTmaCounts c { 3000, 2600, 400, 25, 1000, 4 };
    auto b = tmaFromSkylake(c);
    ASSERT_TRUE(b.valid);
    EXPECT_DOUBLE_EQ(b.slots, 4000);
    EXPECT_NEAR(b.level1.frontendBound, 400.0 / 4000, 1e-12);
    EXPECT_NEAR(b.level1.badSpeculation, (3000.0 - 2600 + 100) / 4000, 1e-12);
    EXPECT_NEAR(b.level1.retiring, 2600.0 / 4000, 1e-12);
    EXPECT_NEAR(b.level1.backendBound, 1 - 0.1 - (3000.0 + 100) / 4000, 1e-12);
    EXPECT_NEAR(
        b.level1.retiring + b.level1.badSpeculation + b.level1.frontendBound + b.level1.backendBound, 1.0, 1e-12);
}

TEST(Tma, SkylakeSlotsPerCycleFromCpuid23)
{
    EXPECT_EQ(tmaSlotsPerCycle(6, true), 6u);
    EXPECT_EQ(tmaSlotsPerCycle(0, true), 4u); // SDM 22.2.9.6: some processors report 0
    EXPECT_EQ(tmaSlotsPerCycle(6, false), 4u);
    SkylakeTmaCounts c { 3000, 3000, 0, 0, 1000, 6 };
    auto b = tmaFromSkylake(c);
    EXPECT_DOUBLE_EQ(b.slots, 6000);
    EXPECT_NEAR(b.level1.retiring, 0.5, 1e-12);
    EXPECT_NEAR(b.level1.backendBound, 0.5, 1e-12);
}

TEST(Tma, MultiplexScaling)
{
    EXPECT_DOUBLE_EQ(scaleCount(100, 200, 100), 200);
    EXPECT_DOUBLE_EQ(scaleCount(100, 200, 200), 100);
    EXPECT_DOUBLE_EQ(scaleCount(100, 200, 0), 0);
}

TEST(Tma, GroupReadParseDeltaAndBreakdown)
{
    // {nr, enabled, running, {value, id}[5]} for slots + 4 metrics
    auto image = [](std::uint64_t enabled, std::uint64_t running, std::vector<std::uint64_t> v) {
        std::vector<std::uint64_t> w { v.size(), enabled, running };
        for (std::size_t i = 0; i < v.size(); ++i) {
            w.push_back(v[i]);
            w.push_back(100 + i);
        }
        std::vector<std::byte> b(w.size() * 8);
        std::memcpy(b.data(), w.data(), b.size());
        return b;
    };
    const std::uint64_t fmt = perf::ReadGroup | perf::ReadTotalTimeEnabled | perf::ReadTotalTimeRunning | perf::ReadId;
    auto r0 = parseReadFormat(image(1000, 500, { 1000, 400, 100, 200, 300 }), fmt);
    auto r1 = parseReadFormat(image(3000, 1500, { 3000, 1400, 200, 600, 800 }), fmt);
    ASSERT_TRUE(r0 && r1);
    EXPECT_EQ(r1->values[4].id, 104u);
    auto d = deltaRead(*r1, *r0);
    EXPECT_EQ(d.timeEnabled, 2000u);
    EXPECT_EQ(d.values[1].value, 1000u);
    Recipe rec;
    rec.tma = TmaModel::Icelake;
    for (auto role :
        { EventRole::Slots, EventRole::Retiring, EventRole::BadSpec, EventRole::FeBound, EventRole::BeBound })
        rec.events.push_back(RecipeEvent { "", "", role, {} });
    auto b = tmaFromGroupRead(rec, d);
    ASSERT_TRUE(b.valid) << b.note;
    EXPECT_NEAR(b.level1.retiring, 0.5, 1e-12);
    EXPECT_NEAR(b.level1.backendBound, 0.25, 1e-12);
    EXPECT_DOUBLE_EQ(b.multiplexScale, 2.0); // ran half the time
    EXPECT_DOUBLE_EQ(b.slots, 4000.0);
    auto truncated = image(1, 1, { 1, 2 });
    truncated.resize(truncated.size() - 4);
    EXPECT_FALSE(parseReadFormat(truncated, fmt));
}

TEST(Tma, IntervalsFromCumulativeReadsAndSlotWeightedTotal)
{
    Recipe rec;
    rec.tma = TmaModel::Icelake;
    for (auto role :
        { EventRole::Slots, EventRole::Retiring, EventRole::BadSpec, EventRole::FeBound, EventRole::BeBound })
        rec.events.push_back(RecipeEvent { "", "", role, {} });
    auto cumulative = [](std::uint64_t t, std::vector<std::uint64_t> v) {
        ReadData d;
        d.timeEnabled = d.timeRunning = t;
        for (auto x : v)
            d.values.push_back(ReadValue { x, 0, 0 });
        return d;
    };
    TmaIntervals iv;
    iv.start(cumulative(0, { 0, 0, 0, 0, 0 }));
    auto f = [&](const ReadData& d) { return tmaFromGroupRead(rec, d); };
    // interval 1: 1000 slots, all retiring; interval 2: 3000 slots, all backend bound
    EXPECT_NEAR(iv.add(1, cumulative(10, { 1000, 1000, 0, 0, 0 }), f).breakdown.level1.retiring, 1.0, 1e-12);
    const auto& second = iv.add(2, cumulative(20, { 4000, 1000, 0, 0, 3000 }), f);
    EXPECT_NEAR(second.breakdown.level1.backendBound, 1.0, 1e-12);
    EXPECT_NEAR(second.breakdown.level1.retiring, 0.0, 1e-12);
    ASSERT_EQ(iv.history().size(), 2u);
    const auto total = iv.total();
    ASSERT_TRUE(total.valid);
    EXPECT_NEAR(total.level1.retiring, 0.25, 1e-12); // slot-weighted: 1000 of 4000
    EXPECT_NEAR(total.level1.backendBound, 0.75, 1e-12);
}
