// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated PMU on an engine whose RDT source is the simulated machine: its PMU is that machine's CPU's (not a
// Sapphire Rapids next to a Skylake-SP's RDT data), and a capture that runs its program in a group's class of service
// (PmuRequest::catGroup) gets that group's L3 mask, followed at every pump: a mask shrunk to one way makes the hash
// join miss the L3, and its Backend bound share rises.
#include "engine/CaptureService.h"
#include "rdt/Schemata.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::engine;

namespace {

std::unique_ptr<CaptureService> onSimulatedMachine()
{
    ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = "noisy-neighbour"; // a Xeon Gold 6154 (Skylake-SP), 11 ways of 2.25 MiB
    o.rdt.scenarioSetupOnly = true;
    auto s = CaptureService::open(o);
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().toString());
    return s.ok() ? std::move(*s) : nullptr;
}

PmuRequest hashJoinTma()
{
    PmuRequest r;
    r.kind = PmuCaptureKind::Tma;
    r.simulated = true;
    r.program = "backend";
    return r;
}

/// Backend bound (level 1) of the slots counted over `pumps` pumps from now.
double backendOver(CaptureService& svc, std::uint32_t id, int pumps)
{
    const auto before = svc.pmuReport(id, 0)->tmaTotals.front();
    for (int i = 0; i < pumps; ++i) {
        EXPECT_TRUE(svc.pumpPmu(id).ok);
        EXPECT_TRUE(svc.readPmuCounters(id).ok);
    }
    (void)svc.drainPmuBatches();
    const auto after = svc.pmuReport(id, 0)->tmaTotals.front();
    EXPECT_TRUE(after.valid) << after.note;
    const double slots = after.slots - (before.valid ? before.slots : 0.0);
    const double counted
        = after.level1.backendBound * after.slots - (before.valid ? before.level1.backendBound * before.slots : 0.0);
    return slots > 0 ? 100.0 * counted / slots : -1;
}

} // namespace

TEST(SimPmuOnTheSimulatedMachine, ThePmuIsTheMachinesCpus)
{
    auto svc = onSimulatedMachine();
    ASSERT_TRUE(svc);
    const auto started = svc->startPmu(hashJoinTma());
    ASSERT_TRUE(started.result.ok) << started.result.toString();
    EXPECT_EQ(started.info.pmusUsed, "simulated Skylake-SP-class core");
    EXPECT_TRUE(started.info.parts[0].levelTwoTma); // Skylake-SP: levels 1 and 2 from generic counters
    auto spr = hashJoinTma();
    spr.simPmu = "spr"; // named on purpose: the request decides
    const auto named = svc->startPmu(spr);
    ASSERT_TRUE(named.result.ok);
    EXPECT_EQ(named.info.pmusUsed, "simulated Sapphire Rapids-class core");
}

TEST(SimPmuOnTheSimulatedMachine, TheProgramsL3FollowsItsGroupsMask)
{
    auto svc = onSimulatedMachine();
    ASSERT_TRUE(svc);
    auto request = hashJoinTma();
    request.machine = "skx-6154";
    request.catGroup = "victim";
    request.memoryScale = 0.5; // 2 MiB of table and 1 MiB of chains: more than one way (2.25 MiB), less than 11
    // The join with the victim's whole L3 (11 ways), from cold caches.
    const auto wide = svc->startPmu(request);
    ASSERT_TRUE(wide.result.ok) << wide.result.toString();
    EXPECT_EQ(wide.info.caches, "simulated machine skx-6154");
    const double elevenWays = backendOver(*svc, wide.info.id, 40);
    // Another join, started while the victim still has every way; the mask shrinks to one way before its first pump,
    // and the pump follows it: its loads miss the L3 and Backend bound rises.
    const auto narrow = svc->startPmu(request);
    ASSERT_TRUE(narrow.result.ok);
    ASSERT_TRUE(svc->applyAllocation("victim", *Schemata::parseStrict("L3:0=001")).result.ok);
    const double oneWay = backendOver(*svc, narrow.info.id, 40);
    EXPECT_GT(oneWay, elevenWays + 4) << "11 ways " << elevenWays << " %, one way " << oneWay << " %";
    // A join in another group, whose mask did not change, keeps the whole L3.
    auto other = request;
    other.catGroup = "streamer";
    const auto streamer = svc->startPmu(other);
    ASSERT_TRUE(streamer.result.ok);
    EXPECT_LT(backendOver(*svc, streamer.info.id, 40), oneWay - 4);
}

TEST(SimPmuOnTheSimulatedMachine, WithNoPresetNamedTheProgramUsesTheEnginesOwnMachine)
{
    auto svc = onSimulatedMachine();
    ASSERT_TRUE(svc);
    auto request = hashJoinTma(); // as the GUI's PMU dock asks: a group, no machine preset
    request.catGroup = "victim";
    request.memoryScale = 0.5;
    const auto wide = svc->startPmu(request);
    ASSERT_TRUE(wide.result.ok) << wide.result.toString();
    EXPECT_EQ(wide.info.caches, "the engine's simulated machine");
    const double elevenWays = backendOver(*svc, wide.info.id, 40);
    const auto narrow = svc->startPmu(request);
    ASSERT_TRUE(narrow.result.ok);
    ASSERT_TRUE(svc->applyAllocation("victim", *Schemata::parseStrict("L3:0=001")).result.ok);
    EXPECT_GT(backendOver(*svc, narrow.info.id, 40), elevenWays + 4);
    auto gone = request;
    gone.catGroup = "nobody";
    const auto refused = svc->startPmu(gone);
    EXPECT_EQ(refused.failure, PmuFailure::BadRequest);
    EXPECT_NE(refused.result.toString().find("no control group 'nobody'"), std::string::npos);
}
