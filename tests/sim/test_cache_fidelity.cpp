// SPDX-License-Identifier: GPL-3.0-or-later
// Fidelity of the cache model, modelled on the kernel's resctrl selftests (docs/RESCTRL.md "Kernel selftests").
#include "SimTestUtil.h"

#include <cmath>

using namespace rdt::sim;
using namespace rdt::sim::test;

// CMT (cmt_test.c): a workload confined to n of N CBM bits with a buffer of cache_size * n / N reports an
// occupancy within 15% of that span.
TEST(CacheFidelity, CmtOccupancyMatchesConfinedSpan)
{
    for (unsigned n : { 2u, 5u, 9u }) {
        auto m = makeMachine();
        const auto& f = m->features();
        const std::uint64_t span = f.l3.sizeBytes() * n / f.l3Cat.cbmLen;
        m->setL3Mask(0, 1, (1u << n) - 1);
        auto tid = m->addThread("fill_buf", 0, spec(Pattern::Stream, span));
        ASSERT_TRUE(tid.ok());
        ASSERT_TRUE(m->setTaskAssociation(*tid, 1, 1).ok());
        m->advance(30 * kMs);
        const double occ = double(m->occupancyBytes(0, 1));
        EXPECT_NEAR(occ, double(span), 0.15 * double(span)) << n << " bits";
        // In counter units, as IA32_QM_CTR reports it: occupancy / upscaling factor.
        auto units = m->counterUnits(0, 1, 1);
        ASSERT_TRUE(units.has_value());
        EXPECT_EQ(*units, m->occupancyBytes(0, 1) / f.mon.scale);
        // Nothing outside the mask: the other RMID holds nothing, and no line sits in a way the mask excludes.
        auto byWay = m->occupancyByClosAndWay(0);
        for (std::uint32_t w = n; w < m->l3Ways(); ++w) {
            EXPECT_EQ(byWay[1][w], 0u) << "way " << w;
        }
    }
}

// L3_CAT (cat_test.c): with the buffer fixed, misses rise by at least 1% for each CBM bit taken away.
TEST(CacheFidelity, CatMissesRiseForEachBitRemoved)
{
    auto m = makeMachine();
    const auto& f = m->features();
    const unsigned start = 8;
    const std::uint64_t buffer = f.l3.sizeBytes() * start / f.l3Cat.cbmLen;
    auto tid = m->addThread("bench", 0, spec(Pattern::Random, buffer, 60e6));
    ASSERT_TRUE(tid.ok());
    ASSERT_TRUE(m->setTaskAssociation(*tid, 1, 1).ok());
    double previous = -1;
    for (unsigned bits = start; bits >= 1; --bits) {
        m->setL3Mask(0, 1, (1u << bits) - 1);
        m->flushCaches();
        m->advance(60 * kMs); // warm up
        const std::uint64_t before = m->thread(*tid)->stats.l3Misses();
        m->advance(100 * kMs);
        const double misses = double(m->thread(*tid)->stats.l3Misses() - before);
        if (previous >= 0) {
            EXPECT_GE(misses, previous * 1.01) << bits << " bits";
        }
        previous = misses;
    }
}

// MBA: bandwidth falls monotonically as the delay rises and lands within 10% of the model's target
// (the smaller of the unthrottled bandwidth and the per-core cap times (100 - delay)%).
TEST(CacheFidelity, MbaThrottlesMonotonicallyToTarget)
{
    auto m = makeMachine();
    auto tid = m->addThread("hog", 0, spec(Pattern::Stream, 1ull << 30));
    ASSERT_TRUE(tid.ok());
    ASSERT_TRUE(m->setTaskAssociation(*tid, 1, 1).ok());
    std::vector<double> bw;
    for (std::uint32_t delay = 0; delay <= 90; delay += 10) {
        m->setMbaDelay(0, 1, delay);
        m->advance(5 * kMs);
        const std::uint64_t before = m->counters(0, 1).totalBytes;
        m->advance(40 * kMs);
        bw.push_back(double(m->counters(0, 1).totalBytes - before) / 0.040);
    }
    const double cap = m->options().timing.coreMaxMemBw;
    for (std::size_t i = 0; i < bw.size(); ++i) {
        const double target = std::min(bw[0], cap * (100.0 - 10.0 * double(i)) / 100.0);
        EXPECT_NEAR(bw[i], target, 0.10 * target) << "delay " << 10 * i;
        if (i > 0) {
            EXPECT_LT(bw[i], bw[i - 1]) << "delay " << 10 * i;
        }
    }
}

// 20.19.7.2: initial MBA versions apply the maximum delay of a core's threads: a throttled sibling slows an
// unthrottled thread on the same core ("max" mode); with per-thread MBA (CPUID.10H.3:ECX[0]) it does not.
TEST(CacheFidelity, MbaMaxDelayAcrossThreadsOfACore)
{
    for (bool perThread : { false, true }) {
        auto m = makeMachine(MachineArgs { "skx-6154", 1, 2, 64, { { "mba_per_thread", perThread } } });
        auto fast = m->addThread("fast", 0, spec(Pattern::Stream, 1ull << 30));
        auto slow = m->addThread("slow", 1, spec(Pattern::Stream, 1ull << 30));
        ASSERT_TRUE(fast.ok() && slow.ok());
        ASSERT_TRUE(m->setTaskAssociation(*fast, 1, 1).ok());
        ASSERT_TRUE(m->setTaskAssociation(*slow, 2, 2).ok());
        m->setMbaDelay(0, 2, 80);
        m->advance(2 * kMs);
        EXPECT_NEAR(m->throttleFraction(1), 0.2, 1e-9);
        EXPECT_NEAR(m->throttleFraction(0), perThread ? 1.0 : 0.2, 1e-9) << "perThread=" << perThread;
    }
}

// CBA (20.19.8.3): the effective throttle is the stronger of MBA and CBA.
TEST(CacheFidelity, CbaAndMbaStrongerWins)
{
    auto m = makeMachine(MachineArgs { "skx-6154", 1, 1, 64, { { "cba", 9 } } });
    auto t = m->addThread("t", 0, spec(Pattern::Stream, 1ull << 30));
    ASSERT_TRUE(m->setTaskAssociation(*t, 1, 1).ok());
    m->setMbaDelay(0, 1, 30); // 70%
    m->setCbaLevel(0, 1, 5); // 1 - 5/10 = 50%
    EXPECT_NEAR(m->throttleFraction(0), 0.5, 1e-9);
    m->setCbaLevel(0, 1, 1); // 90%
    EXPECT_NEAR(m->throttleFraction(0), 0.7, 1e-9);
}

// CDP: code lines fill only the code mask's ways and data lines only the data mask's ways.
TEST(CacheFidelity, CdpFillsOwnMasks)
{
    auto m = makeMachine(MachineArgs { "bdw-6850k", 1, 1, 64, {} });
    ASSERT_TRUE(m->features().l3Cat.cdp);
    m->setL3Cdp(0, true);
    m->setL3Mask(0, 2, 0x0000F); // CLOS 1 data (Table 20-19: mask 2n)
    m->setL3Mask(0, 3, 0xF0000); // CLOS 1 code (mask 2n+1)
    WorkloadSpec s = spec(Pattern::Mix, 8ull << 20);
    s.codeSize = 4ull << 20;
    s.codeFraction = 0.5;
    auto t = m->addThread("app", 0, s);
    ASSERT_TRUE(m->setTaskAssociation(*t, 1, 1).ok());
    m->advance(30 * kMs);
    const std::uint32_t codeWays = m->waysOfL3Cbm(0xF0000), dataWays = m->waysOfL3Cbm(0x0000F);
    auto code = m->occupancyByWay(0, true), data = m->occupancyByWay(0, false);
    std::uint64_t codeTotal = 0, dataTotal = 0;
    for (std::uint32_t w = 0; w < code.size(); ++w) {
        if (!(codeWays & (1u << w))) {
            EXPECT_EQ(code[w], 0u) << "code line in way " << w;
        }
        if (!(dataWays & (1u << w))) {
            EXPECT_EQ(data[w], 0u) << "data line in way " << w;
        }
        codeTotal += code[w];
        dataTotal += data[w];
    }
    EXPECT_GT(codeTotal, 0u);
    EXPECT_GT(dataTotal, 0u);
}

// CBM bits map to ways as ways/cbm_len ways per bit.
TEST(CacheFidelity, CbmBitsMapToWays)
{
    auto skx = makeMachine(); // 11 ways, 11 bits: one way per bit
    EXPECT_EQ(skx->waysOfL3Cbm(0x7FF), 0x7FFu);
    EXPECT_EQ(skx->waysOfL3Cbm(0x00C), 0x00Cu);
    auto l2
        = makeMachine(MachineArgs { "skx-6154", 1, 1, 64, { { "l2_cat", 8 } } }); // 16-way L2, 8 bits: two ways per bit
    EXPECT_EQ(l2->waysOfL2Cbm(0x01), 0x0003u);
    EXPECT_EQ(l2->waysOfL2Cbm(0x80), 0xC000u);
    EXPECT_EQ(l2->waysOfL2Cbm(0x0F), 0x00FFu);
}

// L2 CAT: a CLOS confined to 2 of 8 L2 bits misses L2 more than with the whole L2.
TEST(CacheFidelity, L2CatConfinesL2)
{
    auto run = [](std::uint32_t mask) {
        auto m = makeMachine(MachineArgs { "skx-6154", 1, 1, 16, { { "l2_cat", 8 } } });
        m->setL2Mask(0, 1, mask);
        auto t = m->addThread("t", 0, spec(Pattern::Random, 768ull << 10, 50e6));
        EXPECT_TRUE(m->setTaskAssociation(*t, 1, 1).ok());
        m->advance(40 * kMs);
        auto st = m->thread(*t)->stats;
        return double(st.byLevel[1]) / double(st.accesses - st.byLevel[0]);
    };
    const double full = run(0xFF), quarter = run(0x03);
    EXPECT_GT(full, 0.6);
    EXPECT_LT(quarter, full * 0.6);
}

// Set sampling: the sampled model's miss ratio and occupancy agree with the full model (S = 1).
TEST(SetSampling, ErrorIsSmall)
{
    auto run = [](std::uint32_t s) {
        auto m = makeMachine(MachineArgs { "clx-5215", 1, 1, s, {} });
        const std::uint64_t ws = m->features().l3.sizeBytes() * 3 / 2;
        auto t = m->addThread("t", 0, spec(Pattern::Random, ws, 60e6));
        EXPECT_TRUE(m->setTaskAssociation(*t, 1, 1).ok());
        m->advance(40 * kMs);
        auto st = m->thread(*t)->stats;
        return std::make_pair(st.l3MissRatio(), double(m->occupancyBytes(0, 1)));
    };
    auto full = run(1);
    for (std::uint32_t s : { 16u, 64u }) {
        auto sampled = run(s);
        EXPECT_NEAR(sampled.first, full.first, 0.05 * full.first) << "S=" << s;
        EXPECT_NEAR(sampled.second, full.second, 0.05 * full.second) << "S=" << s;
    }
}

// Local/remote MBM: a workload whose memory is on the other socket adds to total but not to local bytes.
TEST(CacheFidelity, RemoteMemoryCountsInTotalOnly)
{
    auto cpuid = presetCpuid("skx-6154");
    SimOptions o;
    o.topology.sockets = 2;
    o.topology.coresPerSocket = 1;
    auto m = SimMachine::create(*cpuid, o);
    ASSERT_TRUE(m.ok());
    WorkloadSpec local = spec(Pattern::Stream, 1ull << 30), remote = local;
    remote.memoryNode = 1;
    auto a = (*m)->addThread("local", 0, local);
    auto b = (*m)->addThread("remote", 0, remote);
    ASSERT_TRUE((*m)->setTaskAssociation(*a, 1, 1).ok());
    ASSERT_TRUE((*m)->setTaskAssociation(*b, 1, 2).ok());
    (*m)->advance(10 * kMs);
    auto cl = (*m)->counters(0, 1), cr = (*m)->counters(0, 2);
    EXPECT_GT(cl.totalBytes, 0u);
    EXPECT_EQ(cl.localBytes, cl.totalBytes);
    EXPECT_GT(cr.totalBytes, 0u);
    EXPECT_EQ(cr.localBytes, 0u);
    EXPECT_EQ((*m)->access(0, 0x1000, AccessKind::Load).level, HitLevel::LocalDram);
}
