// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/Csv.h"

#include <gtest/gtest.h>

using rdt::csvField;

TEST(CsvField, PlainTextIsUnchanged)
{
    EXPECT_EQ(csvField("victim"), "victim");
    EXPECT_EQ(csvField(""), "");
    EXPECT_EQ(csvField("mon_groups/a b"), "mon_groups/a b");
}

TEST(CsvField, SeparatorsAndQuotesAreQuoted)
{
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\r"), "\"cr\r\"");
    EXPECT_EQ(csvField("\""), "\"\"\"\"");
}
