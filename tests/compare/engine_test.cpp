// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison engine's parts without files: window parsing, row arithmetic, sorting (the percentile sketch is
// tested in tests/core/test_percentile_sketch.cpp).

#include "compare/Compare.h"
#include "compare/CompareFormat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace rdt::compare;

TEST(CompareWindow, ParsesRangesAndRejectsNonsense)
{
    auto w = parseWindowRange("10..20");
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->kind, Window::Kind::Range);
    EXPECT_EQ(w->fromS, 10.0);
    EXPECT_EQ(w->toS, 20.0);
    auto open = parseWindowRange("..2.5");
    ASSERT_TRUE(open.ok());
    EXPECT_FALSE(open->fromS.has_value());
    EXPECT_EQ(open->toS, 2.5);
    EXPECT_FALSE(parseWindowRange("20..10").ok());
    EXPECT_FALSE(parseWindowRange("ten..20").ok());
    EXPECT_FALSE(parseWindowRange("10-20").ok());
    EXPECT_FALSE(parseWindowRange("1e999..").ok());
    EXPECT_FALSE(parseWindowRange("-5..3").ok());
    EXPECT_TRUE(parseMarkerWindow("Fence,Cap").ok());
    EXPECT_FALSE(parseMarkerWindow("Fence").ok());
    EXPECT_FALSE(parseMarkerWindow(",Cap").ok());
}

TEST(CompareRows, ShareRowsFollowPerfDiff)
{
    DiffRow r;
    r.unit = "%";
    r.a = 20;
    r.countA = 200;
    r.b = 30;
    r.countB = 600;
    EXPECT_DOUBLE_EQ(*r.delta(), 10); // points
    EXPECT_DOUBLE_EQ(*r.ratio(), 3); // counts, not shares
    DiffRow onlyB = r;
    onlyB.a.reset();
    onlyB.countA.reset();
    EXPECT_DOUBLE_EQ(*onlyB.delta(), 30); // a missing side counts as 0
    EXPECT_FALSE(onlyB.ratio());
    DiffRow level;
    level.unit = "bytes";
    level.a = 4;
    EXPECT_FALSE(level.delta());
    EXPECT_DOUBLE_EQ(level.changeScore(), 2.0);
}

TEST(CompareProfiles, AlignsGroupsByNameAndDomainAndListsOneSidedGroups)
{
    Profile a, b;
    a.kind = b.kind = "session";
    auto series = [](std::string g, int d, double occ, double bw) {
        RdtSeries s;
        s.group = std::move(g);
        s.domain = d;
        s.occupancy = { 10, occ, occ };
        s.totalBw = s.localBw = { 10, bw, bw };
        return s;
    };
    a.rdt = { series("victim", 0, 4e6, 4e9), series("victim", 1, 1e6, 1e9), series("old", 0, 1, 1) };
    b.rdt = { series("victim", 0, 16e6, 1e7), series("victim", 1, 1e6, 1e9), series("new", 0, 1, 1) };
    a.family = b.family = 6;
    a.model = 85;
    b.model = 106;
    const Comparison c = compareProfiles(a, b);
    auto has = [&](const std::string& kind) {
        return std::any_of(c.mismatches.begin(), c.mismatches.end(), [&](const Mismatch& m) { return m.kind == kind; });
    };
    EXPECT_TRUE(has("group-only-in-a"));
    EXPECT_TRUE(has("group-only-in-b"));
    EXPECT_TRUE(has("machine"));
    // Largest change first: victim/0 (occupancy x4) before victim/1 (unchanged).
    std::vector<std::pair<std::string, int>> order;
    for (const auto& r : c.rows)
        if (r.section == Section::Rdt && (order.empty() || order.back() != std::pair { r.group, r.domain }))
            order.emplace_back(r.group, r.domain);
    ASSERT_GE(order.size(), 4u);
    EXPECT_EQ(order.back(), (std::pair<std::string, int> { "victim", 1 }));
    const auto* occ = &c.rows.front();
    for (const auto& r : c.rows)
        if (r.group == "victim" && r.domain == 0 && r.metric == "occupancy_mean") occ = &r;
    EXPECT_DOUBLE_EQ(*occ->ratio(), 4.0);
    EXPECT_EQ(topItems(c.rows, 1).size(), 6u); // one item: the six metrics of one group and domain
}
