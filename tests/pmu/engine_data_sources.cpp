// SPDX-License-Identifier: GPL-3.0-or-later
// perf_mem_data_src of newer CPUs (docs/PMU.md "PEBS load latency"): Linux 7.0's mem_region (5 bits at shift 46,
// Diamond Rapids), the values perf synthesizes for Arm SPE (mem_lvl_num ANY_CACHE) and for AMD IBS op samples,
// each written here bit by bit from the uapi layout and decoded into the load-latency tables.
#include "pmu/DataSource.h"
#include "pmu/LoadLatency.h"
#include "pmu/Symbolizer.h"

#include <gtest/gtest.h>

using namespace rdt::pmu;

namespace {

Sample load(std::uint64_t dataSrc, std::uint32_t latency)
{
    Sample s;
    s.present = perf::SampleIp | perf::SampleTid | perf::SampleAddr | perf::SampleWeightStruct | perf::SampleDataSrc;
    s.pid = 9;
    s.ip = 0x1000;
    s.addr = 0x7f0000001000;
    s.weight.var1 = latency;
    s.dataSrc = dataSrc;
    return s;
}

// PERF_MEM_OP_LOAD (2) | PERF_MEM_LVLNUM_x << 33 | PERF_MEM_REGION_x << 46, nothing else.
constexpr std::uint64_t loadAt(std::uint64_t lvlNum, std::uint64_t region)
{
    return 2u | (lvlNum << 33) | (region << 46);
}

} // namespace

TEST(DataSources, MemRegionIsFiveBitsAtShift46)
{
    EXPECT_EQ(DataSource::decode(loadAt(0x3, 0x02)).region, DataSource::RegionLocalShare);
    EXPECT_EQ(DataSource::decode(loadAt(0x3, 0x1f)).region, 0x1f);
    EXPECT_EQ(DataSource::decode(1ull << 51).region, 0) << "bit 51 is mem_rsvd, not region";
    EXPECT_EQ(DataSource::decode(0x7ull << 43).region, 0) << "hops stay hops";
    EXPECT_EQ(DataSource::decode(loadAt(0xd, 0x0b)).level(), MemLevel::LocalDram);
    const auto raw = DataSource::encode(DataSource::OpLoad, 0, 0, 0, 0, DataSource::LvlNumRam, false, 0, 0, 0, 0x0c);
    EXPECT_EQ(raw, loadAt(0xd, 0x0c));
    EXPECT_EQ(memRegionName(DataSource::RegionLocalShare), "local shared cache");
    EXPECT_EQ(memRegionName(DataSource::RegionOtherIo), "other agent's IO");
    EXPECT_EQ(memRegionName(DataSource::RegionMmio), "MMIO");
    EXPECT_EQ(memRegionName(DataSource::RegionMem0), "memory region 0");
    EXPECT_EQ(memRegionName(DataSource::RegionMem7), "memory region 7");
    EXPECT_EQ(memRegionName(0x10), "region 16");
    EXPECT_NE(
        DataSource::decode(loadAt(0x3, DataSource::RegionMmio)).describe().find("|REGION MMIO"), std::string::npos);
    EXPECT_EQ(DataSource::decode(loadAt(0x3, 0)).describe().find("REGION"), std::string::npos);
}

TEST(DataSources, LoadLatencyCountsRegionsAndAnyCache)
{
    Symbolizer sym;
    LoadLatency ll;
    ll.add(load(loadAt(0x3, DataSource::RegionLocalShare), 40));
    ll.add(load(loadAt(0x3, DataSource::RegionLocalShare), 42));
    ll.add(load(loadAt(0xd, DataSource::RegionMem0 + 2), 300));
    ll.add(load(loadAt(0xb, 0), 60)); // Arm SPE: "a cache", no region
    ll.add(load(loadAt(0x1, 0), 5));
    const auto r = ll.report(sym);
    EXPECT_EQ(r.total.count, 5u);
    EXPECT_EQ(r.byRegion[DataSource::RegionLocalShare], 2u);
    EXPECT_EQ(r.byRegion[DataSource::RegionMem0 + 2], 1u);
    EXPECT_EQ(r.byRegion[0], 2u);
    EXPECT_EQ(r.anyCache, 1u);
    EXPECT_EQ(r.total.byLevel[static_cast<std::size_t>(MemLevel::L3)], 3u);
    ll.clear();
    EXPECT_EQ(ll.report(sym).byRegion[DataSource::RegionLocalShare], 0u);
}

TEST(DataSources, SpeAndIbsSynthesizedSources)
{
    // perf's arm-spe decoder (util/arm-spe.c, arm_spe__synth_data_source) and the kernel's IBS op path
    // (arch/x86/events/amd/ibs.c, perf_ibs_get_data_src) fill the same union; a few of their combinations:
    // SPE L1 hit: op LOAD, lvl L1|HIT, lvl_num L1
    EXPECT_EQ(DataSource::decode(2u | (0x0aull << 5) | (0x1ull << 33)).level(), MemLevel::L1);
    // SPE remote: lvl_num ANY_CACHE + remote + hops 2 (another node on the socket)
    const auto remote = DataSource::decode(2u | (0xbull << 33) | (1ull << 37) | (2ull << 43));
    EXPECT_EQ(remote.level(), MemLevel::RemoteCache);
    EXPECT_EQ(remote.hops, 2);
    // IBS: DRAM, remote hops 1 -> remote DRAM; IO -> IO
    EXPECT_EQ(DataSource::decode(2u | (0xdull << 33) | (1ull << 37) | (1ull << 43)).level(), MemLevel::RemoteDram);
    EXPECT_EQ(DataSource::decode(2u | (0xaull << 33)).level(), MemLevel::Io);
}
