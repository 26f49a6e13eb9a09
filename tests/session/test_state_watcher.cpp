// SPDX-License-Identifier: GPL-3.0-or-later
// StateWatcher over the simulated machine (the same resctrl backend code as real hardware): the first poll is the
// initial state, later polls report exactly what changed.
#include "engine/SourceAssembly.h"
#include "rdt/RdtSource.h"
#include "session/StateWatcher.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::session;

TEST(StateWatcher, ReportsTheInitialStateThenOnlyChanges)
{
    RdtSourceOptions o;
    o.spec = "sim";
    o.scenario = "noisy-neighbour";
    auto src = openRdtSource(o);
    if (!src) GTEST_SKIP() << "sim source not built in: " << src.error().toString();
    StateWatcher watcher(*src->backend);
    auto first = watcher.poll(0);
    ASSERT_FALSE(first.allocations.empty());
    for (const auto& a : first.allocations) {
        EXPECT_EQ(a.who, "initial");
        EXPECT_TRUE(a.oldValue.empty());
        EXPECT_FALSE(a.newValue.empty());
    }
    EXPECT_FALSE(first.memberships.empty());
    auto quiet = watcher.poll(1);
    EXPECT_TRUE(quiet.allocations.empty());
    EXPECT_TRUE(quiet.memberships.empty());

    // Change one L3 value of a control group behind the watcher's back.
    const AllocationChanged* l3 = nullptr;
    for (const auto& a : first.allocations)
        if (a.resource == "L3" && !a.group.empty()) {
            l3 = &a;
            break;
        }
    ASSERT_NE(l3, nullptr);
    const std::string newValue = l3->newValue == "3" ? "f" : "3";
    auto change = Schemata::parseStrict("L3:" + std::to_string(l3->domain) + "=" + newValue + "\n");
    ASSERT_TRUE(change.ok());
    ASSERT_TRUE(src->backend->applySchemata(l3->group, *change).ok());
    auto after = watcher.poll(2);
    ASSERT_EQ(after.allocations.size(), 1u);
    EXPECT_EQ(after.allocations[0].who, "observed");
    EXPECT_EQ(after.allocations[0].group, l3->group);
    EXPECT_EQ(after.allocations[0].oldValue, l3->newValue);
    EXPECT_EQ(after.allocations[0].newValue, newValue);
    EXPECT_EQ(after.allocations[0].timeNs, 2u);
}

TEST(StateWatcher, CompressesIdLists)
{
    EXPECT_EQ(compressIdList({ 3, 0, 1, 2, 8, 10, 11 }), "0-3,8,10-11");
    EXPECT_EQ(compressIdList({}), "");
    EXPECT_EQ(compressIdList({ 5, 5 }), "5");
}
