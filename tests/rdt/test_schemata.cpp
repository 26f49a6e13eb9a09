// SPDX-License-Identifier: GPL-3.0-or-later
#include "rdt/Schemata.h"

#include <gtest/gtest.h>

using namespace rdt;

namespace {
struct ParseCase {
    const char* text;
    const char* resource;
    int domain;
    const char* value;
};
}

// What real kernels write (docs/RESCTRL.md "Group files"; the goresctrl trees): padding, gaps, CDP names, trailing ';'.
TEST(Schemata, TolerantParseTable)
{
    const ParseCase cases[] = {
        { "    L3:0=00fff\nL2DATA:0=fffff;1=fffff\n", "L3", 0, "fff" },
        { "    L3:0=00fff\nL2DATA:0=fffff;1=fffff\n", "L2DATA", 1, "fffff" },
        { "MB:0=  100;1=  50\n", "MB", 1, "50" },
        { "    MB:0=4294967295;1=4294967295\n", "MB", 0, "4294967295" },
        { "L3:0=7ff;2=7ff;3=0f0\n", "L3", 3, "f0" }, // gap in domain ids
        { "L3DATA:2=3c0;\n", "L3DATA", 2, "3c0" }, // trailing ';'
        { "L3CODE:0=ff;1=ff\nL3DATA:0=f0;1=f0\n", "L3CODE", 1, "ff" },
        { "\n\nL3:0=FFF\r\n", "L3", 0, "fff" },
        { "  L3 : 0 = 0x7ff ; 1 = 7ff", "L3", 0, "7ff" },
        { "SMBA:0=2048\n", "SMBA", 0, "2048" },
    };
    for (const auto& c : cases) {
        auto s = Schemata::parse(c.text);
        ASSERT_TRUE(s.ok()) << c.text;
        auto v = s->value(c.resource, c.domain);
        ASSERT_TRUE(v.has_value()) << c.text;
        EXPECT_EQ(*v, c.value) << c.text;
    }
}

TEST(Schemata, GapsAreKeptAndMissingDomainsAbsent)
{
    auto s = Schemata::parse("L3:0=7ff;2=7ff;3=0f0\n");
    ASSERT_TRUE(s.ok());
    EXPECT_FALSE(s->value("L3", 1).has_value());
    EXPECT_EQ(s->line("L3")->values.size(), 3u);
}

TEST(Schemata, TolerantParseKeepsGoodLinesAndWarnsAboutBadOnes)
{
    auto s = Schemata::parse("L3:0=fff\ngarbage line\nMB:x=10\nL3:uninitialized\n");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->value("L3", 0).value_or(""), "fff");
    EXPECT_EQ(s->warnings().size(), 2u);
    EXPECT_NE(s->warnings()[0].find("Missing ':'"), std::string::npos);
    EXPECT_NE(s->warnings()[1].find("non-numeric domain"), std::string::npos);
}

TEST(Schemata, NothingUsableIsAnError)
{
    EXPECT_FALSE(Schemata::parse("total nonsense").ok());
    EXPECT_TRUE(Schemata::parse("").ok());
}

TEST(Schemata, StrictParseRejectsWithKernelLikeMessages)
{
    const std::pair<const char*, const char*> cases[] = {
        { "L3", "Missing ':'" },
        { "L3:", "Missing 'L3' value" },
        { "L3:0=xyz", "Non-hex character in the mask xyz" },
        { "L3:a=ff", "Missing '=' or non-numeric domain" },
        { "L3:0=ff;0=f0", "Duplicate domain 0" },
        { "MB:0=ten", "Invalid MB value ten" },
        { "L3:0=ff\nL3:1=ff", "Duplicate resource L3" },
    };
    for (const auto& [text, msg] : cases) {
        auto s = Schemata::parseStrict(text);
        ASSERT_FALSE(s.ok()) << text;
        EXPECT_NE(s.error().message.find(msg), std::string::npos) << text << " -> " << s.error().message;
    }
}

TEST(Schemata, FormatEndsEveryLineWithNewlineAndRoundTrips)
{
    auto s = Schemata::parse("    L3:0=00fff;1=0ff0\nMB:0=  100;1=  50\n");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->format(), "L3:0=fff;1=ff0\nMB:0=100;1=50\n");
    auto again = Schemata::parse(s->format());
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(*again == *s);
    EXPECT_EQ(Schemata::formatValue("L3DATA", 2, "3c0"), "L3DATA:2=3c0\n");
}

TEST(Schemata, SetAddsAndReplaces)
{
    Schemata s;
    s.set("L3", 1, "f0");
    s.set("MB", 0, "50");
    s.set("L3", 1, "ff");
    EXPECT_EQ(s.format(), "L3:1=ff\nMB:0=50\n");
}
