// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestTree.h"
#include "rdt/AllocationEngine.h"
#include "rdt/ResctrlBackend.h"

#include <gtest/gtest.h>

using namespace rdt;
using rdt::test::FaultyFs;
using rdt::test::TempTree;

namespace {
Schemata lines(const char* text)
{
    auto s = Schemata::parseStrict(text);
    EXPECT_TRUE(s.ok()) << text;
    return s ? *s : Schemata {};
}
}

TEST(AllocationEngine, ValidationMessagesTable)
{
    TempTree t("resctrl.nomb"); // L3 fffff, min_cbm_bits 2, shareable c0000, no MB
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b.ok());
    AllocationEngine engine(**b);
    const std::pair<const char*, const char*> cases[] = {
        { "L3:0=f0f", "The mask f0f has non-consecutive 1-bits" },
        { "L3:0=1", "Need at least 2 bits in the mask" },
        { "L3:0=1fffff", "Mask out of range" },
        { "L3:0=0", "Mask out of range" },
        { "L3:9=ff", "Unknown domain L3:9" },
        { "MB:0=50", "Unknown or unsupported resource name 'MB'" },
        { "L2:0=f", "Unknown or unsupported resource name 'L2'" },
    };
    for (const auto& [text, msg] : cases) {
        auto r = engine.validate("", lines(text));
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_EQ(r.error().code, EINVAL) << text;
        EXPECT_NE(r.error().message.find(msg), std::string::npos) << text << " -> " << r.error().message;
        EXPECT_FALSE(r.error().advice.empty()) << text;
    }
    EXPECT_TRUE(engine.validate("", lines("L3:0=ff0;1=3")).ok());
}

TEST(AllocationEngine, SparseMasksAllowedWhenEnumerated)
{
    TempTree t("resctrl.nomb");
    t.write("info/L3/sparse_masks", "1\n");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    AllocationEngine engine(**b);
    EXPECT_TRUE(engine.validate("", lines("L3:0=f0f")).ok());
}

TEST(AllocationEngine, MbRangeAndRoundingUp)
{
    TempTree t("resctrl.full");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    AllocationEngine engine(**b);
    auto low = engine.validate("", lines("MB:0=5"));
    ASSERT_FALSE(low.ok());
    EXPECT_NE(low.error().message.find("MB value 5 out of range [10,100]"), std::string::npos);
    EXPECT_FALSE(engine.validate("", lines("MB:0=101")).ok());
    std::vector<std::string> notes;
    auto r = engine.validate("", lines("MB:0=71;1=80"), &notes);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->value("MB", 0).value_or(""), "80");
    EXPECT_EQ(r->value("MB", 1).value_or(""), "80");
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("71 rounded up to 80"), std::string::npos);
}

TEST(AllocationEngine, MbpsModeAcceptsAnyU32)
{
    TempTree t("resctrl.nol3.mbps");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    AllocationEngine engine(**b);
    auto r = engine.validate("", lines("MB:0=2500"));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->value("MB", 0).value_or(""), "2500");
}

TEST(AllocationEngine, ExclusiveOverlapRules)
{
    TempTree t("resctrl.full");
    t.write("Guaranteed/mode", "exclusive\n");
    t.write("Guaranteed/schemata", "L3:0=000ff;1=fffff;2=fffff;3=fffff\nMB:0=100;1=100;2=100;3=100\n");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    AllocationEngine engine(**b);
    auto r = engine.validate("goresctrl.Stale", lines("L3:0=00f00"));
    ASSERT_TRUE(r.ok()) << r.error().toString();
    auto bad = engine.validate("goresctrl.Stale", lines("L3:0=00180"));
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("Overlaps with exclusive group 'Guaranteed'"), std::string::npos);
    // The exclusive group itself may not overlap anyone, nor the hardware-shared bits.
    auto self = engine.validate("Guaranteed", lines("L3:0=c0000"));
    ASSERT_FALSE(self.ok());
    EXPECT_NE(self.error().message.find("hardware-shared"), std::string::npos);
}

TEST(AllocationEngine, MonitorGroupsHaveNoAllocation)
{
    TempTree t("resctrl.full");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    AllocationEngine engine(**b);
    auto r = engine.apply({ "mon_groups/example", lines("L3:0=f"), "cli" });
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.message.find("monitor group"), std::string::npos);
}

TEST(AllocationEngine, AppliesMultiDomainMultiResourceAndPublishes)
{
    TempTree t("resctrl.full");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    AllocationEngine engine(**b);
    std::vector<AllocationChanged> seen;
    engine.setListener([&](const AllocationChanged& e) { seen.push_back(e); });
    auto out = engine.apply({ "Guaranteed", lines("L3:0=ff0;1=ff0\nMB:2=50"), "gui" });
    ASSERT_TRUE(out.ok) << out.error.toString();
    auto s = (*b)->readSchemata("Guaranteed");
    EXPECT_EQ(s->value("L3", 0).value_or(""), "ff0");
    EXPECT_EQ(s->value("L3", 1).value_or(""), "ff0");
    EXPECT_EQ(s->value("L3", 2).value_or(""), "fffff");
    EXPECT_EQ(s->value("MB", 2).value_or(""), "50");
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].who, "gui");
    EXPECT_EQ(seen[0].group, "Guaranteed");
    EXPECT_EQ(seen[0].resource, "L3");
    EXPECT_EQ(seen[0].oldValue, "fffff");
    EXPECT_EQ(seen[0].newValue, "ff0");
    EXPECT_TRUE(seen[0].ok);
    EXPECT_EQ(seen[2].oldValue, "100");
    EXPECT_EQ(engine.history().size(), 3u);
}

// Fault injection: for every N, the Nth write fails; afterwards every domain of every resource is exactly as
// it was, the first failure is reported, and events say what was rolled back.
TEST(AllocationEngine, RollbackLeavesEveryDomainAsItWas)
{
    for (int n = 1; n <= 4; ++n) {
        TempTree t("resctrl.full");
        auto faulty = std::make_shared<FaultyFs>(std::make_shared<PosixFs>(t.root()));
        auto b = ResctrlBackend::open(faulty);
        ASSERT_TRUE(b.ok());
        AllocationEngine engine(**b);
        const auto before = t.read("Guaranteed/schemata");
        auto beforeParsed = (*b)->readSchemata("Guaranteed");
        faulty->arm(n, EINVAL, "MB value 55 out of range");
        auto out = engine.apply({ "Guaranteed", lines("L3:0=ff0;1=ff0;3=3\nMB:1=50"), "cli" });
        ASSERT_FALSE(out.ok) << "n=" << n;
        EXPECT_TRUE(out.rolledBack) << "n=" << n;
        EXPECT_EQ(out.error.code, EINVAL);
        EXPECT_NE(out.error.message.find("kernel says: MB value 55 out of range"), std::string::npos);
        auto after = (*b)->readSchemata("Guaranteed");
        ASSERT_TRUE(after.ok());
        EXPECT_TRUE(*after == *beforeParsed) << "n=" << n << "\nbefore:\n" << before << "after:\n" << after->format();
        ASSERT_EQ(out.events.size(), 4u);
        int failedEvents = 0, rolledBack = 0, notAttempted = 0;
        for (const auto& e : out.events) {
            EXPECT_FALSE(e.ok);
            failedEvents += e.message.find("kernel says") != std::string::npos;
            rolledBack += e.message.find("rolled back") != std::string::npos;
            notAttempted += e.message.find("not attempted") != std::string::npos;
        }
        EXPECT_EQ(failedEvents, 1);
        EXPECT_EQ(rolledBack, n - 1);
        EXPECT_EQ(notAttempted, 4 - n);
    }
}

TEST(AllocationEngine, ValidationFailureWritesNothing)
{
    TempTree t("resctrl.full");
    auto faulty = std::make_shared<FaultyFs>(std::make_shared<PosixFs>(t.root()));
    auto b = ResctrlBackend::open(faulty);
    AllocationEngine engine(**b);
    faulty->arm(0);
    auto out = engine.apply({ "Guaranteed", lines("L3:0=ff0;1=f0f"), "cli" });
    EXPECT_FALSE(out.ok);
    EXPECT_EQ(faulty->writes(), 0);
    EXPECT_NE(out.error.message.find("non-consecutive"), std::string::npos);
    // Each refused value is reported against the one that stays.
    ASSERT_EQ(out.events.size(), 2u);
    for (const auto& e : out.events) {
        EXPECT_FALSE(e.ok);
        EXPECT_EQ(e.oldValue, "fffff") << e.resource << ":" << e.domain;
    }
}
