// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/Units.h"

#include <gtest/gtest.h>

using namespace rdt;

TEST(Units, Bytes)
{
    EXPECT_EQ(formatBytes(0), "0 B");
    EXPECT_EQ(formatBytes(512), "512 B");
    EXPECT_EQ(formatBytes(1536), "1.50 KiB");
    EXPECT_EQ(formatBytes(24.75 * 1024 * 1024), "24.75 MiB");
    EXPECT_EQ(formatBytes(1024.0 * 1024 * 1024), "1.00 GiB");
}

TEST(Units, Bandwidth)
{
    EXPECT_EQ(formatBandwidth(0), "0 B/s");
    EXPECT_EQ(formatBandwidth(950e6), "950.00 MB/s");
    EXPECT_EQ(formatBandwidth(12.34e9), "12.34 GB/s");
}

TEST(Units, CountsPercent)
{
    EXPECT_EQ(formatCount(950), "950");
    EXPECT_EQ(formatCount(4.56e6), "4.56 M");
    EXPECT_EQ(formatPercent(0.125), "12.5%");
}
