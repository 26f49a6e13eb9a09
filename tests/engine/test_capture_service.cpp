// SPDX-License-Identifier: GPL-3.0-or-later
// The capture service (engine/CaptureService.h) driven only through its plain-data API, as the CLI, the GUI and a
// remote agent drive it: the simulated machine as the source, commands with result values, drained events.
#include "engine/CaptureService.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <variant>

using namespace rdt;
using namespace rdt::engine;

namespace {

std::unique_ptr<CaptureService> openSim(const std::string& spec = "sim")
{
    ServiceOptions o;
    o.rdt.spec = spec;
    o.rdt.scenario = "noisy-neighbour";
    o.who = "test";
    auto s = CaptureService::open(o);
    EXPECT_TRUE(s.ok()) << s.error().toString();
    return s.ok() ? std::move(*s) : nullptr;
}

Schemata lines(const char* text)
{
    auto s = Schemata::parseStrict(text);
    EXPECT_TRUE(s.ok()) << text;
    return *s;
}

template <typename T> std::vector<T> eventsOf(const std::vector<EngineEvent>& events)
{
    std::vector<T> out;
    for (const auto& e : events)
        if (const auto* x = std::get_if<T>(&e)) out.push_back(*x);
    return out;
}

} // namespace

TEST(CaptureService, DescribesTheSimulatedMachine)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    EXPECT_TRUE(svc->hasRdt());
    const auto& src = svc->source();
    EXPECT_EQ(src.kind, "sim");
    EXPECT_TRUE(src.simulated);
    EXPECT_NE(src.simulation.find("scenario noisy-neighbour"), std::string::npos) << src.simulation;
    EXPECT_NE(src.why.find("all data is simulated"), std::string::npos);
    auto m = svc->machine();
    ASSERT_TRUE(m.ok()) << m.error().toString();
    EXPECT_TRUE(m->capabilities.monitoring.present);
    ASSERT_NE(m->capabilities.resource("L3"), nullptr);
    EXPECT_FALSE(m->cpuidJson.empty());
    const auto snap = svc->snapshot();
    ASSERT_TRUE(snap.result.ok) << snap.result.toString();
    bool victim = false;
    for (const auto& g : snap.groups)
        victim |= g.info.path == "victim" && g.schemata.has("L3");
    EXPECT_TRUE(victim) << "the scenario's victim group with its L3 mask";
}

TEST(CaptureService, PollsAreSampleEventsInSimulatedTime)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    ASSERT_TRUE(svc->setSamplingInterval(100'000'000).ok);
    EXPECT_EQ(svc->samplingIntervalNs(), 100'000'000u);
    const auto t0 = svc->nowNs();
    ASSERT_TRUE(svc->pollRdt().ok);
    svc->advanceTo(t0 + 100'000'000);
    ASSERT_TRUE(svc->pollRdt().ok);
    const auto events = svc->drainEvents();
    const auto batches = eventsOf<RdtSampleBatch>(events);
    ASSERT_EQ(batches.size(), 2u);
    EXPECT_EQ(batches[1].timeNs, t0 + 100'000'000);
    bool streamerMoves = false;
    for (const auto& s : batches[1].samples)
        streamerMoves |= s.group == "streamer" && s.mbmTotalBps > 1e9;
    EXPECT_TRUE(streamerMoves) << "the streaming group's bandwidth is measured";
    EXPECT_FALSE(eventsOf<SimulationEvent>(events).empty()) << "the scenario's setup lines";
    EXPECT_TRUE(svc->drainEvents().empty()) << "each event is returned once";
}

TEST(CaptureService, AllocationsAreValidatedTransactionsWithEvents)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    ASSERT_TRUE(svc->createGroup("p0").ok);
    const auto bad = svc->applyAllocation("p0", lines("L3:0=5"));
    EXPECT_FALSE(bad.result.ok);
    EXPECT_EQ(bad.result.code, EINVAL);
    EXPECT_NE(bad.result.reason.find("non-consecutive"), std::string::npos) << bad.result.reason;
    EXPECT_FALSE(bad.result.advice.empty());
    const auto good = svc->applyAllocation("p0", lines("L3:0=3"));
    ASSERT_TRUE(good.result.ok) << good.result.toString();
    EXPECT_EQ(good.applied.value("L3", 0).value_or(""), "3");
    const auto changes = eventsOf<AllocationChanged>(svc->drainEvents());
    ASSERT_FALSE(changes.empty());
    EXPECT_EQ(changes.back().who, "test");
    EXPECT_EQ(changes.back().newValue, "3");
    EXPECT_TRUE(changes.back().ok);
    const auto snap = svc->snapshot();
    bool seen = false;
    for (const auto& g : snap.groups)
        if (g.info.path == "p0") seen = g.schemata.value("L3", 0).value_or("") == "3";
    EXPECT_TRUE(seen);
    EXPECT_TRUE(svc->deleteGroup("p0").ok);
    const auto gone = svc->deleteGroup("p0");
    EXPECT_FALSE(gone.ok);
    EXPECT_FALSE(gone.reason.empty());
}

TEST(CaptureService, BadSourceIsAnErrorWithAdvice)
{
    ServiceOptions o;
    o.rdt.spec = "bogus";
    auto s = CaptureService::open(o);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, EINVAL);
    EXPECT_FALSE(s.error().advice.empty());
}

TEST(CaptureService, WithoutRdtEveryRdtCommandSaysWhy)
{
    ServiceOptions o;
    o.openRdt = false;
    auto s = CaptureService::open(o);
    ASSERT_TRUE(s.ok());
    EXPECT_FALSE((*s)->hasRdt());
    EXPECT_FALSE((*s)->machine().ok());
    const auto r = (*s)->createGroup("p0");
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.code, ENODEV);
}

TEST(CaptureService, SimulatedLbrCaptureNamesTheProgramsFunctions)
{
    ServiceOptions o;
    o.openRdt = false;
    auto svc = CaptureService::open(o);
    ASSERT_TRUE(svc.ok());
    PmuRequest req;
    req.kind = PmuCaptureKind::LbrAny;
    req.simulated = true;
    const auto started = (*svc)->startPmu(req);
    ASSERT_TRUE(started.result.ok) << started.result.toString();
    EXPECT_TRUE(started.info.simulated);
    ASSERT_EQ(started.info.parts.size(), 1u);
    for (int i = 0; i < 20; ++i)
        ASSERT_TRUE((*svc)->pumpPmu(started.info.id).ok);
    const auto batches = (*svc)->drainPmuBatches();
    ASSERT_EQ(batches.size(), 20u);
    EXPECT_GT(batches.back().samples, 0u);
    ASSERT_TRUE((*svc)->stopPmu(started.info.id).ok);
    auto report = (*svc)->pmuReport(started.info.id, 10);
    ASSERT_TRUE(report.ok());
    ASSERT_TRUE(report->branches.has_value());
    bool named = false;
    for (const auto& f : report->branches->functions)
        named |= f.name == "probe_table";
    EXPECT_TRUE(named) << "the simulated program's functions are named";
    ASSERT_EQ(report->parts.size(), 1u);
    EXPECT_EQ(report->parts[0].decodeErrors, 0u);
}

TEST(CaptureService, PmuRequestsThatCannotWorkAreRefused)
{
    ServiceOptions o;
    o.openRdt = false;
    auto svc = CaptureService::open(o);
    ASSERT_TRUE(svc.ok());
    PmuRequest simWithTarget;
    simWithTarget.simulated = true;
    simWithTarget.pids = { 1 };
    const auto a = (*svc)->startPmu(simWithTarget);
    EXPECT_FALSE(a.result.ok);
    EXPECT_EQ(a.failure, PmuFailure::BadRequest);
    PmuRequest perfWithout;
    const auto b = (*svc)->startPmu(perfWithout);
    EXPECT_FALSE(b.result.ok);
    EXPECT_EQ(b.failure, PmuFailure::BadRequest);
    PmuRequest badMachine;
    badMachine.simulated = true;
    badMachine.machine = "no-such-machine";
    const auto c = (*svc)->startPmu(badMachine);
    EXPECT_FALSE(c.result.ok);
    EXPECT_EQ(c.failure, PmuFailure::BadRequest);
    EXPECT_FALSE((*svc)->pumpPmu(99).ok);
}
