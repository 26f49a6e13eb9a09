// SPDX-License-Identifier: GPL-3.0-or-later
// The epyc-genoa preset: what it enumerates, and the cache model's fidelity on it (the same checks as
// test_cache_fidelity.cpp runs on the Intel presets), with one L3 domain per CCX and MBA in 1/8 GB/s.
#include "SimTestUtil.h"

#include <cmath>

using namespace rdt::sim;
using namespace rdt::sim::test;

namespace {
/// Two CCX of 8 cores on one socket, as the preset describes them.
MachineArgs genoa(unsigned cores = 16)
{
    MachineArgs a;
    a.preset = "epyc-genoa";
    a.cores = cores;
    a.coresPerL3 = 8;
    return a;
}
} // namespace

TEST(EpycPreset, DecodesAsAnAmdMachine)
{
    const PresetInfo* info = presetInfo("epyc-genoa");
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->coresPerL3, 8u);
    auto cpuid = presetCpuid("epyc-genoa");
    ASSERT_TRUE(cpuid.ok());
    EXPECT_FALSE(cpuid->notes.empty()) << "the preset must say it was written, not dumped";
    const SimFeatures f = decodeFeatures(*cpuid);
    EXPECT_TRUE(f.amd);
    EXPECT_EQ(f.brand, "AMD EPYC 9654 96-Core Processor");
    EXPECT_EQ(f.l3.sizeBytes(), 32u << 20); // one CCX's L3, from 8000001DH.3
    EXPECT_EQ(f.l3.ways, 16u);
    EXPECT_EQ(f.l3SharingThreads, 16u);
    EXPECT_EQ(f.l3Cat.cbmLen, 16u);
    EXPECT_EQ(f.l3Cat.numClos, 16u);
    EXPECT_TRUE(f.l3Cat.sparse); // the kernel allows any CBM on AMD
    EXPECT_TRUE(f.mba.present);
    EXPECT_TRUE(f.mba.absolute());
    EXPECT_EQ(f.mba.maxBandwidth, 2048u);
    EXPECT_EQ(f.mba.numClos, 16u);
    EXPECT_EQ(f.mon.l3MaxRmid + 1, 256u);
    EXPECT_EQ(f.mon.counterWidth, 44u); // MBM_CNTR_WIDTH_OFFSET_AMD
    EXPECT_TRUE(f.amdMon.bmec);
    EXPECT_EQ(f.amdMon.bmecValidBits, 0x7fu);
    EXPECT_EQ(f.amdMon.abmcCounters, 8u);
}

TEST(EpycPreset, OneL3DomainPerCcx)
{
    auto m = makeMachine(genoa(32));
    EXPECT_EQ(m->l3DomainCount(), 4u);
    EXPECT_EQ(m->l3DomainOfCpu(7), 0u);
    EXPECT_EQ(m->l3DomainOfCpu(8), 1u);
    EXPECT_EQ(m->l3DomainOfCpu(31), 3u);
}

// CMT (cmt_test.c) on the second CCX: occupancy within 15% of the confined span, in that CCX's domain only.
TEST(EpycPreset, CmtOccupancyInTheThreadsCcx)
{
    auto m = makeMachine(genoa());
    const auto& f = m->features();
    const unsigned n = 6;
    const std::uint64_t span = f.l3.sizeBytes() * n / f.l3Cat.cbmLen;
    m->setL3Mask(1, 1, (1u << n) - 1);
    auto tid = m->addThread("fill_buf", 9, spec(Pattern::Stream, span));
    ASSERT_TRUE(tid.ok());
    ASSERT_TRUE(m->setTaskAssociation(*tid, 1, 1).ok());
    m->advance(40 * kMs);
    EXPECT_NEAR(double(m->occupancyBytes(1, 1)), double(span), 0.15 * double(span));
    EXPECT_EQ(m->occupancyBytes(0, 1), 0u) << "the other CCX's L3 holds none of it";
}

// A sparse CBM (f00f: 8 of 16 ways, split in two runs) confines fills to exactly those ways.
TEST(EpycPreset, SparseMaskConfinesFills)
{
    auto m = makeMachine(genoa());
    const auto& f = m->features();
    m->setL3Mask(0, 1, 0xf00f);
    auto tid = m->addThread("fill_buf", 0, spec(Pattern::Stream, f.l3.sizeBytes()));
    ASSERT_TRUE(tid.ok());
    ASSERT_TRUE(m->setTaskAssociation(*tid, 1, 1).ok());
    m->advance(60 * kMs);
    auto byWay = m->occupancyByClosAndWay(0);
    std::uint64_t inMask = 0;
    for (std::uint32_t w = 0; w < m->l3Ways(); ++w) {
        const bool allowed = (0xf00fu >> w) & 1;
        if (!allowed) {
            EXPECT_EQ(byWay[1][w], 0u) << "way " << w;
        }
        if (allowed) inMask += byWay[1][w];
    }
    EXPECT_NEAR(double(inMask), double(f.l3.sizeBytes()) / 2, 0.15 * double(f.l3.sizeBytes()) / 2);
}

// AMD MBA: the bandwidth lands within 10% of min(unthrottled, limit x 1/8 GB/s) and falls with the limit.
TEST(EpycPreset, MbaLimitsInEighthsOfAGBps)
{
    auto m = makeMachine(genoa());
    auto tid = m->addThread("hog", 0, spec(Pattern::Stream, 1ull << 30));
    ASSERT_TRUE(tid.ok());
    ASSERT_TRUE(m->setTaskAssociation(*tid, 1, 1).ok());
    EXPECT_EQ(m->mbaDelay(0, 1), 2048u) << "reset value: unlimited";
    double unthrottled = 0, previous = 0;
    for (std::uint32_t limit : { 2048u, 64u, 32u, 16u, 8u }) {
        m->setMbaDelay(0, 1, limit);
        m->advance(5 * kMs);
        const std::uint64_t before = m->counters(0, 1).totalBytes;
        m->advance(40 * kMs);
        const double bw = double(m->counters(0, 1).totalBytes - before) / 0.040;
        if (limit == 2048) {
            unthrottled = bw;
        } else {
            const double target = std::min(unthrottled, double(limit) * 125e6);
            EXPECT_NEAR(bw, target, 0.10 * target) << "limit " << limit;
            EXPECT_LT(bw, previous) << "limit " << limit;
        }
        previous = bw;
    }
}

// The limit is the CLOS's in the L3 domain: two cores of one CLOS on a CCX share it; a core on another CCX has
// its own.
TEST(EpycPreset, MbaLimitIsSharedWithinTheCcx)
{
    auto m = makeMachine(genoa());
    std::vector<int> tids;
    for (unsigned cpu : { 0u, 1u, 8u }) {
        auto tid = m->addThread("hog", cpu, spec(Pattern::Stream, 1ull << 30));
        ASSERT_TRUE(tid.ok());
        ASSERT_TRUE(m->setTaskAssociation(*tid, 1, 1).ok());
        tids.push_back(*tid);
    }
    for (unsigned d = 0; d < 2; ++d)
        m->setMbaDelay(d, 1, 16); // 2 GB/s per CCX
    m->advance(5 * kMs);
    const std::uint64_t before0 = m->counters(0, 1).totalBytes, before1 = m->counters(1, 1).totalBytes;
    m->advance(40 * kMs);
    const double ccx0 = double(m->counters(0, 1).totalBytes - before0) / 0.040;
    const double ccx1 = double(m->counters(1, 1).totalBytes - before1) / 0.040;
    EXPECT_NEAR(ccx0, 2e9, 0.2e9) << "two cores share CCX 0's 2 GB/s";
    EXPECT_NEAR(ccx1, 2e9, 0.2e9) << "one core has CCX 1's 2 GB/s";
}
