// SPDX-License-Identifier: GPL-3.0-or-later
#include "rdt/Sample.h"
#include "rdt/SampleCsv.h"
#include "rdt/SampleFlags.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using rdt::sampleCsvLine;

TEST(SampleCsv, RowMatchesTheHeaderColumns)
{
    const std::string line = sampleCsvLine({ 1.5, "victim", 2, 4096, 1.25e9, 1e9, {} });
    EXPECT_EQ(line, "1.500,victim,2,4096,1250000000,1000000000\n");
    const std::string header = rdt::kSampleCsvHeader;
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), std::count(header.begin(), header.end(), ','));
}

TEST(SampleCsv, DefaultGroupNamedAndOddNamesQuoted)
{
    EXPECT_EQ(sampleCsvLine({ 0, "", 0, 0, 0, 0, {} }), "0.000,default,0,0,0,0\n");
    EXPECT_EQ(sampleCsvLine({ 0, "a,\"b\"", 1, 0, 0, 0, {} }), "0.000,\"a,\"\"b\"\"\",1,0,0,0\n");
}

TEST(SampleCsv, SummedRowHasAnEmptyDomain)
{
    EXPECT_EQ(sampleCsvLine({ 30, "streamer", std::nullopt, 1, 2, 3, {} }), "30.000,streamer,,1,2,3\n");
    // monitor --nodes: the SNC node after the domain, as kNodeSampleCsvHeader has it.
    EXPECT_EQ(sampleCsvLine({ 1, "victim", 2, 5, 6, 7, 1 }), "1.000,victim,2,1,5,6,7\n");
}

// One table of flag names for `monitor`, `replay` and the GUI's Monitor (rdt/SampleFlags.h).
TEST(SampleFlags, LettersAndWords)
{
    EXPECT_EQ(rdt::sampleFlagLetters(0), "-");
    EXPECT_EQ(rdt::sampleFlagLetters(rdt::SampleFirst), "-"); // not a table flag
    EXPECT_EQ(rdt::sampleFlagLetters(rdt::SampleOccupancyError | rdt::SampleMbmError), "E"); // once
    EXPECT_EQ(rdt::sampleFlagLetters(rdt::SampleWrapped | rdt::SampleOverflowBit | rdt::SampleCounterReset), "WOR");
    EXPECT_EQ(rdt::sampleFlagWords(0), "");
    EXPECT_EQ(rdt::sampleFlagWords(rdt::SampleWrapped | rdt::SampleOverflowBit),
        "counter wrapped (corrected), overflow bit set (IA32_QM_CTR bit 61)");
}
