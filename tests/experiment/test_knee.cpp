// SPDX-License-Identifier: GPL-3.0-or-later
// The knee rule on plain curves: the smallest allocation within the tolerance of the best, flat curves, direction.
#include "experiment/Knee.h"
#include "experiment/SweepPlan.h"

#include <gtest/gtest.h>

using namespace rdt::experiment;

TEST(Knee, SmallestAllocationWithinToleranceOfTheBest)
{
    // Misses fall until 6 ways, then barely move.
    const std::vector<CurvePoint> misses { { 1, 100 }, { 2, 80 }, { 3, 60 }, { 4, 40 }, { 5, 20 }, { 6, 4 }, { 7, 1 },
        { 8, 0 } };
    const auto k = findKnee(misses, Better::Lower, 0.05);
    ASSERT_TRUE(k.found);
    EXPECT_FALSE(k.flat);
    EXPECT_EQ(k.x, 6);
    EXPECT_EQ(k.best, 0);
    EXPECT_EQ(k.worst, 100);
    // A tighter tolerance moves it up.
    EXPECT_EQ(findKnee(misses, Better::Lower, 0.01).x, 7);
    EXPECT_NE(k.explain("ways").find("within 5 %"), std::string::npos);
}

TEST(Knee, HigherIsBetterAndOrderDoesNotMatter)
{
    const std::vector<CurvePoint> occ { { 4, 9 }, { 1, 2 }, { 3, 8.7 }, { 2, 5 } };
    const auto k = findKnee(occ, Better::Higher, 0.05);
    EXPECT_EQ(k.x, 3);
    EXPECT_EQ(k.best, 9);
}

TEST(Knee, FlatCurveKneeIsTheMinimum)
{
    const std::vector<CurvePoint> bw { { 1, 23.2 }, { 2, 23.3 }, { 3, 23.25 }, { 4, 23.27 } };
    const auto k = findKnee(bw, Better::Lower, 0.05);
    EXPECT_TRUE(k.flat);
    EXPECT_EQ(k.x, 1);
    EXPECT_NE(k.explain("ways").find("flat"), std::string::npos);
    EXPECT_FALSE(k.zero);
    EXPECT_FALSE(findKnee({}, Better::Lower).found);
}

TEST(Knee, AllZeroCurveSaysNothingWasMeasured)
{
    // An idle group (or one whose tasks never ran) reads 0 at every step: flat, but not "more buys nothing".
    const auto k = findKnee({ { 1, 0 }, { 2, 0 }, { 3, 0 } }, Better::Higher);
    EXPECT_TRUE(k.found);
    EXPECT_TRUE(k.flat);
    EXPECT_TRUE(k.zero);
    EXPECT_EQ(k.explain("ways").find("buys nothing"), std::string::npos);
    EXPECT_NE(k.explain("ways").find("every step read 0"), std::string::npos);
}

TEST(SweepPlan, WayRunsStayInsideTheStartMask)
{
    EXPECT_EQ(wayRun(0x7ff, 3, true), 0x700u);
    EXPECT_EQ(wayRun(0x7ff, 3, false), 0x7u);
    EXPECT_EQ(wayRun(0x0f0, 2, true), 0x0c0u);
    EXPECT_EQ(wayRun(0x0f0, 2, false), 0x030u);
    EXPECT_EQ(wayRun(0x0f0, 4, true), 0x0f0u);
    EXPECT_EQ(wayRun(0, 4, true), 0u);
}

TEST(Knee, ExplainsWhichEndItTook)
{
    Knee k = findKnee({ { 1, 0 }, { 2, 10 } }, Better::Higher);
    EXPECT_NE(k.explain("ways").find("the smallest allocation"), std::string::npos);
    k.largest = true;
    EXPECT_NE(k.explain("% MB").find("the largest allocation"), std::string::npos);
}
