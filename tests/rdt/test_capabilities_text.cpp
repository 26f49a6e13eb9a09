// SPDX-License-Identifier: GPL-3.0-or-later
// A session's topology text (machine.topology) read back: each fixture tree's resources keep their rules through
// formatCapabilitiesText and parseCapabilitiesText, so a replay shows recorded MB values in the unit they had
// (percent, MiBps, AMD's 1/8 GB/s) whatever CPU recorded or replays them; older lines without a unit and damaged
// lines are read as far as they go.
#include "TestTree.h"
#include "rdt/BandwidthUnit.h"
#include "rdt/CapabilitiesText.h"
#include "rdt/ResctrlBackend.h"

#include <gtest/gtest.h>

using namespace rdt;
using rdt::test::TempTree;

TEST(CapabilitiesText, EveryFixtureTreeRoundTrips)
{
    for (const char* tree : { "resctrl.full", "resctrl.l2cdp", "resctrl.nol3.mbps", "amd.bmec", "amd.abmc" }) {
        SCOPED_TRACE(tree);
        TempTree t(tree);
        auto backend = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
        ASSERT_TRUE(backend.ok()) << backend.error().toString();
        auto caps = (*backend)->capabilities();
        ASSERT_TRUE(caps.ok());
        const auto read = parseCapabilitiesText(formatCapabilitiesText(*caps));
        ASSERT_EQ(read.size(), caps->resources.size());
        for (std::size_t i = 0; i < read.size(); ++i) {
            const ResourceCaps& want = caps->resources[i];
            const ResourceCaps& got = read[i].caps;
            SCOPED_TRACE(want.name);
            EXPECT_EQ(got.name, want.name);
            EXPECT_EQ(got.isCache(), want.isCache());
            EXPECT_EQ(got.numClosids, want.numClosids);
            EXPECT_EQ(got.domains, want.domains);
            if (want.isCache()) {
                EXPECT_EQ(got.cbmBits, want.cbmBits);
                EXPECT_EQ(got.minCbmBits, want.minCbmBits);
                EXPECT_EQ(got.bytesPerBit, want.bytesPerBit);
                continue;
            }
            EXPECT_TRUE(read[i].unitRecorded);
            EXPECT_EQ(got.bandwidthUnit, want.bandwidthUnit);
            EXPECT_EQ(got.mbpsMode, want.mbpsMode);
            EXPECT_EQ(got.minBandwidth, want.minBandwidth);
            EXPECT_EQ(got.bandwidthGran, want.bandwidthGran);
            EXPECT_EQ(got.maxBandwidth, want.maxBandwidth);
            EXPECT_EQ(got.delayLinear, want.delayLinear);
            EXPECT_EQ(formatBandwidth(got, 256), formatBandwidth(want, 256));
        }
    }
}

TEST(CapabilitiesText, OlderLinesAndDamageReadAsFarAsTheyGo)
{
    // The text sessions held before the unit was written, with a damaged line and L3_MON between.
    const auto read = parseCapabilitiesText("L3: 16 CLOS, domains 0 1 2 3, cbm_mask 20 bits, min_cbm_bits 1\n"
                                            "MB: 8 CLOS, domains 0 1 2 3, min_bandwidth 10, bandwidth_gran 10\n"
                                            "L3_MON: 192 RMIDs, counter width 64, domains 0 1 2 3\n"
                                            "garbage without a colon\n"
                                            "L2: lots CLOS, domains x\n"
                                            "SMBA: 16 CLOS, domains, min_bandwidth 0, bandwidth_gran 1\n");
    ASSERT_EQ(read.size(), 3u);
    EXPECT_EQ(read[0].caps.name, "L3");
    EXPECT_EQ(read[0].caps.cbmBits, 20u);
    EXPECT_EQ(read[0].caps.bytesPerBit, 0u); // not recorded then: the replay takes the CPUID snapshot's size
    EXPECT_EQ(read[1].caps.name, "MB");
    EXPECT_FALSE(read[1].unitRecorded);
    EXPECT_EQ(read[1].caps.minBandwidth, 10u);
    EXPECT_EQ(read[1].caps.bandwidthGran, 10u);
    EXPECT_EQ(read[1].caps.domains, (std::vector<int> { 0, 1, 2, 3 }));
    EXPECT_EQ(read[2].caps.name, "SMBA");
    EXPECT_TRUE(read[2].caps.domains.empty());
    EXPECT_TRUE(parseCapabilitiesText("").empty());
}
