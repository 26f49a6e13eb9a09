// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson expressions: arithmetic, functions of groups, variables, and what cannot be measured.
#include "lesson/LessonExpr.h"

#include <gtest/gtest.h>

#include <map>

using namespace rdt;
using namespace rdt::lesson;

namespace {

class FakeMeasurements final : public Measurements {
public:
    std::map<std::string, double> metrics; ///< "occupancy(victim)"
    std::map<std::string, double> variables;
    std::optional<double> metric(
        const std::string& f, const std::vector<std::string>& args, std::string& why) const override
    {
        std::string key = f + "(";
        for (std::size_t i = 0; i < args.size(); ++i)
            key += (i ? "," : "") + args[i];
        key += ")";
        auto it = metrics.find(key);
        if (it == metrics.end()) {
            why = key + " has no samples";
            return std::nullopt;
        }
        return it->second;
    }
    std::optional<double> variable(const std::string& n, std::string& why) const override
    {
        auto it = variables.find(n);
        if (it == variables.end()) {
            why = "not remembered";
            return std::nullopt;
        }
        return it->second;
    }
};

double eval(const std::string& text, const Measurements& m)
{
    auto e = parseExpr(text);
    EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().message);
    if (!e) return -1;
    auto v = e->evaluate(m);
    EXPECT_TRUE(v.ok()) << text;
    return v ? *v : -1;
}

} // namespace

TEST(LessonExpr, ArithmeticFunctionsAndVariables)
{
    FakeMeasurements m;
    m.metrics["occupancy(victim)"] = 16;
    m.metrics["ways(frontend,L3CODE)"] = 8;
    m.variables["before"] = 4;
    EXPECT_DOUBLE_EQ(eval("1 + 2 * 3", m), 7);
    EXPECT_DOUBLE_EQ(eval("(1 + 2) * 3", m), 9);
    EXPECT_DOUBLE_EQ(eval("-2 + 10 / 4", m), 0.5);
    EXPECT_DOUBLE_EQ(eval("occupancy(victim) / $before", m), 4);
    EXPECT_DOUBLE_EQ(eval("ways(frontend, L3CODE) - 1", m), 7);
    EXPECT_DOUBLE_EQ(eval("8 - 2 - 1", m), 5) << "left associative";
}

TEST(LessonExpr, ConditionsCompare)
{
    FakeMeasurements m;
    m.metrics["occupancy(victim)"] = 16;
    m.variables["before"] = 4;
    for (const auto& [text, expected] : std::vector<std::pair<std::string, bool>> {
             { "occupancy(victim) > 2 * $before", true }, { "occupancy(victim) <= 15.9", false },
             { "occupancy(victim) >= 16", true }, { "occupancy(victim) == 16", true }, { "1 < 0", false } }) {
        auto c = parseCondition(text);
        ASSERT_TRUE(c.ok()) << text;
        auto held = c->evaluate(m);
        ASSERT_TRUE(held.ok()) << text;
        EXPECT_EQ(*held, expected) << text;
    }
}

TEST(LessonExpr, UnmeasuredValuesAreErrorsNotZeros)
{
    FakeMeasurements m;
    auto e = parseExpr("bandwidth(nobody) + 1");
    ASSERT_TRUE(e.ok());
    auto v = e->evaluate(m);
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.error().message.find("bandwidth(nobody) has no samples"), std::string::npos) << v.error().message;
    auto var = parseExpr("$never")->evaluate(m);
    ASSERT_FALSE(var.ok());
    EXPECT_NE(var.error().message.find("$never"), std::string::npos);
    m.metrics["bandwidth(g)"] = 0;
    auto div = parseExpr("1 / bandwidth(g)")->evaluate(m);
    EXPECT_FALSE(div.ok()) << "division by a measured zero says so";
}

TEST(LessonExpr, ParseErrorsSayWhere)
{
    for (const auto& [text, says] :
        std::vector<std::pair<std::string, std::string>> { { "occupancy(victim", "expected ')'" },
            { "frobnicate(x)", "unknown function 'frobnicate'" }, { "1 +", "expected a value" },
            { "2 3", "unexpected '3'" }, { "$", "expected a name" }, { "occupancy victim", "expected '('" } }) {
        auto e = parseExpr(text);
        ASSERT_FALSE(e.ok()) << text;
        EXPECT_NE(e.error().message.find(says), std::string::npos) << text << " -> " << e.error().message;
        EXPECT_NE(e.error().message.find("column"), std::string::npos) << e.error().message;
    }
    EXPECT_FALSE(parseCondition("occupancy(victim) = 3").ok()) << "a single '=' is not a comparison";
}
