// SPDX-License-Identifier: GPL-3.0-or-later
// Every InstLatx64 dump decoded and compared with values worked out by hand from the SDM
// (20.18.5: CPUID.0FH; 20.19.4.2: CPUID.10H.01H; 20.19.4.4: CLOS width; CPUID.04H for cache sizes).
#include "TestData.h"

#include <algorithm>

using namespace rdt;
using namespace rdt::test;

namespace {

bool hasWarning(const CpuFeatures& f, const std::string& needle)
{
    return std::any_of(f.warnings.begin(), f.warnings.end(),
        [&](const std::string& w) { return w.find(needle) != std::string::npos; });
}

} // namespace

TEST(CpuidDecode, SkylakeSpGold6154)
{
    const CpuFeatures f = decodeDump(kSkylakeSP);
    EXPECT_EQ(f.identity.vendor, "GenuineIntel");
    EXPECT_EQ(f.identity.family, 0x06u);
    EXPECT_EQ(f.identity.model, 0x55u); // 0x50654: model 5 + ext model 5 << 4
    EXPECT_EQ(f.identity.stepping, 4u);
    EXPECT_EQ(f.identity.brand, "Intel(R) Xeon(R) Gold 6154 CPU @ 3.00GHz");
    EXPECT_FALSE(f.identity.hypervisor);

    // 0FH.00H = 00000000-0000008F-00000000-00000002; 0FH.01H = 00000000-00012000-0000008F-00000007
    EXPECT_TRUE(f.monitoring.supported);
    EXPECT_TRUE(f.monitoring.l3);
    EXPECT_TRUE(f.monitoring.l3DetailsKnown);
    EXPECT_EQ(f.monitoring.rmidCount(), 144u);
    EXPECT_EQ(f.monitoring.rmidFieldWidth, 8u); // Ceil(Log2(1 + 143))
    EXPECT_EQ(f.monitoring.upscalingFactor, 73728u);
    EXPECT_EQ(f.monitoring.counterWidth, 24u);
    EXPECT_TRUE(f.monitoring.occupancy);
    EXPECT_TRUE(f.monitoring.totalBandwidth);
    EXPECT_TRUE(f.monitoring.localBandwidth);
    EXPECT_FALSE(f.monitoring.overflowBit);

    // 10H.00H:EBX = 0xA (L3, MBA); 10H.01H = 0000000A-00000600-00000004-0000000F
    EXPECT_TRUE(f.allocation.supported);
    EXPECT_EQ(f.allocation.resourceBitmap, 0xAu);
    EXPECT_TRUE(f.allocation.l3.detailsKnown);
    EXPECT_EQ(f.allocation.l3.cbmLength, 11u);
    EXPECT_EQ(f.allocation.l3.cbmMask, 0x7FFu);
    EXPECT_EQ(f.allocation.l3.shareableBits, 0x600u);
    EXPECT_EQ(f.allocation.l3.closCount(), 16u);
    EXPECT_TRUE(f.allocation.l3.cdp); // ECX = 4: bit 2
    EXPECT_EQ(f.allocation.l3.closCountCdp(), 8u);
    EXPECT_FALSE(f.allocation.l3.nonContiguous);
    EXPECT_FALSE(f.allocation.l2.present);
    EXPECT_TRUE(f.allocation.mba.present);
    EXPECT_FALSE(f.allocation.mba.detailsKnown); // the dump lacks 10H.03H
    EXPECT_TRUE(hasWarning(f, "CPUID.(EAX=10H,ECX=3) missing"));
    EXPECT_EQ(f.allocation.closFieldWidth, 4u);

    // 04H.03H = 7C0FC163-0280003F-00008FFF: 11 ways x 36864 sets x 64 B = 24.75 MiB; / 11 bits = 2.25 MiB
    const CacheInfo* l3 = f.cache(3);
    ASSERT_NE(l3, nullptr);
    EXPECT_EQ(l3->ways, 11u);
    EXPECT_EQ(l3->sets, 36864u);
    EXPECT_EQ(l3->sizeBytes(), 25952256u);
    EXPECT_EQ(f.allocation.l3.bytesPerCbmBit, 2359296u);

    // 0AH = 07300404-00000000-00000000-00000603
    EXPECT_EQ(f.perfmon.version, 4u);
    EXPECT_EQ(f.perfmon.gpCounters, 4u);
    EXPECT_EQ(f.perfmon.gpWidth, 48u);
    EXPECT_EQ(f.perfmon.fixedCounters, 3u);
    EXPECT_EQ(f.perfmon.fixedWidth, 48u);
    EXPECT_EQ(f.perfmon.availableEvents().size(), 7u);
    EXPECT_FALSE(f.archLbr.supported);
    EXPECT_TRUE(f.archPerfmonExtKnown); // 07H.00H:EAX = 0: no sub-leaf 1, so no ARCH_PERFMON_EXT
    EXPECT_FALSE(f.perfmonExt.supported);
    EXPECT_TRUE(f.hasRdt());
}

TEST(CpuidDecode, CascadeLakeGold5215)
{
    const CpuFeatures f = decodeDump(kCascadeLake);
    EXPECT_EQ(f.identity.model, 0x55u);
    EXPECT_EQ(f.identity.stepping, 7u);
    EXPECT_EQ(f.monitoring.upscalingFactor, 40960u); // 0FH.01H:EBX = 0xA000
    EXPECT_EQ(f.monitoring.rmidCount(), 80u); // ECX = 0x4F
    EXPECT_EQ(f.monitoring.rmidFieldWidth, 7u);
    EXPECT_EQ(f.monitoring.counterWidth, 24u);
    EXPECT_EQ(f.allocation.l3.cbmMask, 0x7FFu);
    EXPECT_EQ(f.allocation.l3.shareableBits, 0x600u);
    EXPECT_EQ(f.allocation.l3.closCount(), 16u);
    EXPECT_TRUE(f.allocation.l3.cdp);
    EXPECT_TRUE(f.allocation.mba.present);
    // 04H.03H = 3C07C163-0280003F-00004FFF: 11 x 20480 x 64 = 14080 KiB
    ASSERT_NE(f.cache(3), nullptr);
    EXPECT_EQ(f.cache(3)->sizeBytes(), 14080u * 1024u);
    EXPECT_EQ(f.allocation.l3.bytesPerCbmBit, 1310720u);
}

TEST(CpuidDecode, IceLakeSp8351N)
{
    const CpuFeatures f = decodeDump(kIceLakeSP);
    EXPECT_EQ(f.identity.model, 0x6Au);
    // 0FH.01H = 00000008-00012000-0000011F-00000007
    EXPECT_EQ(f.monitoring.counterWidth, 32u); // 24 + 8
    EXPECT_EQ(f.monitoring.rmidCount(), 288u);
    EXPECT_EQ(f.monitoring.rmidFieldWidth, 9u);
    EXPECT_EQ(f.monitoring.upscalingFactor, 73728u);
    // 10H.01H = 0000000B-00000C00-00000000-0000000E
    EXPECT_EQ(f.allocation.l3.cbmLength, 12u);
    EXPECT_EQ(f.allocation.l3.cbmMask, 0xFFFu);
    EXPECT_EQ(f.allocation.l3.shareableBits, 0xC00u);
    EXPECT_EQ(f.allocation.l3.closCount(), 15u);
    EXPECT_FALSE(f.allocation.l3.cdp); // ECX = 0
    EXPECT_EQ(f.allocation.l3.closCountCdp(), 0u);
    EXPECT_EQ(f.allocation.closFieldWidth, 4u); // Ceil(Log2(14 + 1))
    EXPECT_TRUE(f.allocation.mba.present);
    // 04H.03H = FC1FC163-02C0003F-00011FFF: 12 x 73728 x 64 = 54 MiB, 4.5 MiB per CBM bit
    ASSERT_NE(f.cache(3), nullptr);
    EXPECT_EQ(f.cache(3)->sizeBytes(), 54u * 1024u * 1024u);
    EXPECT_EQ(f.allocation.l3.bytesPerCbmBit, 4718592u);
    // 0AH = 08300805-00000000-0000000F-00008604: v5, 8 GP, 4 fixed, AnyThread deprecated, Topdown slots
    EXPECT_EQ(f.perfmon.version, 5u);
    EXPECT_EQ(f.perfmon.gpCounters, 8u);
    EXPECT_EQ(f.perfmon.fixedCounters, 4u);
    EXPECT_EQ(f.perfmon.fixedBitmap, 0xFu);
    EXPECT_TRUE(f.perfmon.anyThreadDeprecated);
    EXPECT_EQ(f.perfmon.availableEvents().size(), 8u);
    EXPECT_EQ(f.perfmon.availableEvents().back(), "Topdown Slots");
    EXPECT_TRUE(f.perfmon.fixedCounterSupported(3));
    EXPECT_FALSE(f.perfmon.fixedCounterSupported(4));
    EXPECT_FALSE(f.archLbr.supported); // 07H.00H:EDX = BC040412: bit 19 clear
}

TEST(CpuidDecode, BroadwellE6850K)
{
    const CpuFeatures f = decodeDump(kBroadwellE);
    EXPECT_EQ(f.identity.model, 0x4Fu);
    EXPECT_EQ(f.monitoring.rmidCount(), 48u);
    EXPECT_EQ(f.monitoring.upscalingFactor, 24576u);
    EXPECT_TRUE(f.monitoring.totalBandwidth);
    EXPECT_EQ(f.allocation.resourceBitmap, 0x2u); // L3 only
    EXPECT_EQ(f.allocation.l3.cbmLength, 20u);
    EXPECT_EQ(f.allocation.l3.cbmMask, 0xFFFFFu);
    EXPECT_EQ(f.allocation.l3.shareableBits, 0xC0000u);
    EXPECT_EQ(f.allocation.l3.closCount(), 16u);
    EXPECT_TRUE(f.allocation.l3.cdp);
    EXPECT_FALSE(f.allocation.mba.present);
    EXPECT_EQ(f.allocation.closFieldWidth, 4u);
    // 04H.03H = 1C03C163-04C0003F-00002FFF: 20 x 12288 x 64 = 15 MiB, 768 KiB per bit
    ASSERT_NE(f.cache(3), nullptr);
    EXPECT_EQ(f.cache(3)->sizeBytes(), 15u * 1024u * 1024u);
    EXPECT_EQ(f.allocation.l3.bytesPerCbmBit, 786432u);
    EXPECT_FALSE(hasWarning(f, "CLOS field width")); // every enumerated resource was decoded
}

TEST(CpuidDecode, HaswellEpCmtOnly)
{
    const CpuFeatures f = decodeDump(kHaswellEP);
    EXPECT_EQ(f.identity.model, 0x3Fu);
    EXPECT_TRUE(f.monitoring.supported);
    EXPECT_EQ(f.monitoring.rmidCount(), 72u);
    EXPECT_EQ(f.monitoring.rmidFieldWidth, 7u);
    EXPECT_TRUE(f.monitoring.occupancy);
    EXPECT_FALSE(f.monitoring.totalBandwidth); // 0FH.01H:EDX = 1
    EXPECT_FALSE(f.monitoring.localBandwidth);
    EXPECT_FALSE(f.allocation.supported); // 07H.00H:EBX = 3FBB: bit 15 clear
    EXPECT_EQ(f.allocation.l3.closCount(), 0u);
    ASSERT_NE(f.cache(3), nullptr);
    EXPECT_EQ(f.cache(3)->sizeBytes(), 45u * 1024u * 1024u);
    EXPECT_TRUE(f.hasRdtMonitoring());
    EXPECT_FALSE(f.hasRdtAllocation());
}

TEST(CpuidDecode, XeonD1718TNoRdt)
{
    const CpuFeatures f = decodeDump(kXeonD1718T);
    // 07H.00H:EBX = F3BFBFB9 sets bits 12 and 15, but 0FH and 10H are all zero.
    EXPECT_TRUE(f.monitoring.supported);
    EXPECT_FALSE(f.monitoring.l3);
    EXPECT_EQ(f.monitoring.rmidCount(), 0u);
    EXPECT_EQ(f.allocation.resourceBitmap, 0u);
    EXPECT_EQ(f.allocation.l3.closCount(), 0u);
    EXPECT_FALSE(f.hasRdt());
    EXPECT_TRUE(f.identity.hypervisor); // the "01v" dump was taken in a VM
    EXPECT_TRUE(hasWarning(f, "no monitoring resource enumerated"));
    EXPECT_TRUE(hasWarning(f, "no allocation resource"));
}

TEST(CpuidDecode, EveryLogicalCpuAgreesOnRdt)
{
    // SDM Table 20-23: leaves 0FH and 10H give the same values on every logical processor.
    const CpuFeatures cpu0 = decodeDump(kSkylakeSP, 0);
    const CpuFeatures cpu5 = decodeDump(kSkylakeSP, 5);
    EXPECT_EQ(cpu5.source.find("logical CPU #5") != std::string::npos, true);
    EXPECT_EQ(cpu0.monitoring.rmidCount(), cpu5.monitoring.rmidCount());
    EXPECT_EQ(cpu0.allocation.l3.cbmMask, cpu5.allocation.l3.cbmMask);
}

TEST(CpuidDecode, CeilLog2)
{
    EXPECT_EQ(ceilLog2(0), 0u);
    EXPECT_EQ(ceilLog2(1), 0u);
    EXPECT_EQ(ceilLog2(2), 1u);
    EXPECT_EQ(ceilLog2(15), 4u);
    EXPECT_EQ(ceilLog2(16), 4u);
    EXPECT_EQ(ceilLog2(17), 5u);
    EXPECT_EQ(ceilLog2(144), 8u);
    EXPECT_EQ(ceilLog2(288), 9u);
}

namespace {

/// A synthetic CPU that enumerates everything no InstLatx64 dump has: L2 CAT with CDP, MBA and CBA sub-leaves,
/// architectural LBR (1CH) and ARCH_PERFMON_EXT (23H). Values chosen by hand from the SDM bit layouts.
CpuidTable everythingCpu()
{
    CpuidTable t("synthetic");
    t.set(0, 0, { 0x23, 0x756E6547, 0x6C65746E, 0x49656E69 }, false); // GenuineIntel, max leaf 23H
    t.set(1, 0, { 0x000806F8, 0, 0, 0 }, false); // family 6, model 8FH, stepping 8
    t.set(4, 0, { 0, 0, 0, 0 }); // no cache described: type 0 ends the list
    t.set(7, 0, { 1, (1U << 12) | (1U << 15), 0, 1U << 19 });
    t.set(7, 1, { 1U << 8, 0, 0, 0 });
    t.set(0x0A, 0, { 0x08300805, 0, 0xF, 0x8604 }, false);
    t.set(0x0F, 0, { 0, 0xEF, 0, 2 });
    t.set(0x0F, 1, { 0x108, 0xC000, 0xEF, 7 }); // 32-bit MBM + overflow bit
    t.set(0x10, 0, { 0, 0x2E, 0, 0 }); // L3, L2, MBA, CBA
    t.set(0x10, 1, { 0xE, 0x6000, 0x4, 0xF }); // 15-bit CBM, 16 CLOS, CDP
    t.set(0x10, 2, { 0xF, 0, 0xC, 0x1F }); // 16-bit L2 CBM, CDP + non-contiguous, 32 CLOS
    t.set(0x10, 3, { 0x59, 0, 0x5, 0x7 }); // MBA 90 max, per-thread, linear, 8 CLOS
    t.set(0x10, 5, { 0x10F, 0, 0x8, 0x7 }); // CBA max level 15, thread scope, linear, 8 CLOS
    t.set(0x1C, 0, { 0x80000088, 0x7, 0x000F0007, 0 }, false);
    t.set(0x23, 0, { 0xB, 0, 6, 0 });
    t.set(0x23, 1, { 0xFF, 0x77, 0, 0 });
    t.set(0x23, 3, { 0x1FFF, 0, 0, 0 });
    return t;
}

} // namespace

TEST(CpuidDecode, SyntheticCpuWithEveryLeaf)
{
    CpuidTable t = everythingCpu();
    const CpuFeatures f = decodeCpuFeatures(t);
    EXPECT_TRUE(f.warnings.empty()) << f.warnings.front();
    EXPECT_EQ(f.identity.model, 0x8Fu);
    EXPECT_EQ(f.monitoring.counterWidth, 32u);
    EXPECT_TRUE(f.monitoring.overflowBit);
    EXPECT_EQ(f.monitoring.rmidCount(), 240u);

    EXPECT_EQ(f.allocation.l3.cbmMask, 0x7FFFu);
    EXPECT_EQ(f.allocation.l3.shareableBits, 0x6000u);
    EXPECT_TRUE(f.allocation.l2.detailsKnown);
    EXPECT_EQ(f.allocation.l2.cbmMask, 0xFFFFu);
    EXPECT_TRUE(f.allocation.l2.cdp);
    EXPECT_TRUE(f.allocation.l2.nonContiguous);
    EXPECT_FALSE(f.allocation.l2.nonCpuAgent); // ECX[1] is L3-only
    EXPECT_EQ(f.allocation.l2.closCount(), 32u);
    EXPECT_EQ(f.allocation.l2.closCountCdp(), 16u);
    EXPECT_EQ(f.allocation.mba.maxThrottle, 90u);
    EXPECT_EQ(f.allocation.mba.granularity(), 10u);
    EXPECT_TRUE(f.allocation.mba.perThread);
    EXPECT_EQ(f.allocation.mba.closCount(), 8u);
    EXPECT_TRUE(f.allocation.cba.detailsKnown);
    EXPECT_EQ(f.allocation.cba.maxLevel, 15u);
    EXPECT_EQ(f.allocation.cba.scope, 1u);
    EXPECT_TRUE(f.allocation.cba.linear);
    EXPECT_EQ(f.allocation.cba.closCount(), 8u);
    // 20.19.4.4: CLOS_MAX = max(15, 31, 7, 7) = 31, width Ceil(Log2(32)) = 5.
    EXPECT_EQ(f.allocation.closMax, 31u);
    EXPECT_EQ(f.allocation.closFieldWidth, 5u);

    EXPECT_TRUE(f.archLbr.supported);
    EXPECT_EQ(f.archLbr.depths(), (std::vector<unsigned> { 32, 64 }));
    EXPECT_TRUE(f.archLbr.lipValues);
    EXPECT_TRUE(f.archLbr.cplFiltering);
    EXPECT_TRUE(f.archLbr.branchFiltering);
    EXPECT_TRUE(f.archLbr.callStackMode);
    EXPECT_TRUE(f.archLbr.mispredictBit);
    EXPECT_TRUE(f.archLbr.timedLbr);
    EXPECT_TRUE(f.archLbr.branchTypeField);
    EXPECT_EQ(f.archLbr.eventLoggingBitmap, 0xFu);

    EXPECT_TRUE(f.perfmonExt.supported);
    EXPECT_EQ(f.perfmonExt.subleafBitmap, 0xBu);
    EXPECT_EQ(f.perfmonExt.tmaSlotsPerCycle, 6u);
    EXPECT_EQ(f.perfmonExt.gpBitmap, 0xFFu);
    EXPECT_EQ(f.perfmonExt.fixedBitmap, 0x77u);
    EXPECT_EQ(f.perfmonExt.eventBitmap, 0x1FFFu);
}

TEST(CpuidDecode, ImplausibleMbaAndCbaSubleavesAreRejected)
{
    CpuidTable t = everythingCpu();
    t.set(0x10, 3, { 0x1F3, 0, 0x4, 0x7 }); // max throttle 500%: impossible
    t.set(0x10, 5, { 0x10F, 0, 0x1, 0x7 }); // ECX[0] reserved
    const CpuFeatures f = decodeCpuFeatures(t);
    EXPECT_TRUE(f.allocation.mba.present);
    EXPECT_FALSE(f.allocation.mba.detailsKnown);
    EXPECT_FALSE(f.allocation.cba.detailsKnown);
    EXPECT_TRUE(hasWarning(f, "CPUID.(EAX=10H,ECX=3) = 000001F3"));
    EXPECT_TRUE(hasWarning(f, "CPUID.(EAX=10H,ECX=5)"));
    EXPECT_TRUE(hasWarning(f, "CLOS field width computed without every enumerated resource"));
}

TEST(CpuidDecode, EmptySourceDecodesToNothingWithAWarning)
{
    CpuidTable empty;
    const CpuFeatures f = decodeCpuFeatures(empty);
    EXPECT_FALSE(f.hasRdt());
    ASSERT_EQ(f.warnings.size(), 1u);
    EXPECT_NE(f.warnings[0].find("nothing can be decoded"), std::string::npos);
}
