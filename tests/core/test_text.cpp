// SPDX-License-Identifier: GPL-3.0-or-later
// The shared text helpers (core/Text.h): one table per helper.
#include "core/Text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

using namespace rdt;

TEST(Text, HexSpellings)
{
    const struct {
        std::uint64_t value;
        const char* digits;
        const char* prefixed;
    } cases[] = {
        { 0, "0", "0x0" },
        { 0x7ff, "7ff", "0x7ff" },
        { 0xfffff, "fffff", "0xfffff" },
        { 0x10, "10", "0x10" },
        { 0xdeadbeefcafef00dull, "deadbeefcafef00d", "0xdeadbeefcafef00d" },
        { std::numeric_limits<std::uint64_t>::max(), "ffffffffffffffff", "0xffffffffffffffff" },
    };
    for (const auto& c : cases) {
        EXPECT_EQ(hexDigits(c.value), c.digits);
        EXPECT_EQ(formatHex(c.value), c.prefixed);
    }
}

TEST(Text, PaddedHexKeepsTheWidthAndNeverCutsAWiderValue)
{
    EXPECT_EQ(formatHexPadded(0xd, 8), "0x0000000d");
    EXPECT_EQ(formatHexPadded(0x80000020, 8), "0x80000020");
    EXPECT_EQ(formatHexPadded(0x123456789, 8), "0x123456789");
    EXPECT_EQ(formatHexPadded(0, 2), "0x00");
}

TEST(Text, HexBytesKeepsMemoryOrderAndLeadingZeros)
{
    const std::uint8_t bytes[] = { 0x00, 0x0f, 0xa0, 0xff };
    EXPECT_EQ(hexBytes(bytes, 4), "000fa0ff");
    EXPECT_EQ(hexBytes(bytes, 0), "");
}

TEST(Text, TrimTable)
{
    const std::pair<const char*, const char*> cases[] = {
        { "", "" },
        { "   ", "" },
        { "7ff\n", "7ff" },
        { "  L3:0=ff \t\r\n", "L3:0=ff" },
        { "\v\fexclusive\f", "exclusive" },
        { "a b", "a b" },
        { "x", "x" },
    };
    for (const auto& [in, out] : cases)
        EXPECT_EQ(trim(in), out) << '"' << in << '"';
}

// printf into a string of any length: the text reports used 512- and 1024-byte buffers that cut long demangled
// C++ names (issue #17).
TEST(Text, FormatStringHasNoLengthLimit)
{
    const std::string name(2000, 'x');
    const std::string out = rdt::formatString("%s() %d %.1f", name.c_str(), 42, 1.5);
    EXPECT_EQ(out.size(), 2000u + 9u);
    EXPECT_EQ(out.substr(0, 2000), name);
    EXPECT_EQ(out.substr(2000), "() 42 1.5");
    EXPECT_EQ(rdt::formatString("%s", ""), "");
}
