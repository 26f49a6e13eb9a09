// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor: the lookahead on plain curves (a curve that gains only after several ways is not starved, ways nobody
// gains from go to the most sensitive group), the layout under the hardware's rules, and end to end on the simulated
// noisy neighbour: the victim gets at least its knee, the streamer the minimum, and after applying the victim's
// measured occupancy is within 15 % of the prediction.
#include "engine/CaptureService.h"
#include "experiment/Advise.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <map>
#include <optional>

using namespace rdt;
using namespace rdt::experiment;

namespace {

GroupCurve curve(const std::string& group, const std::vector<double>& bpsFromOneWay)
{
    GroupCurve c;
    c.group = group;
    for (std::size_t i = 0; i < bpsFromOneWay.size(); ++i) {
        SweepStep s;
        s.value = i + 1;
        s.totalBps = bpsFromOneWay[i];
        s.occupancyBytes = 1e6 * static_cast<double>(i + 1);
        c.steps.push_back(s);
    }
    c.knee = findKnee(
        [&] {
            std::vector<CurvePoint> p;
            for (const auto& s : c.steps)
                p.push_back({ static_cast<double>(s.value), s.totalBps });
            return p;
        }(),
        Better::Lower);
    return c;
}

engine::GroupState group(const std::string& path, const std::string& l3)
{
    engine::GroupState g;
    g.info.path = path;
    g.info.name = path;
    g.info.mode = "shareable";
    g.schemata = *Schemata::parseStrict("L3:0=" + l3);
    return g;
}

Capabilities elevenWays(std::uint64_t shareable = 0x600)
{
    Capabilities caps;
    ResourceCaps l3;
    l3.name = "L3";
    l3.numClosids = 16;
    l3.domains = { 0 };
    l3.cbmMask = 0x7ff;
    l3.cbmBits = 11;
    l3.minCbmBits = 1;
    l3.shareableBits = shareable;
    caps.resources.push_back(l3);
    caps.maxControlGroups = 16;
    return caps;
}

std::unique_ptr<engine::CaptureService> openSim()
{
    engine::ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = "noisy-neighbour";
    o.who = "test";
    auto s = engine::CaptureService::open(o);
    EXPECT_TRUE(s.ok()) << s.error().toString();
    return s.ok() ? std::move(*s) : nullptr;
}

} // namespace

TEST(Lookahead, SeesPastAPlateauThatGreedyWouldStopAt)
{
    // Curve A gains nothing from its 2nd and 3rd way, then a lot from the 4th (a working set of 4 ways); curve B
    // gains a little from each way. Greedy by the next way would feed B; lookahead sees A's gain per way over 3.
    const std::vector<std::vector<double>> misses { { 100, 100, 100, 10, 10, 10 }, { 100, 90, 80, 70, 60, 50 } };
    const auto ways = lookahead(misses, { 1, 1 }, 6);
    ASSERT_EQ(ways.size(), 2u);
    EXPECT_EQ(ways[0] + ways[1], 6u);
    EXPECT_EQ(ways[0], 4u);
    EXPECT_EQ(ways[1], 2u);
}

TEST(Lookahead, WaysNobodyGainsFromGoToTheMostSensitive)
{
    std::vector<std::string> notes;
    const std::vector<std::vector<double>> misses { { 50, 50, 50, 50 }, { 90, 10, 10, 10 } };
    const auto ways = lookahead(misses, { 1, 1 }, 5, &notes);
    EXPECT_EQ(ways[0], 1u);
    EXPECT_EQ(ways[1], 4u);
    ASSERT_FALSE(notes.empty());
    EXPECT_NE(notes[0].find("no group measurably gains"), std::string::npos);
}

TEST(Advisor, VictimGetsItsKneeStreamerTheMinimumAwayFromSharedWays)
{
    const auto caps = elevenWays();
    const std::vector<engine::GroupState> groups { group("", "7ff"), group("victim", "7ff"), group("streamer", "7ff") };
    // The victim's misses fall until 7 ways; the streamer's are flat.
    const auto victim = curve("victim", { 4200, 3800, 3300, 2700, 1900, 1100, 120, 0, 0, 0 });
    const auto streamer = curve("streamer", { 23256, 23262, 23268, 23272, 23272, 23272, 23272, 23272, 23272, 23272 });
    auto a = proposeAllocation(caps, groups, { streamer, victim }, {});
    ASSERT_TRUE(a.ok()) << a.error().toString();
    ASSERT_EQ(a->groups.size(), 2u);
    EXPECT_EQ(a->groups[0].group, "streamer");
    EXPECT_EQ(a->groups[0].ways, 1u);
    EXPECT_GE(a->groups[1].ways, 7u);
    EXPECT_EQ(a->groups[0].ways + a->groups[1].ways, 11u);
    // Contiguous, disjoint, and the streamer over the shareable ways (600): the victim's 10 ways hold only the one
    // shareable way the streamer's single way cannot cover.
    EXPECT_EQ(a->groups[0].mask & a->groups[1].mask, 0u);
    EXPECT_EQ(a->groups[1].mask & 0x600, 0x200u);
    EXPECT_EQ(a->groups[0].mask, 0x400u);
    EXPECT_EQ(a->groups[1].change.value("L3", 0), std::optional<std::string>("3ff"));
    EXPECT_EQ(a->groups[1].expectedTotalBps, 0);
}

TEST(Advisor, ObjectivesChangeTheSplit)
{
    const auto caps = elevenWays(0);
    const std::vector<engine::GroupState> groups { group("a", "7ff"), group("b", "7ff") };
    // Both gain the same per way up to 8 ways; only 11 ways to share.
    const std::vector<double> same { 800, 700, 600, 500, 400, 300, 200, 100, 100, 100 };
    AdviceSettings weighted;
    weighted.objective = Objective::Weighted;
    weighted.weights = { { "a", 3 } };
    auto w = proposeAllocation(caps, groups, { curve("a", same), curve("b", same) }, weighted);
    ASSERT_TRUE(w.ok()) << w.error().toString();
    EXPECT_EQ(w->groups[0].ways, 8u) << "a counts three times: it is served to its knee";
    AdviceSettings protect;
    protect.objective = Objective::Protect;
    protect.protect = "b";
    auto p = proposeAllocation(caps, groups, { curve("a", same), curve("b", same) }, protect);
    ASSERT_TRUE(p.ok()) << p.error().toString();
    EXPECT_GE(p->groups[1].ways, 8u);
    protect.protect = "c";
    EXPECT_FALSE(proposeAllocation(caps, groups, { curve("a", same), curve("b", same) }, protect).ok());
}

TEST(Advisor, AnObjectiveNamingAGroupNotAdvisedOnIsRefusedBeforeAnySweep)
{
    AdviceSettings s;
    s.objective = Objective::Weighted;
    s.weights = { { "victim", 3 }, { "streamr", 1 } };
    const auto typo = checkObjective(s, { "streamer", "victim" });
    ASSERT_FALSE(typo.ok());
    EXPECT_NE(typo.error().message.find("'streamr'"), std::string::npos) << typo.error().toString();
    s.weights.erase("streamr");
    EXPECT_TRUE(checkObjective(s, { "streamer", "victim" }).ok());
    s.objective = Objective::Protect;
    s.protect = "";
    const auto none = checkObjective(s, { "streamer", "victim" });
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().message.find("'default'"), std::string::npos) << none.error().toString();
    s.protect = "victim";
    EXPECT_TRUE(checkObjective(s, { "streamer", "victim" }).ok());
    // runAdvise asks first: a refused objective costs no sweep (the scenario would take seconds per group).
    auto svc = openSim();
    ASSERT_TRUE(svc);
    AdviseSettings a;
    a.groups = { "streamer", "victim" };
    a.advice.objective = Objective::Weighted;
    a.advice.weights = { { "nobody", 2 } };
    unsigned steps = 0;
    AdviseHooks hooks;
    hooks.onSweepStep = [&](const std::string&, const SweepStep&, unsigned) { ++steps; };
    const auto r = runAdvise(*svc, a, hooks);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("'nobody'"), std::string::npos) << r.error().toString();
    EXPECT_EQ(steps, 0u);
}

TEST(Advisor, HardwareRulesRefuseWithTheReason)
{
    auto caps = elevenWays();
    caps.resources[0].minCbmBits = 4;
    const std::vector<engine::GroupState> groups { group("a", "7ff"), group("b", "7ff"), group("c", "7ff") };
    const std::vector<double> c { 3, 2, 1 };
    auto r = proposeAllocation(caps, groups, { curve("a", c), curve("b", c), curve("c", c) }, {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("do not fit in 11 ways"), std::string::npos) << r.error().message;
    caps = elevenWays();
    caps.maxControlGroups = 2;
    r = proposeAllocation(caps, groups, { curve("a", c), curve("b", c), curve("c", c) }, {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("2 CLOS"), std::string::npos) << r.error().message;
    // An exclusive group holding ways the proposal needs: the allocation rules say no.
    caps = elevenWays();
    auto excl = group("x", "600");
    excl.info.mode = "exclusive";
    const std::vector<engine::GroupState> withExclusive { group("a", "1"), group("b", "2"), excl };
    r = proposeAllocation(caps, withExclusive, { curve("a", { 3, 2, 1 }), curve("b", { 3, 2, 1 }) }, {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("exclusive"), std::string::npos) << r.error().message;
}

TEST(Advise, NoisyNeighbourAppliedAsPredicted)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    AdviseSettings s;
    s.groups = { "streamer", "victim" };
    s.sweep.settleNs = 200'000'000;
    s.sweep.measureNs = 500'000'000;
    s.sweep.pollNs = 100'000'000;
    s.apply = true;
    auto r = runAdvise(*svc, s);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    ASSERT_TRUE(r->applied);
    ASSERT_EQ(r->advice.groups.size(), 2u);
    const auto& streamer = r->advice.groups[0];
    const auto& victim = r->advice.groups[1];
    EXPECT_EQ(streamer.ways, 1u);
    EXPECT_GE(static_cast<double>(victim.ways), r->curves[1].knee.x);
    EXPECT_GE(victim.ways, 7u);
    // The prediction holds: measured victim occupancy within 15 % of the curve's value.
    const double measured = r->after["victim"].occupancyBytes;
    EXPECT_GT(victim.expectedOccupancyBytes, 0);
    EXPECT_LE(std::fabs(measured - victim.expectedOccupancyBytes), 0.15 * victim.expectedOccupancyBytes)
        << measured << " vs " << victim.expectedOccupancyBytes;
    // And it is better than before: the streamer no longer evicts the victim.
    EXPECT_GT(measured, 2 * r->before["victim"].occupancyBytes);
    std::map<std::string, std::optional<std::string>> l3;
    for (const auto& g : svc->snapshot().groups)
        l3[g.info.path] = g.schemata.value("L3", 0);
    EXPECT_EQ(l3["victim"], victim.change.value("L3", 0));
    EXPECT_EQ(l3["streamer"], streamer.change.value("L3", 0));
}
