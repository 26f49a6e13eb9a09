// SPDX-License-Identifier: GPL-3.0-or-later
// The one CPU/PID list parser: the kernel's %*pbl and %*pb formats, 64-bit-safe bounds, linear verification.
#include "core/IdList.h"

#include <gtest/gtest.h>

#include <string>

using namespace rdt;

namespace {

struct ListCase {
    const char* text;
    std::uint64_t end; ///< ids must be below this
    bool ok;
    std::vector<unsigned> ids;
    const char* messagePart; ///< for failures: a piece of the message
};

} // namespace

TEST(IdList, TableOfListsAndBounds)
{
    const ListCase cases[] = {
        { "0-3,8,10-11", 16, true, { 0, 1, 2, 3, 8, 10, 11 }, "" },
        { "0-3,8, 10-11,2\n", 16, true, { 0, 1, 2, 3, 8, 10, 11 }, "" }, // blanks, newline, overlap
        { "", 16, true, {}, "" },
        { " \n", 16, true, {}, "" },
        { "5-7,0-6", 16, true, { 0, 1, 2, 3, 4, 5, 6, 7 }, "" }, // overlapping ranges merge
        { "15", 16, true, { 15 }, "" },
        { "16", 16, false, {}, "CPU 16 is out of range" },
        { "4294967295", 8, false, {}, "CPU 4294967295 is out of range" },
        { "0-4294967295", 8, false, {}, "CPU 4294967295 is out of range" },
        { "0-18446744073709551615", 8, false, {}, "out of range" },
        { "18446744073709551616", 8, false, {}, "too large" }, // 2^64 does not wrap to 0
        { "99999999999999999999999", 8, false, {}, "too large" },
        { "3-1", 16, false, {}, "reversed range" },
        { "a", 16, false, {}, "bad number" },
        { "a-b", 16, false, {}, "bad range" },
        { "-3", 16, false, {}, "bad range" },
        { "1,,2", 16, false, {}, "empty item" },
        { "1,", 16, false, {}, "empty item" },
        { "0-15:2/4", 16, false, {}, "strided" },
        { "+1", 16, false, {}, "bad number" },
        { "0x3", 16, false, {}, "bad number" },
    };
    for (const auto& c : cases) {
        auto r = parseIdList(c.text, cpuBound(c.end));
        ASSERT_EQ(r.ok(), c.ok) << "'" << c.text << "'";
        if (c.ok) {
            EXPECT_EQ(*r, c.ids) << "'" << c.text << "'";
        } else {
            EXPECT_NE(r.error().message.find(c.messagePart), std::string::npos)
                << "'" << c.text << "': " << r.error().message;
            EXPECT_FALSE(r.error().advice.empty() && c.end > 0) << "a bound error says what the range is";
        }
    }
}

TEST(IdList, BoundSaysWhereItComesFrom)
{
    auto r = parseIdList("4294967295", cpuBound(8));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().advice, "this machine has CPUs 0-7");
    auto p = parseIdList("5000000", pidBound());
    ASSERT_FALSE(p.ok());
    EXPECT_NE(p.error().message.find("PID 5000000"), std::string::npos);
    EXPECT_NE(p.error().advice.find("pid_max"), std::string::npos);
    EXPECT_LE(systemPidMax(), kPidCeiling);
}

TEST(IdList, HugeValidListIsLinear)
{
    // Every PID up to the ceiling: 4 Mi ids, merged from overlapping ranges. A quadratic merge or check would
    // not finish; the assertions are on the result, the shape of the input makes a slow path obvious.
    auto r = parseIdList("0-4194303,0-4194303,17", kernelPidBound());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->size(), 4194304u);
    EXPECT_EQ(r->back(), 4194303u);
    EXPECT_TRUE(missingIds(*r, *r).empty());
}

TEST(IdList, FormatRoundTrips)
{
    EXPECT_EQ(formatIdList({ 11, 0, 1, 2, 3, 8, 10, 3 }), "0-3,8,10-11");
    EXPECT_EQ(formatIdList({ 5 }), "5");
    EXPECT_EQ(formatIdList({}), "");
    auto again = parseIdList(formatIdList({ 0, 2, 3, 4, 9 }), cpuBound(16));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, (std::vector<unsigned> { 0, 2, 3, 4, 9 }));
}

TEST(IdList, CpuMaskWordsMostSignificantFirst)
{
    auto cpus = parseCpuMask("00000001,80000001\n", cpuBound(64));
    ASSERT_TRUE(cpus.ok());
    EXPECT_EQ(*cpus, (std::vector<unsigned> { 0, 31, 32 }));
    auto none = parseCpuMask("00000000,00000000", cpuBound(64));
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->empty());
    EXPECT_FALSE(parseCpuMask("zz", cpuBound(64)).ok());
    EXPECT_FALSE(parseCpuMask("100000000", cpuBound(64)).ok()) << "words are 32 bits";
    auto high = parseCpuMask("1,00000000", cpuBound(32));
    ASSERT_FALSE(high.ok());
    EXPECT_NE(high.error().message.find("CPU 32 is out of range"), std::string::npos);
}

TEST(IdList, TaskList)
{
    auto t = parseTaskList("22\n1\n\n333\n22\n", kernelPidBound());
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(*t, (std::vector<unsigned> { 1, 22, 333 }));
    EXPECT_FALSE(parseTaskList("12\nx\n", kernelPidBound()).ok());
    EXPECT_FALSE(parseTaskList("99999999999999999999\n", kernelPidBound()).ok());
}

TEST(IdList, MissingIdsAndExamples)
{
    EXPECT_EQ(missingIds({ 1, 2, 5, 9 }, { 0, 1, 2, 3 }), (std::vector<unsigned> { 5, 9 }));
    EXPECT_EQ(idExamples({ 5, 9 }), "5, 9");
    EXPECT_EQ(idExamples({ 1, 2, 3, 4 }, 2), "1, 2 and 2 more");
}
