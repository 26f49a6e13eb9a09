// SPDX-License-Identifier: GPL-3.0-or-later
// The one group-name rule, and the backends applying it at every entry point.
#include "rdt/GroupNames.h"

#include <gtest/gtest.h>

using namespace rdt;

TEST(GroupNames, NameTable)
{
    for (const char* ok : { "p0", "batch-jobs", "goresctrl.Guaranteed", "COS1", "a_b", "x" })
        EXPECT_TRUE(checkGroupName(ok).ok()) << ok;
    for (const char* bad : { "", ".", "..", "default", "info", "mon_groups", "mon_data", "a/b", "../x", "/tmp/x", "a b",
             "a\nb", "a\tb", "p0/" })
        EXPECT_FALSE(checkGroupName(bad).ok()) << bad;
    EXPECT_FALSE(checkGroupName(std::string(256, 'a')).ok());
    auto d = checkGroupName("default");
    ASSERT_FALSE(d.ok());
    EXPECT_NE(d.error().message.find("names the root group"), std::string::npos) << d.error().message;
    auto nl = checkGroupName("evil\nok 1");
    ASSERT_FALSE(nl.ok());
    EXPECT_EQ(nl.error().message.find('\n'), std::string::npos) << "a newline never reaches a message";
}

TEST(GroupNames, PathTable)
{
    for (const char* ok : { "", "p0", "mon_groups/m1", "p0/mon_groups/m1" })
        EXPECT_TRUE(checkGroupPath(ok).ok()) << ok;
    for (const char* bad : { "..", "../..", "../../tmp/x", "/tmp/x", "p0/schemata", "p0/mon_groups", "p0//mon_groups/m",
             "p0/mon_groups/m1/mon_groups/m2", "mon_groups/../p0", "info/L3", "p0/mon_data/mon_L3_00", "default",
             "p0/mon_groups/default", "a\n" })
        EXPECT_FALSE(checkGroupPath(bad).ok()) << bad;
}
