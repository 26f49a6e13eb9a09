// SPDX-License-Identifier: GPL-3.0-or-later
// core/Json: the rules rdtscope adds on top of nlohmann::json, and the defects of the hand-written parser it
// replaced (surrogate pairs, the locale, unbounded nesting).
#include "CommaLocale.h"

#include "core/Json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

using namespace rdt;

TEST(Json, SurrogatePairBecomesOneUtf8Character)
{
    // U+1F600 escaped as a UTF-16 surrogate pair; the old parser wrote each half as its own (invalid) sequence.
    auto v = json::parse(R"("smile \ud83d\ude00!")");
    ASSERT_TRUE(v.ok()) << v.error().toString();
    EXPECT_EQ(v->get<std::string>(), "smile \xF0\x9F\x98\x80!");
    // Written back it stays the same four bytes, and reads back equal.
    const std::string text = json::dump(json::Ordered(v->get<std::string>()));
    EXPECT_EQ(text, "\"smile \xF0\x9F\x98\x80!\"");
    auto back = json::parse(text);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, *v);
    // A lone high surrogate is an error, not a broken byte sequence.
    EXPECT_FALSE(json::parse(R"("\ud83d")").ok());
}

TEST(Json, NumbersIgnoreTheLocale)
{
    test::CommaLocale comma;
    if (!comma.active()) GTEST_SKIP() << "localedef could not build de_DE.UTF-8 (no locale sources)";
    auto v = json::parse(R"({"a": 1.5, "b": [-2.25e1]})");
    ASSERT_TRUE(v.ok()) << v.error().toString();
    EXPECT_EQ(v->at("a").get<double>(), 1.5);
    EXPECT_EQ(v->at("b").at(0).get<double>(), -22.5);
    // Writing as well: a comma would make the document invalid.
    EXPECT_EQ(json::dump(json::number(1.5)), "1.5");
    EXPECT_EQ(json::dump(json::number(1.23456789012, 4)), "1.235");
}

TEST(Json, DeepNestingIsRefusedWithAnError)
{
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    auto v = json::parse(deep);
    ASSERT_FALSE(v.ok());
    // The 65th bracket (offset 64) is the first one too deep.
    EXPECT_NE(v.error().toString().find("at byte 64: nesting deeper than 64 levels"), std::string::npos)
        << v.error().toString();
    std::string objects;
    for (int i = 0; i < 100000; ++i)
        objects += "{\"a\":";
    EXPECT_FALSE(json::parse(objects + "1" + std::string(100000, '}')).ok());
    // 64 levels are fine.
    EXPECT_TRUE(json::parse(std::string(64, '[') + std::string(64, ']')).ok());
    EXPECT_FALSE(json::parse(std::string(65, '[') + std::string(65, ']')).ok());
}

TEST(Json, ErrorsNameTheByteOffset)
{
    auto v = json::parse("[1 2]");
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.error().toString().find("invalid JSON at byte 3: "), std::string::npos) << v.error().toString();
    EXPECT_FALSE(json::parse("{\"a\":1,}").ok());
    EXPECT_FALSE(json::parse("tru").ok());
    EXPECT_FALSE(json::parse("{} x").ok()) << "trailing characters";
    EXPECT_FALSE(json::parse("").ok());
    auto n = json::parse(" {\"a\":[1,2.5,-3e2,true,false,null]} ");
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(n->at("a").size(), 6u);
    EXPECT_EQ(n->at("a").at(2).get<double>(), -300.0);
}

TEST(Json, DumpEscapesAndNeverThrows)
{
    const std::string s = "a\"b\\c\nd\te\x01";
    EXPECT_EQ(json::dump(json::Ordered(s)), R"("a\"b\\c\nd\te\u0001")");
    auto back = json::parse(json::dump(json::Ordered(s)));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->get<std::string>(), s);
    // A byte that is not UTF-8 (a damaged group name) becomes U+FFFD; the document stays valid.
    EXPECT_EQ(json::dump(json::Ordered("g\xff")), "\"g\xEF\xBF\xBD\"");
}

TEST(Json, NumbersAsRdtscopeWritesThem)
{
    auto text = [](double v, int digits = 17) { return json::dump(json::number(v, digits)); };
    EXPECT_EQ(text(std::numeric_limits<double>::quiet_NaN()), "null");
    EXPECT_EQ(text(std::numeric_limits<double>::infinity()), "null");
    EXPECT_EQ(text(3.0), "3");
    EXPECT_EQ(text(-42.0), "-42");
    EXPECT_EQ(text(0.1), "0.1");
    EXPECT_EQ(text(1.0 / 3.0), "0.3333333333333333");
    EXPECT_EQ(text(1.0 / 3.0, 10), "0.3333333333");
    EXPECT_EQ(text(2.0 / 3.0, 10), "0.6666666667");
    EXPECT_EQ(text(1e300), "1e+300");
}

TEST(Json, DumpLinedPutsEachElementOnItsOwnLine)
{
    const json::Ordered doc = { { "format", "x" }, { "version", 1 }, { "meta", { { "k", "v" } } },
        { "rows", { { { "a", 1 } }, { { "a", 2 } } } } };
    EXPECT_EQ(json::dumpLined(doc, "rows"),
        "{\"format\":\"x\",\"version\":1,\n\"meta\":{\"k\":\"v\"},\n\"rows\":[\n"
        "{\"a\":1},\n{\"a\":2}\n]}\n");
    EXPECT_EQ(json::dumpLined({ { "rows", json::Ordered::array() } }, "rows"), "{\"rows\":[\n]}\n");
}
