// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/RdtCodec.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::protocol;

TEST(RdtCodec, CapabilitiesRoundTripThroughTheirWireBytes)
{
    Capabilities c;
    ResourceCaps l3;
    l3.name = "L3";
    l3.numClosids = 16;
    l3.domains = { 0, 2, 3 };
    l3.cbmMask = 0x7ff;
    l3.cbmBits = 11;
    l3.minCbmBits = 2;
    l3.shareableBits = 0x600;
    l3.sparseMasks = true;
    l3.bytesPerBit = 2359296;
    ResourceCaps mb;
    mb.name = "MB";
    mb.kind = ResourceKind::Bandwidth;
    mb.minBandwidth = 10;
    mb.bandwidthGran = 10;
    mb.maxBandwidth = 100;
    mb.delayLinear = false;
    mb.throttleMode = "per-thread";
    c.resources = { l3, mb };
    c.monitoring.present = true;
    c.monitoring.numRmids = 176;
    c.monitoring.mbmTotal = true;
    c.monitoring.features = { "llc_occupancy", "mbm_total_bytes", "future_feature" };
    c.monitoring.domains = { 0, 2, 3 };
    c.monitoring.counterWidth = 24;
    c.cdpL3 = true;
    c.handlesTasks = false;
    c.cpus = { 0, 1, 5 };
    c.maxControlGroups = 16;

    pb::Capabilities w;
    toWire(c, w);
    std::string bytes;
    ASSERT_TRUE(w.SerializeToString(&bytes));
    pb::Capabilities back;
    ASSERT_TRUE(back.ParseFromString(bytes));
    const Capabilities d = fromWire(back);
    ASSERT_EQ(d.resources.size(), 2u);
    EXPECT_EQ(d.resources[0].name, "L3");
    EXPECT_EQ(d.resources[0].domains, (std::vector<int> { 0, 2, 3 }));
    EXPECT_EQ(d.resources[0].cbmMask, 0x7ffu);
    EXPECT_EQ(d.resources[0].shareableBits, 0x600u);
    EXPECT_EQ(d.resources[0].minCbmBits, 2u);
    EXPECT_TRUE(d.resources[0].sparseMasks);
    EXPECT_EQ(d.resources[0].bytesPerBit, 2359296u);
    EXPECT_EQ(d.resources[1].kind, ResourceKind::Bandwidth);
    EXPECT_EQ(d.resources[1].bandwidthGran, 10u);
    EXPECT_FALSE(d.resources[1].delayLinear);
    EXPECT_EQ(d.resources[1].throttleMode, "per-thread");
    EXPECT_EQ(d.monitoring.features.back(), "future_feature");
    EXPECT_EQ(d.monitoring.counterWidth, 24u);
    EXPECT_TRUE(d.cdpL3);
    EXPECT_FALSE(d.handlesTasks);
    EXPECT_EQ(d.cpus, (std::vector<unsigned> { 0, 1, 5 }));
    EXPECT_EQ(d.maxControlGroups, 16u);
}

TEST(RdtCodec, GroupsAndAllocationChangesRoundTrip)
{
    GroupInfo g { "p0/mon_groups/m1", "m1", false, "p0", "", -1, 7 };
    pb::GroupInfo gw;
    toWire(g, gw);
    const GroupInfo g2 = fromWire(gw);
    EXPECT_EQ(g2.path, g.path);
    EXPECT_EQ(g2.parent, "p0");
    EXPECT_FALSE(g2.isControl);
    EXPECT_EQ(g2.closid, -1);
    EXPECT_EQ(g2.rmid, 7);

    AllocationChanged a { 5, "gui", "p1", "L3", 2, "7ff", "3", false, "Invalid schemata" };
    pb::AllocationChanged aw;
    toWire(a, aw);
    const AllocationChanged a2 = fromWire(aw);
    EXPECT_EQ(a2.group, "p1");
    EXPECT_EQ(a2.domain, 2);
    EXPECT_EQ(a2.oldValue, "7ff");
    EXPECT_EQ(a2.newValue, "3");
    EXPECT_FALSE(a2.ok);
    EXPECT_EQ(a2.message, "Invalid schemata");
}

TEST(RdtCodec, VendorFeaturesRoundTrip)
{
    Capabilities c;
    ResourceCaps mb;
    mb.name = "SMBA";
    mb.kind = ResourceKind::Bandwidth;
    mb.bandwidthUnit = BandwidthUnit::EighthGBps;
    mb.maxBandwidth = 2048;
    ResourceCaps l3;
    l3.name = "L3";
    l3.ioAlloc = "enabled";
    l3.ioAllocCbm = { { 0, 0xc000 }, { 4, 0xf000 } };
    c.resources = { mb, l3 };
    auto& m = c.monitoring;
    m.present = true;
    m.mbmTotalConfig = { { 0, 0x33 } };
    m.mbmLocalConfig = { { 1, 0x15 } };
    m.assignMode = "mbm_event";
    m.assignModes = { "mbm_event", "default" };
    m.numMbmCounters = { { 0, 32 } };
    m.availableMbmCounters = { { 0, 0 } };
    m.eventFilters = { { "mbm_total_bytes", "local_reads" } };
    m.assignOnMkdir = 0;
    m.subDomains = { { 1, { 2, 3 } } };
    c.telemetry.present = true;
    c.telemetry.numRmids = 128;
    c.telemetry.features = { "core_energy", "activity" };
    c.telemetry.domains = { 0, 1 };

    pb::Capabilities w;
    toWire(c, w);
    std::string bytes;
    ASSERT_TRUE(w.SerializeToString(&bytes));
    pb::Capabilities back;
    ASSERT_TRUE(back.ParseFromString(bytes));
    const Capabilities d = fromWire(back);
    EXPECT_EQ(d.resources[0].bandwidthUnit, BandwidthUnit::EighthGBps);
    EXPECT_EQ(d.resources[1].ioAlloc, "enabled");
    EXPECT_EQ(d.resources[1].ioAllocCbm, l3.ioAllocCbm);
    EXPECT_EQ(d.monitoring.mbmTotalConfig, m.mbmTotalConfig);
    EXPECT_EQ(d.monitoring.mbmLocalConfig, m.mbmLocalConfig);
    EXPECT_TRUE(d.monitoring.counterAssignment());
    EXPECT_EQ(d.monitoring.assignModes, m.assignModes);
    EXPECT_EQ(d.monitoring.availableMbmCounters, m.availableMbmCounters);
    EXPECT_EQ(d.monitoring.numMbmCounters, m.numMbmCounters);
    EXPECT_EQ(d.monitoring.eventFilters, m.eventFilters);
    EXPECT_EQ(d.monitoring.assignOnMkdir, 0); // "off" survives proto3's zero default
    EXPECT_EQ(d.monitoring.subDomains, m.subDomains);
    EXPECT_EQ(d.telemetry.numRmids, 128u);
    EXPECT_EQ(d.telemetry.features, c.telemetry.features);
    EXPECT_EQ(d.telemetry.domains, c.telemetry.domains);
    // A peer that sends none of this (an older agent) reads as "absent", not as "off".
    EXPECT_EQ(fromWire(pb::Capabilities {}).monitoring.assignOnMkdir, -1);
}

// Issue #50: a control's role, region, budget, description (an unknown number stays unknown, never 0) and the RFC's
// mode travel with the capabilities.
TEST(RdtCodec, DescribedControlsRoundTrip)
{
    Capabilities c;
    ResourceCaps r;
    r.name = "MB_REGION1_OPT";
    r.kind = ResourceKind::Bandwidth;
    r.role = api::BandwidthRole::RegionOpt;
    r.region = 1;
    r.infoDir = "MB";
    r.mode = "legacy";
    r.modes = { "legacy", "native" };
    api::ControlDescription d;
    d.name = r.name;
    d.resource = "MB";
    d.type = "scalar linear";
    d.min = 0; // a value 0, not an absent one
    d.max = 511;
    d.resolution = 511;
    d.unit = "all";
    d.scope = "L3";
    d.unknown = { "scale: info/MB/resource_schemata/MB_REGION1_OPT/scale is missing" };
    r.description = d;
    c.resources.push_back(r);
    ResourceCaps budget;
    budget.name = "MB_MIN";
    budget.kind = ResourceKind::Bandwidth;
    budget.role = api::BandwidthRole::Reserved;
    budget.budget = 819;
    budget.budgetSource = "info/MB_MIN/resource_schemata/MB_MIN/max";
    c.resources.push_back(budget);

    pb::Capabilities w;
    toWire(c, w);
    std::string bytes;
    ASSERT_TRUE(w.SerializeToString(&bytes));
    pb::Capabilities back;
    ASSERT_TRUE(back.ParseFromString(bytes));
    const Capabilities out = fromWire(back);
    ASSERT_EQ(out.resources.size(), 2u);
    const auto& o = out.resources[0];
    EXPECT_EQ(o.role, api::BandwidthRole::RegionOpt);
    EXPECT_EQ(o.region, 1);
    EXPECT_EQ(o.infoDir, "MB");
    EXPECT_EQ(o.mode, "legacy");
    EXPECT_EQ(o.modes, (std::vector<std::string> { "legacy", "native" }));
    ASSERT_TRUE(o.description);
    EXPECT_EQ(o.description->min, std::optional<std::uint64_t>(0));
    EXPECT_EQ(o.description->max, std::optional<std::uint64_t>(511));
    EXPECT_FALSE(o.description->scale); // unknown stays unknown
    EXPECT_EQ(o.description->summary(), d.summary());
    EXPECT_EQ(o.description->unknown, d.unknown);
    EXPECT_EQ(out.resources[1].role, api::BandwidthRole::Reserved);
    EXPECT_EQ(out.resources[1].region, -1);
    EXPECT_EQ(out.resources[1].budget, 819u);
    EXPECT_EQ(out.resources[1].budgetSource, budget.budgetSource);
    EXPECT_FALSE(out.resources[1].description);
}
