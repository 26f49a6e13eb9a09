// SPDX-License-Identifier: GPL-3.0-or-later
// The one layout rule (engine/AllocationLayoutOf.h) over every kind of source: each simulated preset, fixture trees
// read without their machine's CPUID, an SNC tree, and a session replayed (session/RecordedCapabilities.h), checked
// against values worked out by hand from the presets' CPUID dumps (SDM Vol. 2A CPUID leaf 04H) and resctrl.rst.
#include "engine/AllocationLayoutOf.h"
#include "engine/CaptureService.h"
#include "platform/CpuidDump.h"
#include "rdt/CapabilitiesText.h"
#include "session/RecordedCapabilities.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace rdt;

namespace {
api::AllocationLayout layoutOf(const std::string& spec, const std::string& preset = {})
{
    engine::ServiceOptions o;
    o.rdt.spec = spec;
    o.rdt.simPreset = preset;
    auto service = engine::CaptureService::open(o);
    EXPECT_TRUE(service.ok()) << spec << " " << preset << ": " << (service ? "" : service.error().toString());
    if (!service) return {};
    auto layout = (*service)->allocationLayout();
    EXPECT_TRUE(layout.ok());
    return layout ? *layout : api::AllocationLayout {};
}

constexpr std::uint64_t kMiB = 1u << 20;
} // namespace

// Hand-computed from each preset's CPUID.04H (ways x partitions x line size x sets) and resctrl's info/.
TEST(AllocationLayout, EverySimulatedPresetHasItsCpusWaysSizesAndUnits)
{
    struct Row {
        const char* preset;
        unsigned cbm;
        std::uint64_t l3Bytes;
        unsigned ways;
        const char* leaf;
        api::BandwidthUnit mb;
    };
    const Row rows[] = {
        { "skx-6154", 11, 24 * kMiB + 3 * kMiB / 4, 11, "CPUID.04H", api::BandwidthUnit::Percent }, // 24.75 MiB
        { "epyc-genoa", 16, 32 * kMiB, 16, "CPUID.8000001DH", api::BandwidthUnit::EighthGBps },
    };
    for (const auto& row : rows) {
        const auto layout = layoutOf("sim", row.preset);
        const auto* l3 = layout.cache("L3");
        ASSERT_NE(l3, nullptr) << row.preset;
        EXPECT_EQ(l3->cbmLength, row.cbm) << row.preset;
        EXPECT_EQ(l3->cacheBytes, row.l3Bytes) << row.preset;
        EXPECT_EQ(l3->ways, row.ways) << row.preset;
        EXPECT_EQ(l3->waysLeaf, row.leaf) << row.preset;
        EXPECT_EQ(l3->bytesPerBit() * l3->cbmLength, l3->cacheBytes) << row.preset;
        const auto* mb = layout.bandwidth("MB");
        ASSERT_NE(mb, nullptr) << row.preset;
        EXPECT_EQ(mb->unit, row.mb) << row.preset;
    }
    const auto amd = layoutOf("sim", "epyc-genoa");
    EXPECT_EQ(amd.bandwidth("MB")->maxValue, 2048u); // 1 << CPUID.80000020H.1:EAX length 11
    EXPECT_FALSE(amd.bandwidth("MB")->roundsUp);
    const auto skx = layoutOf("sim", "skx-6154");
    EXPECT_EQ(skx.bandwidth("MB")->granularity, 10u);
    EXPECT_TRUE(skx.bandwidth("MB")->roundsUp);
}

TEST(AllocationLayout, EveryPresetGivesAConsistentLayout)
{
    for (const char* preset : { "skx-6154", "clx-5215", "icx-8351n", "bdw-6850k", "epyc-genoa", "icx-8351n-snc2" }) {
        const auto layout = layoutOf("sim", preset);
        ASSERT_FALSE(layout.caches.empty()) << preset;
        for (const auto& c : layout.caches) {
            EXPECT_GT(c.cacheBytes, 0u) << preset << " " << c.resource;
            EXPECT_GT(c.ways, 0u) << preset << " " << c.resource << ": " << c.waysUnknown;
            EXPECT_FALSE(c.domains.empty()) << preset;
        }
        EXPECT_FALSE(layout.domains.empty()) << preset;
    }
}

// SNC-2 (resctrl.rst "Notes on Sub-NUMA Cluster mode"): resctrl's size is one node's share; the layout holds the
// whole cache, and each bit gives a node half of a bit.
TEST(AllocationLayout, SncHoldsTheWholeCache)
{
    const auto snc = layoutOf("sim", "icx-8351n-snc2");
    const auto plain = layoutOf("sim", "icx-8351n");
    ASSERT_NE(snc.cache("L3"), nullptr);
    EXPECT_EQ(snc.cache("L3")->sncNodes, 2u);
    EXPECT_EQ(snc.cache("L3")->cacheBytes, plain.cache("L3")->cacheBytes);
    EXPECT_EQ(snc.bandwidth("MB")->sncNodes, 2u);
}

// A tree read on another machine: resctrl's size stands, and ways are unknown unless this CPU's cache is that cache.
TEST(AllocationLayout, AFixtureTreeKeepsResctrlsSizeAndSaysWhyWaysAreUnknown)
{
    const auto tree = std::filesystem::temp_directory_path() / ("rdtscope-layout-" + std::to_string(::getpid()));
    std::filesystem::copy(
        std::string(RDTSCOPE_TEST_DATA) + "/resctrl/resctrl.full", tree, std::filesystem::copy_options::recursive);
    engine::ServiceOptions o;
    o.rdt.spec = "resctrl:" + tree.string();
    auto service = engine::CaptureService::open(o);
    ASSERT_TRUE(service.ok()) << service.error().toString();
    auto machine = (*service)->machine();
    ASSERT_TRUE(machine.ok());
    const auto* r = machine->capabilities.resource("L3");
    ASSERT_NE(r, nullptr);
    // Without any CPUID: resctrl's own size, ways unknown with the reason.
    const auto bare = engine::allocationLayoutOf(machine->capabilities, nullptr);
    ASSERT_NE(bare.cache("L3"), nullptr);
    EXPECT_EQ(bare.cache("L3")->cacheBytes, r->bytesPerBit * r->cbmBits);
    EXPECT_EQ(bare.cache("L3")->ways, 0u);
    EXPECT_EQ(bare.cache("L3")->waysUnknown, "no CPUID of the machine is known");
    EXPECT_EQ(bare.domains, (std::vector<int> { 0, 1, 2, 3 }));
    // With a CPU whose L3 is another cache (Skylake-SP's 24.75 MiB beside the tree's): resctrl's size, no ways.
    auto skx = loadCpuidDump(std::string(RDTSCOPE_TEST_DATA) + "/cpuid/GenuineIntel0050654_SkylakeXeon_CPUID5.txt");
    ASSERT_TRUE(skx.ok());
    const auto features = decodeCpuFeatures(*skx);
    const auto other = engine::allocationLayoutOf(machine->capabilities, &features);
    EXPECT_EQ(other.cache("L3")->cacheBytes, r->bytesPerBit * r->cbmBits);
    EXPECT_EQ(other.cache("L3")->ways, 0u);
    EXPECT_NE(other.cache("L3")->waysUnknown.find("not the cache resctrl controls"), std::string::npos);
    service->reset();
    std::filesystem::remove_all(tree);
}

// A replay reconstructs the recording machine's capabilities and goes through the same rule: the same layout as
// the live source it was recorded from.
TEST(AllocationLayout, AReplayLaysOutAsTheLiveSourceDid)
{
    for (const char* preset : { "skx-6154", "epyc-genoa", "icx-8351n-snc2" }) {
        engine::ServiceOptions o;
        o.rdt.spec = "sim";
        o.rdt.simPreset = preset;
        auto service = engine::CaptureService::open(o);
        ASSERT_TRUE(service.ok());
        auto machine = (*service)->machine();
        ASSERT_TRUE(machine.ok());
        const auto live = *(*service)->allocationLayout();
        // What a session records: the CPUID snapshot, the topology text, and every group's values.
        session::MachineInfo recorded;
        recorded.cpuidJson = machine->cpuidJson;
        recorded.topology = formatCapabilitiesText(machine->capabilities);
        session::AllocationState values;
        for (const auto& g : (*service)->snapshot().groups)
            for (const auto& line : g.schemata.lines())
                for (const auto& [domain, text] : line.values)
                    values[{ g.info.path, line.resource, domain }] = text;
        const auto cpu = session::recordedCpu(recorded);
        ASSERT_TRUE(cpu.has_value());
        const auto replayed = engine::allocationLayoutOf(
            session::recordedCapabilities(recorded, &*cpu, session::recordedValuesOf(values)), &*cpu);
        ASSERT_EQ(replayed.caches.size(), live.caches.size()) << preset;
        for (const auto& c : live.caches) {
            const auto* r = replayed.cache(c.resource);
            ASSERT_NE(r, nullptr) << preset << " " << c.resource;
            EXPECT_EQ(r->cbmLength, c.cbmLength) << preset;
            EXPECT_EQ(r->ways, c.ways) << preset;
            EXPECT_EQ(r->waysLeaf, c.waysLeaf) << preset;
            EXPECT_EQ(r->cacheBytes, c.cacheBytes) << preset;
            EXPECT_EQ(r->sncNodes, c.sncNodes) << preset;
        }
        for (const auto& b : live.bandwidths) {
            const auto* r = replayed.bandwidth(b.resource);
            ASSERT_NE(r, nullptr) << preset << " " << b.resource;
            EXPECT_EQ(r->unit, b.unit) << preset;
            EXPECT_EQ(r->minValue, b.minValue) << preset;
            EXPECT_EQ(r->maxValue, b.maxValue) << preset;
            EXPECT_EQ(r->granularity, b.granularity) << preset;
        }
    }
}
