// SPDX-License-Identifier: GPL-3.0-or-later
// Counting a changing set of threads with perf_event_open (pmu/TaskCounter.h) against a fake kernel: one counter per
// event per thread following it on any CPU, sums that never go back when a thread leaves, multiplexing scaled back,
// an exited thread skipped, a refusal explained with perf's advice, and hybrid parts counted on both core PMUs.
#include "FakeCountingPerf.h"
#include "HybridEnv.h"
#include "pmu/TaskCounter.h"

#include <gtest/gtest.h>

using namespace rdt::pmu;
using namespace rdt::pmu::test;

TEST(TaskCounter, CountsEachThreadOnAnyCpuAndSumsThem)
{
    auto state = intelMachine();
    FakeCountingPerf perf(state);
    TaskCounter counter(perf);
    auto c = counter.count({ 11, 12 });
    ASSERT_TRUE(c.ok()) << c.error().toString();
    ASSERT_EQ(state->opens.size(), 6u); // cycles, instructions, cache-misses for each thread
    for (const auto& o : state->opens) {
        EXPECT_TRUE(o.pid == 11 || o.pid == 12);
        EXPECT_EQ(o.cpu, -1) << "the counter follows the thread";
        EXPECT_EQ(o.attr.type, TypeHardware);
        EXPECT_TRUE(o.attr.config == 0 || o.attr.config == 1 || o.attr.config == 3) << o.attr.config;
        EXPECT_TRUE(o.attr.excludeHv());
        EXPECT_FALSE(o.attr.excludeKernel()) << "root counts the kernel too";
        EXPECT_FALSE(o.attr.disabled());
    }
    // First read of each counter: one step per thread.
    EXPECT_DOUBLE_EQ(c->cycles, 2 * 1000);
    EXPECT_DOUBLE_EQ(c->instructions, 2 * 2000);
    EXPECT_DOUBLE_EQ(c->llcMisses, 2 * 10);
    EXPECT_EQ(c->tasks, 2u);
    EXPECT_FALSE(c->userOnly);
    // Multiplexed half the time: scaled by enabled / running.
    state->running = 0.5;
    auto d = counter.count({ 11, 12 });
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(state->opens.size(), 6u) << "threads already counted are not opened again";
    EXPECT_DOUBLE_EQ(d->cycles, 2 * 2 * 2000);
}

TEST(TaskCounter, AThreadThatLeavesKeepsItsCountsAndANewOneIsAdded)
{
    auto state = intelMachine();
    FakeCountingPerf perf(state);
    TaskCounter counter(perf);
    ASSERT_TRUE(counter.count({ 11, 12 }).ok());
    ASSERT_TRUE(counter.count({ 11, 12 }).ok()); // each thread: 2000 cycles so far
    auto c = counter.count({ 12, 13 }); // 11 left with its 2000, 12 reads 3000, 13 reads 1000
    ASSERT_TRUE(c.ok()) << c.error().toString();
    EXPECT_EQ(state->opens.size(), 9u);
    EXPECT_EQ(state->opens.back().pid, 13);
    EXPECT_EQ(c->tasks, 2u);
    EXPECT_EQ(c->gone, 1u);
    EXPECT_DOUBLE_EQ(c->cycles, 2000 + 3000 + 1000);
    EXPECT_DOUBLE_EQ(c->instructions, 2 * c->cycles);
}

TEST(TaskCounter, AnExitedThreadIsSkippedAndARefusalIsExplained)
{
    auto state = intelMachine();
    state->gone = { 12 };
    FakeCountingPerf perf(state);
    TaskCounter counter(perf);
    auto c = counter.count({ 11, 12 });
    ASSERT_TRUE(c.ok()) << c.error().toString();
    EXPECT_EQ(c->tasks, 1u);
    EXPECT_DOUBLE_EQ(c->cycles, 1000);

    state->refused = { 14 };
    state->env.isRoot = false;
    state->env.paranoidKnown = true;
    state->env.paranoid = 2;
    TaskCounter other(perf);
    auto r = other.count({ 14 });
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EACCES);
    EXPECT_NE(r.error().advice.find("perf_event_paranoid"), std::string::npos) << r.error().toString();
    // Unprivileged at paranoid 2, as perf falls back to :u: user space only, and said.
    auto user = other.count({ 11 });
    ASSERT_TRUE(user.ok()) << user.error().toString();
    EXPECT_TRUE(user->userOnly);
    EXPECT_TRUE(state->opens.back().attr.excludeKernel());
}

TEST(TaskCounter, HybridPartsCountOnBothCorePmus)
{
    auto state = std::make_shared<CountingPerfState>();
    state->env = hybridEnv();
    FakeCountingPerf perf(state);
    TaskCounter counter(perf);
    auto c = counter.count({ 11 });
    ASSERT_TRUE(c.ok()) << c.error().toString();
    ASSERT_EQ(state->opens.size(), 6u);
    std::set<std::uint64_t> configs;
    for (const auto& o : state->opens)
        configs.insert(o.attr.config);
    for (const std::uint64_t type : { kCoreType, kAtomType })
        for (const std::uint64_t event : { 0u, 1u, 3u })
            EXPECT_EQ(configs.count(type << 32 | event), 1u) << type << " " << event;
    EXPECT_DOUBLE_EQ(c->cycles, 2 * 1000) << "P-core and E-core counts summed";
}
