// SPDX-License-Identifier: GPL-3.0-or-later
// A user's schemata change with bandwidth units (rdt/UserSchemata.h): converted by the machine's unit, refused
// with advice when the unit does not fit it.
#include "rdt/RdtBackend.h"
#include "rdt/UserSchemata.h"

#include <gtest/gtest.h>

using namespace rdt;

namespace {
Capabilities machine(BandwidthUnit unit)
{
    Capabilities caps;
    ResourceCaps l3;
    l3.name = "L3";
    l3.cbmMask = 0xffff;
    caps.resources.push_back(l3);
    ResourceCaps mb;
    mb.name = "MB";
    mb.kind = ResourceKind::Bandwidth;
    mb.bandwidthUnit = unit;
    if (unit == BandwidthUnit::EighthGBps) {
        mb.minBandwidth = 0;
        mb.bandwidthGran = 1;
        mb.maxBandwidth = 2048;
    } else {
        mb.minBandwidth = 10;
        mb.bandwidthGran = 10;
    }
    caps.resources.push_back(mb);
    return caps;
}
} // namespace

TEST(UserSchemata, GBpsOnAmdBecomesEighths)
{
    const auto amd = machine(BandwidthUnit::EighthGBps);
    auto s = parseUserSchemata("MB:0=2GB/s;1=2048;2= 0.5 GB/s\nL3:0=f00f\n", amd);
    ASSERT_TRUE(s.ok()) << s.error().toString();
    EXPECT_EQ(s->value("MB", 0), "16");
    EXPECT_EQ(s->value("MB", 1), "2048");
    EXPECT_EQ(s->value("MB", 2), "4");
    EXPECT_EQ(s->value("L3", 0), "f00f");
}

TEST(UserSchemata, UnitsThatDoNotFitAreRefusedWithAdvice)
{
    auto pctOnAmd = parseUserSchemata("MB:0=50%\n", machine(BandwidthUnit::EighthGBps));
    ASSERT_FALSE(pctOnAmd.ok());
    EXPECT_NE(pctOnAmd.error().message.find("1/8 GB/s"), std::string::npos) << pctOnAmd.error().message;
    EXPECT_NE(pctOnAmd.error().advice.find("GB/s"), std::string::npos);
    auto gbOnIntel = parseUserSchemata("MB:0=2GB/s\n", machine(BandwidthUnit::Percent));
    ASSERT_FALSE(gbOnIntel.ok());
    EXPECT_NE(gbOnIntel.error().message.find("percent"), std::string::npos) << gbOnIntel.error().message;
    EXPECT_NE(gbOnIntel.error().advice.find("%"), std::string::npos);
    auto pct = parseUserSchemata("MB:0=50%\n", machine(BandwidthUnit::Percent));
    ASSERT_TRUE(pct.ok());
    EXPECT_EQ(pct->value("MB", 0), "50");
}

TEST(UserSchemata, SyntaxIsCheckedBeforeTheUnits)
{
    EXPECT_TRUE(checkUserSchemataSyntax("MB:0=2GB/s;1=50%\nL3:0=ff\n").ok());
    EXPECT_FALSE(checkUserSchemataSyntax("MB:0=fast\n").ok());
    EXPECT_FALSE(checkUserSchemataSyntax("L3:0=2GB/s\n").ok()) << "masks take no unit";
    EXPECT_FALSE(checkUserSchemataSyntax("MB 0=2\n").ok());
}
