// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated PMU through the capture service, as the GUI runs it: every recipe at once (one simulated core per
// recipe), the simulated CPU's PMU generation named in the request, a paced clock, pumps of many cycles that never
// overflow a ring, and the request's simulated settings judged by the engine.
#include "engine/CaptureService.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <limits>
#include <string>

using namespace rdt;
using namespace rdt::engine;

namespace {

std::unique_ptr<CaptureService> pmuOnly()
{
    ServiceOptions o;
    o.openRdt = false;
    auto s = CaptureService::open(o);
    EXPECT_TRUE(s.ok());
    return s.ok() ? std::move(*s) : nullptr;
}

PmuRequest simulated(PmuCaptureKind kind)
{
    PmuRequest r;
    r.kind = kind;
    r.simulated = true;
    r.keepSamples = true;
    return r;
}

} // namespace

TEST(SimPmuCapture, AllRunsEveryRecipeOnItsOwnSimulatedCore)
{
    auto svc = pmuOnly();
    ASSERT_TRUE(svc);
    const auto started = svc->startPmu(simulated(PmuCaptureKind::All));
    ASSERT_TRUE(started.result.ok) << started.result.toString();
    ASSERT_EQ(started.info.parts.size(), 3u);
    EXPECT_TRUE(started.info.parts[0].counting); // TMA
    EXPECT_FALSE(started.info.parts[1].counting); // LBR call stacks
    EXPECT_FALSE(started.info.parts[2].counting); // load latency
    const auto id = started.info.id;
    for (int i = 0; i < 10; ++i) {
        ASSERT_TRUE(svc->pumpPmu(id).ok);
        ASSERT_TRUE(svc->readPmuCounters(id).ok);
    }
    std::size_t branches = 0, loads = 0, tmaRows = 0;
    bool named = false;
    for (const auto& b : svc->drainPmuBatches()) {
        for (const auto& s : b.decoded) {
            branches += s.hasBranchStack;
            loads += s.loadLatency;
        }
        for (const auto& n : b.names)
            named |= n.symbol.function == "probe_table";
        for (const auto& row : b.tma) {
            EXPECT_EQ(row.part, 0u);
            EXPECT_TRUE(row.breakdown.valid);
            ++tmaRows;
        }
    }
    EXPECT_GT(branches, 100u);
    EXPECT_GT(loads, 10u);
    EXPECT_EQ(tmaRows, 10u); // one interval per read
    EXPECT_TRUE(named);
    ASSERT_TRUE(svc->stopPmu(id).ok);
    auto report = svc->pmuReport(id, 10);
    ASSERT_TRUE(report.ok());
    EXPECT_TRUE(report->branches && report->loads);
    EXPECT_EQ(report->tmaTotals.size(), 1u);
    ASSERT_EQ(report->parts.size(), 3u);
    for (const auto& p : report->parts)
        EXPECT_EQ(p.decodeErrors, 0u);
}

TEST(SimPmuCapture, TheRequestNamesTheSimulatedPmu)
{
    auto svc = pmuOnly();
    ASSERT_TRUE(svc);
    auto skx = simulated(PmuCaptureKind::Tma);
    skx.simPmu = "skx";
    const auto a = svc->startPmu(skx);
    ASSERT_TRUE(a.result.ok) << a.result.toString();
    EXPECT_EQ(a.info.pmusUsed, "simulated Skylake-SP-class core");
    EXPECT_TRUE(a.info.parts[0].levelTwoTma); // the simulated Skylake counts level 2 from its generic events
    const auto b = svc->startPmu(simulated(PmuCaptureKind::Tma));
    ASSERT_TRUE(b.result.ok);
    EXPECT_EQ(b.info.pmusUsed, "simulated Sapphire Rapids-class core");
    EXPECT_TRUE(b.info.parts[0].levelTwoTma);
}

TEST(SimPmuCapture, APacedClockStampsRecordsWithTheStepsWallTime)
{
    auto svc = pmuOnly();
    ASSERT_TRUE(svc);
    auto r = simulated(PmuCaptureKind::Tma);
    r.simCyclesPerPump = 4'000'000;
    r.simGhz = 0.016; // 4M cycles per 250 ms
    const auto started = svc->startPmu(r);
    ASSERT_TRUE(started.result.ok);
    for (int i = 0; i < 4; ++i) {
        ASSERT_TRUE(svc->pumpPmu(started.info.id).ok);
        ASSERT_TRUE(svc->readPmuCounters(started.info.id).ok);
    }
    std::vector<std::uint64_t> times;
    for (const auto& b : svc->drainPmuBatches())
        for (const auto& row : b.tma)
            times.push_back(row.timeNs);
    ASSERT_EQ(times.size(), 4u);
    for (std::size_t i = 0; i < times.size(); ++i) {
        // Simulated time starts at 1 s; each pump is about 250 ms of it (a slice may run a few cycles over).
        const double expected = 1e9 + 250e6 * static_cast<double>(i + 1);
        EXPECT_NEAR(static_cast<double>(times[i]), expected, 0.01 * expected) << i;
    }
}

TEST(SimPmuCapture, AHugePumpLosesNoSample)
{
    // 50M cycles of LBR samples (one per 20,000 cycles, 32 branches each) is about 2 MB of records, twice the ring:
    // the pump drains between slices, so nothing is lost.
    auto svc = pmuOnly();
    ASSERT_TRUE(svc);
    auto r = simulated(PmuCaptureKind::LbrCallStack);
    r.simCyclesPerPump = 50'000'000;
    const auto started = svc->startPmu(r);
    ASSERT_TRUE(started.result.ok);
    ASSERT_TRUE(svc->pumpPmu(started.info.id).ok);
    const auto batches = svc->drainPmuBatches();
    ASSERT_EQ(batches.size(), 1u);
    EXPECT_EQ(batches[0].lost, 0u);
    EXPECT_GT(batches[0].decoded.size(), 2000u);
    ASSERT_TRUE(svc->stopPmu(started.info.id).ok);
    auto report = svc->pmuReport(started.info.id, 10);
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report->parts.at(0).ring.lostSamples, 0u);
    EXPECT_EQ(report->parts.at(0).ring.overruns, 0u);
}

TEST(SimPmuCapture, SimulatedSettingsOutOfRangeAreRefusedWithAdvice)
{
    auto svc = pmuOnly();
    ASSERT_TRUE(svc);
    auto unknown = simulated(PmuCaptureKind::Tma);
    unknown.simPmu = "z80";
    auto noCycles = simulated(PmuCaptureKind::Tma);
    noCycles.simCyclesPerPump = 0;
    auto tooMany = simulated(PmuCaptureKind::Tma);
    tooMany.simCyclesPerPump = 100'000'001;
    auto nanClock = simulated(PmuCaptureKind::Tma);
    nanClock.simGhz = std::numeric_limits<double>::quiet_NaN();
    auto zeroClock = simulated(PmuCaptureKind::Tma);
    zeroClock.simGhz = 0;
    auto cpuClock = simulated(PmuCaptureKind::CpuClock);
    for (const auto* r : { &unknown, &noCycles, &tooMany, &nanClock, &zeroClock, &cpuClock }) {
        const auto s = svc->startPmu(*r);
        EXPECT_FALSE(s.result.ok);
        EXPECT_EQ(s.failure, PmuFailure::BadRequest);
        EXPECT_EQ(s.result.code, EINVAL);
    }
    EXPECT_NE(svc->startPmu(unknown).result.advice.find("skx"), std::string::npos) << "names the PMUs it knows";
    EXPECT_NE(svc->startPmu(tooMany).result.advice.find("pump more often"), std::string::npos);
}
