// SPDX-License-Identifier: GPL-3.0-or-later
// The one GROUP=W parser (experiment/GroupWeight.h) the CLI's `advise --weight` and the GUI use.
#include "experiment/GroupWeight.h"

#include <gtest/gtest.h>

using namespace rdt::experiment;

TEST(GroupWeight, ReadsTheGroupAndTheWholeNumberAfterTheFirstEquals)
{
    const auto w = parseGroupWeight("victim=2.5");
    ASSERT_TRUE(w) << w.error().toString();
    EXPECT_EQ(w->group, "victim");
    EXPECT_DOUBLE_EQ(w->weight, 2.5);
    const auto zero = parseGroupWeight("default=0");
    ASSERT_TRUE(zero);
    EXPECT_EQ(zero->group, "default"); // as typed: the caller maps it to the root group's path
    EXPECT_DOUBLE_EQ(zero->weight, 0);
}

TEST(GroupWeight, RefusesWhatIsNotGroupEqualsAWeightInRange)
{
    for (const char* bad :
        { "victim", "victim=", "victim=2x", "victim=-1", "victim=1e7", "victim=nan", "victim=inf" }) {
        const auto w = parseGroupWeight(bad);
        ASSERT_FALSE(w) << bad;
        EXPECT_EQ(w.error().code, EINVAL) << bad;
        EXPECT_NE(w.error().advice.find("--weight"), std::string::npos) << bad;
    }
}
