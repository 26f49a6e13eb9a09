// SPDX-License-Identifier: GPL-3.0-or-later
// tmaSince: a step's own TMA shares from two cumulative totals of one capture (slot-weighted difference).
#include "lesson/PmuMeasurements.h"

#include <gtest/gtest.h>

using rdt::lesson::tmaSince;
using rdt::pmu::TmaBreakdown;

namespace {
TmaBreakdown total(double slots, double frontend, double backend)
{
    TmaBreakdown t;
    t.valid = true;
    t.slots = slots;
    t.level1.frontendBound = frontend;
    t.level1.backendBound = backend;
    t.level1.retiring = 1 - frontend - backend;
    return t;
}
} // namespace

TEST(LessonTmaSince, SharesOfTheSlotsCountedAfterTheEarlierTotal)
{
    // 100 slots at 20 % backend, then 200 more: 40 % over all 300 means 50 % of the last 200.
    const auto step = tmaSince(total(300, 0.1, 0.4), total(100, 0.1, 0.2));
    ASSERT_TRUE(step.valid);
    EXPECT_DOUBLE_EQ(step.slots, 200);
    EXPECT_DOUBLE_EQ(step.level1.backendBound, 0.5);
    EXPECT_DOUBLE_EQ(step.level1.frontendBound, 0.1);
    EXPECT_NEAR(step.level1.retiring, 0.4, 1e-12);
}

TEST(LessonTmaSince, NothingBeforeIsTheTotalAndNothingSinceIsNotAShare)
{
    const auto now = total(300, 0.1, 0.4);
    EXPECT_DOUBLE_EQ(tmaSince(now, TmaBreakdown {}).level1.backendBound, 0.4);
    const auto none = tmaSince(now, now);
    EXPECT_FALSE(none.valid);
    EXPECT_FALSE(none.note.empty());
}
