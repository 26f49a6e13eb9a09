// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl dialects beyond the first Intel one (tests/data/resctrl/README.md): AMD MBA/SMBA in 1/8 GB/s, BMEC,
// assignable counters, io_alloc, Intel SNC sub-domains, mba_MBps and PERF_PKG_MON, plus the small file formats.
#include "TestTree.h"
#include "rdt/AllocationRules.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Sample.h"
#include "rdt/Sampler.h"
#include "rdt/VendorFeaturesText.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace rdt;
using rdt::test::TempTree;

namespace {
std::unique_ptr<ResctrlBackend> openTree(const TempTree& t)
{
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    EXPECT_TRUE(b.ok()) << (b ? "" : b.error().toString());
    return b ? std::move(*b) : nullptr;
}

std::string readFile(const std::string& path)
{
    std::ifstream f(path);
    return { std::istreambuf_iterator<char>(f), {} };
}

const CounterReading* domainOf(const GroupCounters& g, int d)
{
    for (const auto& r : g.domains)
        if (r.domain == d) return &r;
    return nullptr;
}
}

TEST(ResctrlFormats, DomainValueListsPaddedHexAndBroken)
{
    struct Case {
        const char* text;
        int base;
        std::vector<DomainValue> want;
        bool ok;
    } cases[] = {
        { "0=32;1=32\n", 10, { { 0, 32 }, { 1, 32 } }, true },
        { "0=  30;1= 2;", 10, { { 0, 30 }, { 1, 2 } }, true },
        { "0=0x7f;1=0x7f;2=0x7f;3=0x7f", 10, { { 0, 0x7f }, { 1, 0x7f }, { 2, 0x7f }, { 3, 0x7f } }, true },
        { "0=0x15;1=0x15;3=0x15;4=0x15", 10, { { 0, 0x15 }, { 1, 0x15 }, { 3, 0x15 }, { 4, 0x15 } }, true },
        { "0=c000;1=ffff", 16, { { 0, 0xc000 }, { 1, 0xffff } }, true },
        { "", 10, {}, true },
        { "0=32;x=1", 10, {}, false },
        { "0=", 10, {}, false },
        { "0=12abc", 10, {}, false },
        { "-1=3", 10, {}, false },
    };
    for (const auto& c : cases) {
        auto r = parseDomainValues(c.text, c.base);
        ASSERT_EQ(r.ok(), c.ok) << c.text;
        if (c.ok) {
            EXPECT_EQ(*r, c.want) << c.text;
        }
    }
}

TEST(ResctrlFormats, BmecBitsAreTheEventFilterNames)
{
    // resctrl.rst: 0x33 = "count only reads" (bits 0, 1, 4, 5); 0x15 = the local events; 0x7f = everything.
    EXPECT_EQ(bmecTransactionNames(0x33),
        (std::vector<std::string> {
            "local_reads", "remote_reads", "local_reads_slow_memory", "remote_reads_slow_memory" }));
    EXPECT_EQ(bmecTransactionNames(0x15),
        (std::vector<std::string> { "local_reads", "local_non_temporal_writes", "local_reads_slow_memory" }));
    EXPECT_EQ(bmecTransactionNames(0x7f).size(), 7u);
    EXPECT_TRUE(bmecTransactionNames(0).empty());
    EXPECT_EQ(*bmecMaskFromNames("local_reads, local_non_temporal_writes"), 0x5u);
    EXPECT_EQ(*bmecMaskFromNames("local_reads,remote_reads,local_non_temporal_writes,remote_non_temporal_writes,"
                                 "local_reads_slow_memory,remote_reads_slow_memory,dirty_victim_writes_all"),
        0x7fu);
    auto bad = bmecMaskFromNames("local_reads,remote_writes");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("remote_writes"), std::string::npos);
}

TEST(ResctrlFormats, AssignModesAndAssignments)
{
    auto m = parseAssignModes("[mbm_event]\ndefault\n");
    EXPECT_EQ(m.active, "mbm_event");
    EXPECT_EQ(m.all, (std::vector<std::string> { "mbm_event", "default" }));
    EXPECT_EQ(parseAssignModes("mbm_event\n[default]\n").active, "default");
    EXPECT_EQ(parseAssignModes("").active, "");

    auto a = parseCounterAssignments("  mbm_total_bytes:0=_;1=e\n  mbm_local_bytes:0=e;1=e\n");
    ASSERT_TRUE(a.ok());
    ASSERT_EQ(a->size(), 2u);
    EXPECT_EQ((*a)[0].event, "mbm_total_bytes");
    EXPECT_FALSE((*a)[0].assigned(0));
    EXPECT_TRUE((*a)[0].assigned(1));
    EXPECT_FALSE((*a)[0].assigned(7)); // no such domain
    EXPECT_FALSE(parseCounterAssignments("mbm_total_bytes:0=ee").ok());
    EXPECT_FALSE(parseCounterAssignments(":0=e").ok());
    EXPECT_EQ(formatAssignmentCommand("mbm_total_bytes", -1, false), "mbm_total_bytes:*=_");
    EXPECT_EQ(formatAssignmentCommand("mbm_local_bytes", 3, true), "mbm_local_bytes:3=e");
}

TEST(BandwidthUnits, FormatAndParseInTheVendorsUnit)
{
    ResourceCaps amd;
    amd.name = "MB";
    amd.kind = ResourceKind::Bandwidth;
    amd.bandwidthUnit = BandwidthUnit::EighthGBps;
    amd.maxBandwidth = 2048;
    EXPECT_EQ(formatBandwidth(amd, 16), "2 GB/s");
    EXPECT_EQ(formatBandwidth(amd, 1), "0.125 GB/s");
    EXPECT_EQ(formatBandwidth(amd, 20), "2.5 GB/s");
    EXPECT_EQ(formatBandwidth(amd, 2048), "unlimited");
    EXPECT_EQ(*parseBandwidthInput(amd, "2GB/s"), 16u);
    EXPECT_EQ(*parseBandwidthInput(amd, " 2.5 GB/s "), 20u);
    EXPECT_EQ(*parseBandwidthInput(amd, "64"), 64u);
    EXPECT_FALSE(parseBandwidthInput(amd, "50%").ok()); // a percentage on AMD is the classic mistake
    EXPECT_FALSE(parseBandwidthInput(amd, "0.1GB/s").ok()); // not a multiple of 1/8 GB/s
    EXPECT_FALSE(parseBandwidthInput(amd, "fast").ok());

    ResourceCaps intel;
    intel.name = "MB";
    intel.kind = ResourceKind::Bandwidth;
    intel.minBandwidth = 10;
    intel.bandwidthGran = 10;
    EXPECT_EQ(formatBandwidth(intel, 50), "50 %");
    EXPECT_EQ(*parseBandwidthInput(intel, "50%"), 50u);
    EXPECT_FALSE(parseBandwidthInput(intel, "2GB/s").ok());

    ResourceCaps mbps = intel;
    mbps.bandwidthUnit = BandwidthUnit::MiBps;
    EXPECT_EQ(formatBandwidth(mbps, 4294967295u), "unlimited");
    EXPECT_EQ(formatBandwidth(mbps, 2048), "2048 MiB/s");
    EXPECT_EQ(*parseBandwidthInput(mbps, "1024 MiB/s"), 1024u);
    for (auto u :
        { BandwidthUnit::Percent, BandwidthUnit::MiBps, BandwidthUnit::EighthGBps, BandwidthUnit::ThrottleLevel })
        EXPECT_EQ(bandwidthUnitFromKey(bandwidthUnitKey(u)), u);
}

TEST(ResctrlVendor, AmdWithBmecAndSmba)
{
    TempTree t("amd.bmec");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    auto caps = b->capabilities();
    ASSERT_TRUE(caps.ok());
    for (const char* name : { "MB", "SMBA" }) {
        const auto* r = caps->resource(name);
        ASSERT_NE(r, nullptr) << name;
        EXPECT_EQ(r->bandwidthUnit, BandwidthUnit::EighthGBps) << name;
        EXPECT_FALSE(r->mbpsMode) << name; // 2048 > 100 is not mba_MBps on AMD
        EXPECT_EQ(r->maxBandwidth, 2048u);
        EXPECT_EQ(r->defaultValue(), "2048");
        EXPECT_EQ(r->domains, (std::vector<int> { 0, 1, 2, 3 }));
    }
    const auto* l3 = caps->resource("L3");
    ASSERT_NE(l3, nullptr);
    EXPECT_TRUE(l3->sparseMasks);
    EXPECT_EQ(l3->bytesPerBit, 2097152u);
    EXPECT_TRUE(l3->ioAlloc.empty());
    EXPECT_EQ(caps->maxControlGroups, 16u);
    const auto& m = caps->monitoring;
    EXPECT_TRUE(m.bmec());
    EXPECT_EQ(m.mbmTotalConfig, (std::vector<DomainValue> { { 0, 0x33 }, { 1, 0x7f }, { 2, 0x7f }, { 3, 0x7f } }));
    EXPECT_EQ(valueOfDomain(m.mbmLocalConfig, 2), 0x30u);
    EXPECT_TRUE(m.assignMode.empty());
    EXPECT_FALSE(m.counterAssignment());
    EXPECT_TRUE(m.mbmTotal && m.mbmLocal); // the *_config lines of mon_features are not events

    // The padded values of the kernel's AMD schemata read as numbers.
    auto s = b->readSchemata("p0");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(parseBandwidth(*s->value("MB", 1)).valueOr(0), 16u);
    EXPECT_EQ(parseBandwidth(*s->value("SMBA", 1)).valueOr(0), 64u);
    EXPECT_EQ(parseMask(*s->value("L3", 0)).valueOr(0), 0xf00fu);
    EXPECT_EQ(formatBandwidth(*caps->resource("SMBA"), 64), "8 GB/s"); // resctrl.rst's SMBA example

    // Right after a BMEC change the kernel reports Unavailable (counters cleared): a flag, never a number.
    auto c = b->readCounters("p0");
    ASSERT_TRUE(c.ok());
    const auto* d0 = domainOf(*c, 0);
    ASSERT_NE(d0, nullptr);
    EXPECT_TRUE(d0->flags & SampleMbmUnavailable);
    EXPECT_EQ(d0->mbmTotalRaw, 0u);
    EXPECT_EQ(domainOf(*c, 1)->mbmTotalRaw, 12884901888u);

    // The rules take AMD's range: 0..2048, granularity 1.
    EXPECT_TRUE(checkBandwidth(*caps->resource("MB"), 0, 2049).problem.has_value());
    EXPECT_FALSE(checkBandwidth(*caps->resource("MB"), 0, 16).problem.has_value());
    EXPECT_FALSE(checkBandwidth(*caps->resource("MB"), 0, 0).problem.has_value());

    const auto text = formatVendorFeatures(*caps);
    EXPECT_NE(text.find("BMEC mbm_total_bytes, domains 0: 0x33 counts local_reads, remote_reads, "
                        "local_reads_slow_memory, remote_reads_slow_memory"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("clears every MBM counter"), std::string::npos);
    EXPECT_NE(
        formatResourceLines(*caps).find("multiples of 1/8 GB/s, 0..2048, 2048 = unlimited (AMD)"), std::string::npos);
    // Counter assignment is refused with the reason where the kernel has none.
    auto st = b->assignCounter("p0", "mbm_total_bytes", 0, true);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ENOTSUP);
}

TEST(ResctrlVendor, AmdAssignableCountersAndIoAlloc)
{
    TempTree t("amd.abmc");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    auto caps = b->capabilities();
    ASSERT_TRUE(caps.ok());
    const auto& m = caps->monitoring;
    EXPECT_TRUE(m.counterAssignment());
    EXPECT_EQ(m.assignModes, (std::vector<std::string> { "mbm_event", "default" }));
    EXPECT_EQ(valueOfDomain(m.numMbmCounters, 3), 32u);
    EXPECT_EQ(m.availableMbmCounters, (std::vector<DomainValue> { { 0, 29 }, { 1, 29 }, { 2, 30 }, { 3, 29 } }));
    ASSERT_EQ(m.eventFilters.size(), 2u);
    EXPECT_EQ(m.eventFilters[0].first, "mbm_local_bytes");
    EXPECT_EQ(*bmecMaskFromNames(m.eventFilters[0].second), 0x15u);
    EXPECT_EQ(m.assignOnMkdir, 1);
    EXPECT_EQ(formatFreeCounters(m), "free MBM counters: 0=29 1=29 2=30 3=29 (of 32 per domain)");
    const auto* l3 = caps->resource("L3");
    ASSERT_NE(l3, nullptr);
    EXPECT_TRUE(l3->ioAllocEnabled());
    EXPECT_EQ(valueOfDomain(l3->ioAllocCbm, 2), 0xc000u);
    EXPECT_EQ(caps->maxControlGroups, 15u); // io_alloc holds CLOSID 15

    auto c = b->readCounters("p0");
    ASSERT_TRUE(c.ok());
    EXPECT_TRUE(domainOf(*c, 0)->flags & SampleMbmLocalUnassigned); // mbm_local_bytes
    EXPECT_FALSE(domainOf(*c, 0)->flags & SampleMbmUnassigned); // the total has its counter
    EXPECT_EQ(domainOf(*c, 0)->mbmTotalRaw, 12884901888u);
    auto assignments = b->counterAssignments("p0");
    ASSERT_TRUE(assignments.ok());
    EXPECT_FALSE((*assignments)[0].assigned(2));
    EXPECT_TRUE((*assignments)[0].assigned(1));

    // Assign: the kernel's command line lands in the group's file.
    ASSERT_TRUE(b->assignCounter("p0", "mbm_total_bytes", 2, true).ok());
    EXPECT_EQ(readFile(t.root() + "/p0/mbm_L3_assignments"), "mbm_total_bytes:2=e\n");
    ASSERT_TRUE(b->assignCounter("p0/mon_groups/m1", "mbm_local_bytes", -1, false).ok());
    EXPECT_EQ(readFile(t.root() + "/p0/mon_groups/m1/mbm_L3_assignments"), "mbm_local_bytes:*=_\n");
    // No free counter: refused before writing, with what to do.
    t.write("info/L3_MON/available_mbm_cntrs", "0=0;1=29;2=30;3=29\n");
    auto full = b->assignCounter("p0", "mbm_total_bytes", 0, true);
    ASSERT_FALSE(full.ok());
    EXPECT_EQ(full.error().code, ENOSPC);
    EXPECT_NE(full.error().advice.find("unassign"), std::string::npos);
    EXPECT_EQ(b->assignCounter("p0", "llc_occupancy", 0, true).error().code, EINVAL);
    EXPECT_EQ(b->assignCounter("p0", "mbm_total_bytes", 9, true).error().code, EINVAL);
    EXPECT_FALSE(b->assignCounter("nosuch", "mbm_total_bytes", 1, true).ok());

    const auto text = formatVendorFeatures(*caps);
    EXPECT_NE(text.find("io_alloc on L3: enabled, I/O ways c000 in each of 4 domains"), std::string::npos) << text;
    EXPECT_NE(text.find("read Unassigned"), std::string::npos);
}

TEST(ResctrlVendor, IntelSncSubDomains)
{
    TempTree t("intel.snc");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    auto caps = b->capabilities();
    ASSERT_TRUE(caps.ok());
    const auto& m = caps->monitoring;
    EXPECT_EQ(m.domains, (std::vector<int> { 0, 1 }));
    ASSERT_EQ(m.subDomains.size(), 2u);
    EXPECT_EQ(m.subDomains[1].first, 1);
    EXPECT_EQ(m.subDomains[1].second, (std::vector<int> { 2, 3 }));
    EXPECT_EQ(m.sncNodesPerL3(), 2u);
    EXPECT_EQ(caps->resource("MB")->bandwidthUnit, BandwidthUnit::Percent);
    EXPECT_EQ(caps->resource("MB")->throttleMode, "per-thread");
    // The mon_L3 files are the sums of their nodes; the backend reads those.
    auto c = b->readCounters("");
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(domainOf(*c, 1)->occupancyBytes, (3u + 4u) * 2097152u * 4u);
    const auto text = formatVendorFeatures(*caps);
    EXPECT_NE(text.find("SNC: 2 sub-NUMA nodes per L3 (L3 0 -> nodes 0,1; L3 1 -> nodes 2,3)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("MBA still throttles the whole L3"), std::string::npos);
}

TEST(ResctrlVendor, IntelSncReadsPerNodeWhenAsked)
{
    TempTree t("intel.snc");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    b->setSncNodeReadings(true);
    auto c = b->readCounters("p0");
    ASSERT_TRUE(c.ok());
    // mon_L3_00/mon_sub_L3_00,01 and mon_L3_01/mon_sub_L3_02,03, each read from its own files.
    ASSERT_EQ(c->domains.size(), 4u);
    const int domains[4] = { 0, 0, 1, 1 };
    for (int i = 0; i < 4; ++i) {
        const auto& r = c->domains[static_cast<std::size_t>(i)];
        EXPECT_EQ(r.domain, domains[i]);
        EXPECT_EQ(r.node, i);
        EXPECT_EQ(r.occupancyBytes, std::uint64_t(i + 1) * 2097152u);
        EXPECT_EQ(r.mbmTotalRaw, std::uint64_t(i + 1) * 1000000000u);
        EXPECT_EQ(r.flags, 0u);
    }
    // A node whose file reads Unavailable is flagged on its own.
    t.write("p0/mon_data/mon_L3_01/mon_sub_L3_03/mbm_total_bytes", "Unavailable\n");
    c = b->readCounters("p0");
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->domains[2].flags, 0u);
    EXPECT_EQ(c->domains[3].flags, std::uint32_t(SampleMbmUnavailable));
    // Off again: one reading per L3, the kernel's sums, no node.
    b->setSncNodeReadings(false);
    c = b->readCounters("p0");
    ASSERT_TRUE(c.ok());
    ASSERT_EQ(c->domains.size(), 2u);
    EXPECT_EQ(c->domains[0].node, -1);
    EXPECT_EQ(c->domains[0].mbmTotalRaw, 3000000000u);

    // The sampler keeps one history per node: only the node whose counter moved shows bytes and a rate.
    t.write("p0/mon_data/mon_L3_01/mon_sub_L3_03/mbm_total_bytes", "4000000000\n");
    b->setSncNodeReadings(true);
    Sampler sampler(*b, SamplerConfig { 10.0, 16, { "p0" }, 2e12 });
    ASSERT_TRUE(sampler.pollOnce(1'000'000'000).ok());
    t.write("p0/mon_data/mon_L3_00/mon_sub_L3_01/mbm_total_bytes", "2500000000\n");
    auto batch = sampler.pollOnce(2'000'000'000);
    ASSERT_TRUE(batch.ok());
    ASSERT_EQ(batch->nodeSamples.size(), 4u);
    for (const auto& smp : batch->nodeSamples) {
        EXPECT_EQ(smp.node, smp.domain * 2 + (&smp - batch->nodeSamples.data()) % 2);
        EXPECT_EQ(smp.mbmTotalBps, smp.node == 1 ? 500000000.0 : 0.0) << smp.node;
    }
    // Beside them, one row per L3 that sums its nodes (what sessions keep), as the kernel's mon_L3_XX files do.
    ASSERT_EQ(batch->samples.size(), 2u);
    EXPECT_EQ(batch->samples[0].node, -1);
    EXPECT_EQ(batch->samples[0].mbmTotalBps, 500000000.0);
    EXPECT_EQ(batch->samples[1].mbmTotalBps, 0.0);
    EXPECT_EQ(
        batch->samples[0].occupancyBytes, batch->nodeSamples[0].occupancyBytes + batch->nodeSamples[1].occupancyBytes);
}

TEST(ResctrlVendor, IntelTelemetryAndMbps)
{
    TempTree t("intel.perfpkg");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    auto caps = b->capabilities();
    ASSERT_TRUE(caps.ok());
    EXPECT_EQ(caps->resource("MB")->bandwidthUnit, BandwidthUnit::MiBps);
    EXPECT_TRUE(caps->resource("MB")->mbpsMode);
    // PERF_PKG_MON is its own resource: L3_MON's figures stay L3_MON's.
    EXPECT_EQ(caps->monitoring.numRmids, 512u);
    EXPECT_EQ(caps->monitoring.features.size(), 3u);
    const auto& tel = caps->telemetry;
    EXPECT_TRUE(tel.present);
    EXPECT_EQ(tel.numRmids, 128u);
    EXPECT_EQ(tel.features.front(), "core_energy");
    EXPECT_EQ(tel.features.size(), 9u);
    EXPECT_EQ(tel.domains, (std::vector<int> { 0, 1 }));
    EXPECT_EQ(caps->maxMonitorGroups(), 128u);
    const auto text = formatVendorFeatures(*caps);
    EXPECT_NE(text.find("monitor groups limited to 128 = min(L3_MON num_rmids 512, PERF_PKG_MON num_rmids 128)"),
        std::string::npos)
        << text;
    auto s = b->readSchemata("p0");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(formatBandwidth(*caps->resource("MB"), parseBandwidth(*s->value("MB", 0)).valueOr(0)), "2048 MiB/s");
}

// BMEC: a configuration change clears every MBM counter of the domain (the next read is Unavailable); the sampler
// records a reset and counts from zero, never a negative or huge delta and never a gap counted twice.
TEST(ResctrlVendor, BmecChangeIsRecordedAsAReset)
{
    TempTree t("amd.bmec");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    const std::string total = "p0/mon_groups/m1/mon_data/mon_L3_01/mbm_total_bytes";
    Sampler sampler(*b, SamplerConfig { 10.0, 16, { "p0/mon_groups/m1" }, 2e12 });
    auto sampleOf = [](const RdtSampleBatch& batch, int domain) {
        for (const auto& s : batch.samples)
            if (s.domain == domain) return s;
        return RdtSample {};
    };
    t.write(total, "1073741824\n");
    ASSERT_TRUE(sampler.pollOnce(1'000'000'000).ok());
    t.write(total, "1173741824\n"); // +100 MB in 1 s
    auto before = sampler.pollOnce(2'000'000'000);
    ASSERT_TRUE(before.ok());
    EXPECT_DOUBLE_EQ(sampleOf(*before, 1).mbmTotalBps, 100e6);

    ASSERT_TRUE(b->configureMbmEvent("mbm_total_bytes", 1, 0x33).ok());
    EXPECT_EQ(t.read("info/L3_MON/mbm_total_bytes_config"), "1=0x33\n");
    t.write(total, "Unavailable\n"); // what the kernel shows right after the change
    auto cleared = sampler.pollOnce(3'000'000'000);
    ASSERT_TRUE(cleared.ok());
    EXPECT_TRUE(sampleOf(*cleared, 1).flags & SampleMbmUnavailable);
    t.write(total, "50000000\n"); // counting again from zero: 50 MB since the clear
    auto after = sampler.pollOnce(4'000'000'000);
    ASSERT_TRUE(after.ok());
    const auto s = sampleOf(*after, 1);
    EXPECT_TRUE(s.flags & SampleCounterReset);
    EXPECT_DOUBLE_EQ(s.mbmTotalBps, 50e6 / 2.0); // 50 MB over the 2 s since the last good read
    // Cumulative bytes start at the first raw value: +100 MB, then +50 MB since the clear.
    EXPECT_EQ(s.mbmTotalBytes, 1073741824u + 100000000u + 50000000u);
    // A restart that happens to read above the old value is still a restart, not a small delta.
    t.write(total, "Unavailable\n");
    ASSERT_TRUE(sampler.pollOnce(5'000'000'000).ok());
    t.write(total, "2000000000\n");
    auto big = sampler.pollOnce(6'000'000'000);
    EXPECT_TRUE(sampleOf(*big, 1).flags & SampleCounterReset);
    EXPECT_EQ(sampleOf(*big, 1).mbmTotalBytes, 1073741824u + 150000000u + 2000000000u);

    // Refusals name the rule: bits outside 0x7f, unknown events, a domain that does not exist.
    EXPECT_EQ(b->configureMbmEvent("mbm_total_bytes", 1, 0x80).error().code, EINVAL);
    EXPECT_EQ(b->configureMbmEvent("llc_occupancy", 1, 0x1).error().code, EINVAL);
    EXPECT_EQ(b->configureMbmEvent("mbm_local_bytes", 9, 0x1).error().code, EINVAL);
    ASSERT_TRUE(b->configureMbmEvent("mbm_local_bytes", -1, 0x30).ok());
    EXPECT_EQ(t.read("info/L3_MON/mbm_local_bytes_config"), "0=0x30;1=0x30;2=0x30;3=0x30\n");
}

// On Intel an Unavailable read is a gap, not a clear: the kernel's sum continues and nothing is counted twice.
TEST(ResctrlVendor, IntelUnavailableIsAGapNotAReset)
{
    TempTree t("intel.snc");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    const std::string total = "p0/mon_data/mon_L3_00/mbm_total_bytes";
    Sampler sampler(*b, SamplerConfig { 10.0, 16, { "p0" }, 2e12 });
    t.write(total, "1000000000\n");
    ASSERT_TRUE(sampler.pollOnce(1'000'000'000).ok());
    t.write(total, "Unavailable\n");
    ASSERT_TRUE(sampler.pollOnce(2'000'000'000).ok());
    t.write(total, "1300000000\n");
    auto after = sampler.pollOnce(3'000'000'000);
    ASSERT_TRUE(after.ok());
    for (const auto& s : after->samples)
        if (s.domain == 0) {
            EXPECT_FALSE(s.flags & SampleCounterReset);
            EXPECT_DOUBLE_EQ(s.mbmTotalBps, 150e6);
        }
}
