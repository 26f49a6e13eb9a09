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

TEST(GroupWeight, ReadsAListAsTheGuiTakesIt)
{
    const auto list = parseGroupWeights(" victim = 3, streamer=1 ,");
    ASSERT_TRUE(list) << list.error().toString();
    ASSERT_EQ(list->size(), 2u);
    EXPECT_EQ((*list)[0].group, "victim");
    EXPECT_DOUBLE_EQ((*list)[0].weight, 3);
    EXPECT_EQ((*list)[1].group, "streamer");
    EXPECT_DOUBLE_EQ((*list)[1].weight, 1);
    // Keyed by path as the advisor takes them: the user's "default" is the root group.
    const auto byPath = weightsByPath(*parseGroupWeights("default=2,victim=3"));
    EXPECT_EQ(byPath, (std::map<std::string, double> { { "", 2.0 }, { "victim", 3.0 } }));
    const auto empty = parseGroupWeights("");
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->empty());
}

TEST(GroupWeight, RefusesAListWithABadItemOrAGroupTwice)
{
    const auto bad = parseGroupWeights("victim=3,streamer");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("'streamer'"), std::string::npos) << bad.error().toString();
    const auto twice = parseGroupWeights("victim=3,streamer=1,victim=2");
    ASSERT_FALSE(twice);
    EXPECT_EQ(twice.error().code, EINVAL);
    EXPECT_NE(twice.error().message.find("victim"), std::string::npos) << twice.error().toString();
    EXPECT_FALSE(parseGroupWeight("=2")) << "a weight for no group";
}
