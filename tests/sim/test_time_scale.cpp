// SPDX-License-Identifier: GPL-3.0-or-later
// Time sampling of a steady simulated machine (capture/sim/TimeScale.h): it thins accesses only once the occupancy is
// flat and nothing changed, returns to full rate on any change, and gives the same bandwidth and occupancy as the
// machine that simulates every access.
#include "SimTestUtil.h"
#include "sim/TimeScale.h"

#include <cmath>

using namespace rdt::sim;
using namespace rdt::sim::test;

namespace {

/// A noisy neighbour on two cores: a cache-friendly victim (RMID/CLOS 1) and a streamer (RMID/CLOS 2).
std::unique_ptr<SimMachine> neighbours(std::uint32_t maxTimeScale)
{
    auto cpuid = presetCpuid("skx-6154");
    EXPECT_TRUE(cpuid.ok());
    SimOptions o;
    o.topology.coresPerSocket = 2;
    o.setSampling = 64;
    o.maxTimeScale = maxTimeScale;
    auto made = SimMachine::create(*cpuid, o);
    EXPECT_TRUE(made.ok()) << made.error().toString();
    auto m = std::move(*made);
    const std::uint64_t llc = m->features().l3.sizeBytes();
    auto victim = m->addThread("victim", 0, spec(Pattern::Random, llc / 3));
    auto streamer = m->addThread("streamer", 1, spec(Pattern::Stream, llc * 4));
    EXPECT_TRUE(victim.ok() && streamer.ok());
    EXPECT_TRUE(m->setTaskAssociation(*victim, 1, 1).ok());
    EXPECT_TRUE(m->setTaskAssociation(*streamer, 2, 2).ok());
    return m;
}

std::vector<std::int64_t> flat(std::size_t n, std::int64_t v)
{
    return std::vector<std::int64_t>(n, v);
}

} // namespace

TEST(TimeScale, ScalesUpOnlyAfterASecondOfFlatOccupancyAndDropsOnAnyChange)
{
    TimeScale t(8);
    std::uint64_t now = 0;
    auto step = [&](std::int64_t occupancy) {
        now += TimeScale::kWindowNs;
        ASSERT_TRUE(t.due(now));
        t.observe(now, flat(3, occupancy), 10000);
    };
    step(5000); // the first snapshot: nothing to compare with yet
    for (int i = 0; i < TimeScale::kStableWindows; ++i) {
        EXPECT_EQ(t.scale(), 1u) << "window " << i;
        step(5000);
    }
    EXPECT_EQ(t.scale(), 8u);
    EXPECT_FALSE(t.due(now + 1)) << "once per window";
    // 10000 lines: 200 is the 2 % threshold (noise stays under it, a fill or a decay jumps over it).
    step(5150);
    EXPECT_EQ(t.scale(), 8u);
    step(5400);
    EXPECT_EQ(t.scale(), 1u);
    for (int i = 0; i < TimeScale::kStableWindows; ++i)
        step(5400);
    EXPECT_EQ(t.scale(), 8u);
    t.noteChange();
    EXPECT_EQ(t.scale(), 1u);
    EXPECT_EQ(TimeScale(1).enabled(), false);
}

TEST(TimeScale, MachineRejectsAScaleThatIsNotAPowerOfTwo)
{
    auto cpuid = presetCpuid("skx-6154");
    ASSERT_TRUE(cpuid.ok());
    SimOptions o;
    o.maxTimeScale = 6;
    auto m = SimMachine::create(*cpuid, o);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().toString().find("power of two"), std::string::npos) << m.error().toString();
}

TEST(TimeScale, ASteadyMachineThinsItsAccessesAndMeasuresTheSame)
{
    auto exact = neighbours(1);
    auto thinned = neighbours(32);
    exact->advance(3000 * kMs);
    thinned->advance(3000 * kMs);
    ASSERT_EQ(exact->timeScale(), 1u);
    ASSERT_EQ(thinned->timeScale(), 32u) << "the occupancy is flat after 3 simulated seconds";

    auto totals = [](SimMachine& m, std::uint32_t rmid) { return m.counters(0, rmid).totalBytes; };
    auto accesses = [](SimMachine& m) {
        std::uint64_t n = 0;
        for (const auto& t : m.threads())
            n += t.stats.accesses;
        return n;
    };
    const std::uint64_t e1 = totals(*exact, 1), e2 = totals(*exact, 2), t1 = totals(*thinned, 1),
                        t2 = totals(*thinned, 2);
    exact->advance(2000 * kMs);
    thinned->advance(2000 * kMs);
    ASSERT_EQ(thinned->timeScale(), 32u);
    const double exactStream = double(totals(*exact, 2) - e2), thinStream = double(totals(*thinned, 2) - t2);
    const double exactVictim = double(totals(*exact, 1) - e1), thinVictim = double(totals(*thinned, 1) - t1);
    EXPECT_NEAR(thinStream / exactStream, 1.0, 0.03) << exactStream << " vs " << thinStream;
    EXPECT_NEAR(thinVictim / exactVictim, 1.0, 0.10) << exactVictim << " vs " << thinVictim;
    const double exactOcc = double(exact->occupancyBytes(0, 1)), thinOcc = double(thinned->occupancyBytes(0, 1));
    EXPECT_NEAR(thinOcc / exactOcc, 1.0, 0.10) << exactOcc << " vs " << thinOcc;
    // The accesses counted are the same; the ones simulated (the host's work) are a 32nd over those 2 s.
    EXPECT_NEAR(double(accesses(*thinned)) / double(accesses(*exact)), 1.0, 0.03);
}

TEST(TimeScale, AMaskChangeRunsAtFullRateSoTheOccupancyLagIsTheSame)
{
    auto exact = neighbours(1);
    auto thinned = neighbours(32);
    exact->advance(3000 * kMs);
    thinned->advance(3000 * kMs);
    ASSERT_EQ(thinned->timeScale(), 32u);
    // Fence the victim into two ways: its lines outside them are not flushed, they decay as the streamer evicts.
    for (auto* m : { exact.get(), thinned.get() }) {
        m->setL3Mask(0, 1, 0x3);
        m->setL3Mask(0, 2, 0x7fc);
    }
    EXPECT_EQ(thinned->timeScale(), 1u) << "a register write returns to full rate at once";
    for (int ms : { 5, 20, 100 }) {
        exact->advance(static_cast<std::uint64_t>(ms) * kMs);
        thinned->advance(static_cast<std::uint64_t>(ms) * kMs);
        const double e = double(exact->occupancyBytes(0, 1)), t = double(thinned->occupancyBytes(0, 1));
        EXPECT_NEAR(t / e, 1.0, 0.10) << "after +" << ms << " ms: " << e << " vs " << t;
    }
}
