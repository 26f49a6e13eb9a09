// SPDX-License-Identifier: GPL-3.0-or-later
// The parts of protect that need no machine: targets and their slack, knob limits, each policy's published rule on
// hand-made intervals (docs/PROTECT.md), the lab's figures on hand-made runs, and seeded scenario variants.
#include "protect/Figures.h"
#include "protect/FsmPolicy.h"
#include "protect/ModelPolicy.h"
#include "protect/ScenarioVariant.h"
#include "protect/SlackPolicy.h"
#include "protect/StaticPolicy.h"
#include "protect/Target.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::protect;

namespace {

/// The simulated Xeon Gold 6154: 11 ways of 2.25 MiB, MBA 10..100 % in steps of 10.
KnobLimits skx()
{
    KnobLimits l;
    l.ways = 11;
    l.minBeWays = 1;
    l.hasMba = true;
    l.mbaMin = 10;
    l.mbaMax = 100;
    l.mbaStep = 10;
    l.mbaUnit = "%";
    l.bytesPerWay = 2.25 * 1024 * 1024;
    return l;
}

IntervalView at(unsigned index, double slack, Knobs knobs, std::optional<double> occupancy = std::nullopt)
{
    IntervalView v;
    v.index = index;
    v.slack = slack;
    v.knobs = knobs;
    v.lcOccupancyBytes = occupancy;
    return v;
}

} // namespace

TEST(ProtectTarget, ParsesTheFourKindsAndRefusesWhatCannotBeMeant)
{
    auto ipc = parseTarget("ipc>=0.8", false);
    ASSERT_TRUE(ipc);
    EXPECT_EQ(ipc->kind, SignalKind::Ipc);
    EXPECT_TRUE(ipc->floor);
    EXPECT_DOUBLE_EQ(ipc->threshold, 0.8);
    EXPECT_NEAR(ipc->slack(0.88), 0.1, 1e-12);
    EXPECT_NEAR(ipc->slack(0.72), -0.1, 1e-12);
    EXPECT_EQ(ipc->text(), "ipc>=0.8");

    auto mpki = parseTarget("mpki<=5", false);
    ASSERT_TRUE(mpki);
    EXPECT_FALSE(mpki->floor);
    EXPECT_NEAR(mpki->slack(4), 0.2, 1e-12);
    EXPECT_FALSE(mpki->met(6));

    auto occ = parseTarget("occupancy>=8M", false);
    ASSERT_TRUE(occ);
    EXPECT_DOUBLE_EQ(occ->threshold, 8.0 * 1024 * 1024);

    EXPECT_FALSE(parseTarget("p99<=2000", false)); // no --signal-cmd
    auto p99 = parseTarget("p99<=2000", true);
    ASSERT_TRUE(p99);
    EXPECT_EQ(p99->kind, SignalKind::External);
    EXPECT_NEAR(p99->slack(1800), 0.1, 1e-12);

    EXPECT_FALSE(parseTarget("ipc<=1", false)); // an IPC target is a floor
    EXPECT_FALSE(parseTarget("mpki>=1", false));
    EXPECT_FALSE(parseTarget("ipc>=abc", false));
    EXPECT_FALSE(parseTarget("ipc>=-1", false));
    EXPECT_FALSE(parseTarget("ipc>=nan", false));
    EXPECT_FALSE(parseTarget("ipc=0.8", false));
    EXPECT_FALSE(parseTarget("ipc>=2M", false));
    const auto bad = parseTarget("ipc", false);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().advice.find("ipc>=X"), std::string::npos);
}

TEST(ProtectKnobs, ClampKeepsTheFloorsAndDescribes)
{
    KnobLimits l = skx();
    l.minBeWays = 2;
    l.mbaMin = 30;
    const Knobs k = l.clamp({ 0, 5u });
    EXPECT_EQ(k.beWays, 2u);
    EXPECT_EQ(k.beMba, 30u);
    EXPECT_EQ(l.clamp({ 40, 400u }).beWays, 11u);
    EXPECT_EQ(l.clamp({ 40, 400u }).beMba, 100u);
    EXPECT_EQ(describeKnobs({ 4, 30u }, l), "ways 0-3 (4 of 11), MB 30 %");
    EXPECT_EQ(describeKnobs({ 11, 100u }, l), "all 11 ways, MB 100 %");
    KnobLimits noMba = skx();
    noMba.hasMba = false;
    EXPECT_FALSE(noMba.clamp({ 3, 50u }).beMba);
}

TEST(ProtectStatic, GivesTheBestEffortClassThirtyPercentOfTheWaysOnceAndNeverMoves)
{
    StaticPolicy p({});
    const Knobs k = p.initial(skx(), skx().unlimited());
    EXPECT_EQ(k.beWays, 4u); // ceil(0.3 * 11)
    EXPECT_EQ(k.beMba, 100u);
    for (double slack : { -0.5, 0.0, 0.5 }) {
        const auto d = p.decide(at(3, slack, k), skx());
        EXPECT_EQ(d.knobs, k);
        EXPECT_TRUE(d.reason.empty());
    }
}

TEST(ProtectSlack, CutsToTheFloorOnAViolationAndGrowsOnlyOncePerPeriod)
{
    PolicyTuning t;
    t.slackPeriodIntervals = 3;
    t.slackCooldownIntervals = 4;
    SlackPolicy p(t);
    const KnobLimits l = skx();
    Knobs k = p.initial(l, l.unlimited());
    EXPECT_EQ(k, l.unlimited()); // a gate on growth: it starts where the machine is

    auto d = p.decide(at(0, -0.01, k), l);
    EXPECT_EQ(d.knobs, l.floorKnobs());
    EXPECT_NE(d.reason.find("< 0"), std::string::npos);
    k = d.knobs;
    // No growth during the cooldown, even with a wide slack.
    for (unsigned i = 1; i <= 4; ++i)
        EXPECT_EQ(p.decide(at(i, 0.5, k), l).knobs, k) << i;
    // Then one step per period.
    unsigned grown = 0;
    for (unsigned i = 5; i < 5 + 3 * 3; ++i) {
        d = p.decide(at(i, 0.5, k), l);
        if (!(d.knobs == k)) {
            ++grown;
            EXPECT_EQ(d.knobs.beWays, k.beWays + 1);
            k = d.knobs;
        }
    }
    EXPECT_EQ(grown, 3u);
    // Between 0.05 and 0.10 growth stops; below 0.05 a step is taken back at the period.
    for (unsigned i = 20; i < 23; ++i)
        EXPECT_EQ(p.decide(at(i, 0.07, k), l).knobs, k);
    Knobs back = k;
    for (unsigned i = 23; i < 26; ++i) {
        d = p.decide(at(i, 0.02, back), l);
        back = d.knobs;
    }
    EXPECT_EQ(back.beWays, k.beWays - 1);
}

TEST(ProtectFsm, UpsizesOneStepJudgesOverFiveIntervalsAndRevertsAHarmfulDownsize)
{
    PolicyTuning t; // the published constants: judged over 5, wait 100 intervals (10 s at 100 ms)
    FsmPolicy p(t);
    const KnobLimits l = skx();
    Knobs k = l.unlimited();
    auto d = p.decide(at(0, 0.01, k), l);
    EXPECT_EQ(d.knobs.beWays, 10u);
    EXPECT_NE(d.reason.find("upsize"), std::string::npos);
    k = d.knobs;
    // While the action is judged nothing moves.
    for (unsigned i = 1; i < 5; ++i)
        EXPECT_EQ(p.decide(at(i, -0.3, k), l).knobs, k) << i;
    // The upsize did not raise the slack: the next one tries the other resource (bandwidth).
    d = p.decide(at(5, -0.3, k), l);
    EXPECT_EQ(d.knobs.beWays, 10u);
    EXPECT_EQ(d.knobs.beMba, 90u);
    k = d.knobs;

    // A downsize (a step given to the best-effort groups) that pushes the slack below 0.05 is reverted.
    FsmPolicy q(t);
    Knobs m { 4, 100u };
    d = q.decide(at(0, 0.3, m), l);
    EXPECT_EQ(d.knobs.beWays, 5u);
    EXPECT_NE(d.reason.find("downsize"), std::string::npos);
    const Knobs grown = d.knobs;
    for (unsigned i = 1; i < 5; ++i)
        EXPECT_EQ(q.decide(at(i, 0.3, grown), l).knobs, grown);
    d = q.decide(at(5, 0.02, grown), l);
    EXPECT_EQ(d.knobs, m);
    EXPECT_NE(d.reason.find("reverted"), std::string::npos);
    // During the wait no downsizing, however wide the slack.
    for (unsigned i = 6; i < 60; ++i)
        EXPECT_EQ(q.decide(at(i, 0.5, m), l).knobs, m) << i;
}

TEST(ProtectModel, MeasuresTheNeedWithAFenceThenJumpsAndJumpsBackStraightAway)
{
    ModelPolicy p({});
    const KnobLimits l = skx();
    Knobs k = p.initial(l, l.unlimited());
    EXPECT_EQ(k, l.unlimited());
    auto d = p.decide(at(0, -0.2, k), l);
    EXPECT_EQ(d.knobs.beWays, 1u); // fenced into the floor, as a blame probe
    EXPECT_EQ(d.knobs.beMba, 100u);
    k = d.knobs;
    const double twelveMiB = 12.0 * 1024 * 1024;
    for (unsigned i = 1; i < ModelPolicy::kFenceIntervals; ++i)
        EXPECT_EQ(p.decide(at(i, 0.1, k, twelveMiB), l).knobs, k);
    d = p.decide(at(ModelPolicy::kFenceIntervals, 0.1, k, twelveMiB), l);
    // 12 MiB = 5.3 ways -> 6, plus one: 7 ways left to the service, 4 to the best-effort groups.
    EXPECT_EQ(d.knobs.beWays, 4u);
    EXPECT_NE(d.reason.find("12.0 MiB"), std::string::npos);
    // A later violation at a larger allocation goes back to the measured need at once, without a fence.
    d = p.decide(at(40, -0.05, { 7, 100u }), l);
    EXPECT_EQ(d.knobs.beWays, 4u);
    EXPECT_NE(d.reason.find("measured need"), std::string::npos);
    // With the ways at the floor, bandwidth is halved.
    d = p.decide(at(50, -0.05, { 1, 100u }), l);
    EXPECT_EQ(d.knobs.beMba, 50u);
}

TEST(ProtectModel, GrowsBackAfterAStretchOfSlackAndSetsACeilingWhenAGrowthHurts)
{
    PolicyTuning t;
    ModelPolicy p(t);
    const KnobLimits l = skx();
    Knobs k { 4, 100u };
    PolicyDecision d;
    for (unsigned i = 0; i < t.judgeIntervals; ++i)
        d = p.decide(at(i, 0.15, k), l);
    EXPECT_EQ(d.knobs.beWays, 5u);
    k = d.knobs;
    d = p.decide(at(6, 0.02, k), l); // the growth hurt: one way back, and a ceiling
    EXPECT_EQ(d.knobs.beWays, 4u);
    k = d.knobs;
    for (unsigned i = 7; i < 40; ++i)
        EXPECT_EQ(p.decide(at(i, 0.15, k), l).knobs.beWays, 4u) << i;
}

TEST(ProtectFigures, ViolationShareAndConvergenceFromTheIntervals)
{
    ProtectResult r;
    r.target = *parseTarget("ipc>=0.8", false);
    // 4 s of 100 ms intervals: broken from 1.0 to 1.5 s, after a load step at 1.0 s.
    for (unsigned i = 1; i <= 40; ++i) {
        IntervalRecord rec;
        rec.offsetNs = i * 100'000'000ull;
        const bool broken = i > 10 && i <= 15;
        rec.signal = broken ? 0.5 : 0.9;
        rec.slack = r.target.slack(*rec.signal);
        rec.beThroughput = 1e9;
        r.intervals.push_back(rec);
    }
    r.loadStepsNs = { 1'000'000'000 };
    // The 1 s window 1-2 s averages 0.7: broken; the other three hold.
    EXPECT_NEAR(*violationShare(r, 1'000'000'000), 0.25, 1e-9);
    EXPECT_NEAR(*violationShare(r, 60'000'000'000), 0.0, 1e-9);
    const auto c = convergenceAfter(r, 1'000'000'000, 4'000'000'000);
    ASSERT_TRUE(c);
    EXPECT_NEAR(*c, 0.5, 1e-9);
    const auto f = figuresOf(r);
    ASSERT_EQ(f.convergenceS.size(), 1u);
    EXPECT_NEAR(*f.beThroughput, 1e9, 1);
    // Never recovering is no convergence, not a number.
    for (auto& rec : r.intervals)
        if (rec.offsetNs > 1'000'000'000) rec.slack = -0.1;
    EXPECT_FALSE(convergenceAfter(r, 1'000'000'000, 4'000'000'000));
    // No reading at all: the share is unknown, not 0.
    ProtectResult empty;
    EXPECT_FALSE(violationShare(empty, 1'000'000'000));
}

TEST(ProtectScenario, TheSeedMovesEachTimeOnceAndKeepsTheRestOfTheText)
{
    const std::string text = "# protect: group=svc target=ipc>=0.8 be=a,b\nname x\nmkdir a\nat 5s note load step: up\n"
                             "at 5s set t ws=1M\nat 10s set t ws=2M\n";
    EXPECT_EQ(seededVariant(text, 0), text);
    const std::string one = seededVariant(text, 1);
    EXPECT_EQ(one, seededVariant(text, 1));
    EXPECT_NE(one, seededVariant(text, 2));
    EXPECT_NE(one.find("name x\nmkdir a\n"), std::string::npos);
    // Both lines of 5 s moved to the same time.
    const auto a = one.find("at ");
    const auto note = one.substr(a, one.find(' ', a + 3) - a);
    EXPECT_NE(one.find(note + " set t ws=1M"), std::string::npos) << one;
    EXPECT_EQ(note.find("at 5000ms"), std::string::npos) << one;

    auto d = protectDefaultsOf(text);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->group, "svc");
    EXPECT_EQ(d->target, "ipc>=0.8");
    EXPECT_EQ(d->be, (std::vector<std::string> { "a", "b" }));
    EXPECT_FALSE(protectDefaultsOf("# protect: group svc\n"));
    EXPECT_FALSE(protectDefaultsOf("# protect: colour=red\n"));
}
