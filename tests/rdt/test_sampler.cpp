// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestTree.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Sampler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace rdt;
using rdt::test::TempTree;

namespace {
const RdtSample* find(const RdtSampleBatch& b, const std::string& group, int domain)
{
    for (const auto& s : b.samples)
        if (s.group == group && s.domain == domain) return &s;
    return nullptr;
}
}

TEST(Sampler, BandwidthFromDeltasAndRemote)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b.ok());
    Sampler sampler(**b, SamplerConfig { 10.0, 16, { "" }, 2e12 });
    t.write("mon_data/mon_L3_00/mbm_total_bytes", "1000\n");
    t.write("mon_data/mon_L3_00/mbm_local_bytes", "400\n");
    t.write("mon_data/mon_L3_00/llc_occupancy", "65536\n");
    auto first = sampler.pollOnce(1'000'000'000);
    ASSERT_TRUE(first.ok());
    const auto* s0 = find(*first, "", 0);
    ASSERT_NE(s0, nullptr);
    EXPECT_TRUE(s0->flags & SampleFirst);
    EXPECT_EQ(s0->mbmTotalBps, 0.0);
    EXPECT_EQ(s0->occupancyBytes, 65536u);
    t.write("mon_data/mon_L3_00/mbm_total_bytes", "201000\n");
    t.write("mon_data/mon_L3_00/mbm_local_bytes", "50400\n");
    auto second = sampler.pollOnce(1'100'000'000); // 100 ms later
    ASSERT_TRUE(second.ok());
    const auto* s1 = find(*second, "", 0);
    ASSERT_NE(s1, nullptr);
    EXPECT_EQ(s1->flags, 0u);
    EXPECT_DOUBLE_EQ(s1->mbmTotalBps, 2'000'000.0);
    EXPECT_DOUBLE_EQ(s1->mbmLocalBps, 500'000.0);
    EXPECT_DOUBLE_EQ(s1->mbmRemoteBps(), 1'500'000.0);
    EXPECT_EQ(s1->mbmTotalBytes, 201000u);
    // Both batches went into the queue.
    EXPECT_TRUE(sampler.queue().pop().has_value());
    EXPECT_TRUE(sampler.queue().pop().has_value());
    EXPECT_FALSE(sampler.queue().pop().has_value());
}

TEST(Sampler, ResetAndFlagsAreCarried)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig { 10.0, 16, { "" }, 2e12 });
    t.write("mon_data/mon_L3_01/mbm_total_bytes", "5000000\n");
    ASSERT_TRUE(sampler.pollOnce(1'000'000'000).ok());
    t.write("mon_data/mon_L3_01/mbm_total_bytes", "1000\n"); // group re-created: counter restarted
    t.write("mon_data/mon_L3_02/llc_occupancy", "Unavailable\n");
    t.write("mon_data/mon_L3_03/mbm_local_bytes", "Error\n");
    auto r = sampler.pollOnce(1'100'000'000);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(find(*r, "", 1)->flags & SampleCounterReset);
    EXPECT_DOUBLE_EQ(find(*r, "", 1)->mbmTotalBps, 10'000.0);
    EXPECT_TRUE(find(*r, "", 2)->flags & SampleOccupancyUnavailable);
    EXPECT_TRUE(find(*r, "", 3)->flags & SampleMbmError);
    EXPECT_EQ(find(*r, "", 3)->mbmTotalBps, 0.0);
}

TEST(Sampler, QueueDropsAreCounted)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig { 10.0, 2, { "" }, 2e12 });
    for (int i = 1; i <= 5; ++i)
        ASSERT_TRUE(sampler.pollOnce(static_cast<std::uint64_t>(i) * 100'000'000).ok());
    EXPECT_EQ(sampler.queue().dropped(), 3u);
}

TEST(Sampler, SlowRateIsRaisedForNarrowCounters)
{
    // resctrl returns kernel-extended 64-bit counters: any rate is allowed.
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler slow(**b, SamplerConfig { 0.2, 4, {}, 0 });
    EXPECT_EQ(slow.intervalNs(), 5'000'000'000u);
    EXPECT_TRUE(slow.rateNote().empty());
    Sampler def(**b, SamplerConfig {});
    EXPECT_EQ(def.intervalNs(), 100'000'000u);
}

TEST(Sampler, PollErrorsAreCountedNotFatal)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig { 10.0, 4, { "no-such-group" }, 0 });
    auto r = sampler.pollOnce(1);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(sampler.pollErrors(), 1u);
    EXPECT_FALSE(sampler.lastError().empty());
}

// The thread: runs at a high rate, publishes to the queue that this (consumer) thread drains, stops promptly.
// Run under the tsan preset too.
TEST(Sampler, ThreadPublishesAndStops)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig { 200.0, 64, {}, 0 });
    std::atomic<int> callbacks { 0 };
    sampler.setCallback([&](const RdtSampleBatch& batch) {
        if (!batch.samples.empty()) callbacks.fetch_add(1);
    });
    ASSERT_TRUE(sampler.start().ok());
    EXPECT_FALSE(sampler.start().ok());
    EXPECT_FALSE(sampler.pollOnce(1).ok());
    int drained = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (drained < 10 && std::chrono::steady_clock::now() < deadline) {
        while (auto batch = sampler.queue().pop()) {
            EXPECT_FALSE(batch->samples.empty());
            ++drained;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const auto t0 = std::chrono::steady_clock::now();
    sampler.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
    EXPECT_FALSE(sampler.running());
    EXPECT_GE(drained, 10);
    EXPECT_GE(callbacks.load(), 10);
    EXPECT_EQ(sampler.pollErrors(), 0u);
}

TEST(Sampler, StartWithoutMonitoringFails)
{
    TempTree t("resctrl.l2");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig {});
    auto r = sampler.start();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ENOENT);
}
