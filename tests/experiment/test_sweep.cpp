// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps on the simulated machine: the victim's knee where its working set fits, the streamer's flat curve, a sweep
// refused before any write with the reason, and SIGTERM in the middle of a sweep bringing back every schemata file
// of the emulated resctrl and every RDT register of the simulated MSR space.
#include "SweepTestSupport.h"
#include "engine/CaptureService.h"
#include "engine/SourceAssembly.h"
#include "experiment/Sweep.h"
#include "rdt/ResctrlBackend.h"
#include "session/StopSignals.h"
#include "sim/Scenario.h"
#include "sim/Simulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <map>

using namespace rdt;
using namespace rdt::experiment;
using rdt::experiment::test::quick;
using rdt::experiment::test::TestControl;

namespace {

std::unique_ptr<engine::CaptureService> openSim(const std::string& spec = "sim")
{
    engine::ServiceOptions o;
    o.rdt.spec = spec;
    o.rdt.scenario = "noisy-neighbour";
    o.who = "test";
    auto s = engine::CaptureService::open(o);
    EXPECT_TRUE(s.ok()) << s.error().toString();
    return s.ok() ? std::move(*s) : nullptr;
}

std::shared_ptr<sim::Simulation> simulation(const std::string& text)
{
    auto sc = sim::parseScenario(text, "test");
    EXPECT_TRUE(sc.ok()) << sc.error().toString();
    auto s = sim::Simulation::create(*sc);
    EXPECT_TRUE(s.ok()) << s.error().toString();
    return std::shared_ptr<sim::Simulation>(std::move(*s));
}

std::unique_ptr<engine::CaptureService> serviceOver(
    std::shared_ptr<sim::Simulation> sim, std::unique_ptr<RdtBackend> backend)
{
    RdtSource src;
    src.backend = std::move(backend);
    src.kind = "sim";
    src.simulated = true;
    src.simulation = std::make_shared<TestControl>(sim);
    engine::ServiceOptions o;
    o.who = "test";
    auto svc = engine::CaptureService::openWith(std::move(src), o);
    EXPECT_TRUE(svc.ok()) << svc.error().toString();
    return std::move(*svc);
}

const char* kTwoGroups = "machine preset=skx-6154 cores=4 sampling=128\n"
                         "mkdir victim\nmkdir streamer\n"
                         "thread svc-0 group=victim cpu=0 pattern=random ws=8M compute=40\n"
                         "thread scan-0 group=streamer cpu=2 pattern=stream ws=1G compute=4\n";

/// Every group's schemata file on the emulated resctrl, by path.
std::map<std::string, std::string> schemataFiles(sim::SimResctrlFs& fs)
{
    std::map<std::string, std::string> out;
    out["schemata"] = fs.read("schemata").valueOr("unreadable");
    for (const auto& name : fs.list("").valueOr({}))
        if (fs.exists(name + "/schemata")) out[name + "/schemata"] = fs.read(name + "/schemata").valueOr("unreadable");
    return out;
}

/// IA32_PQR_ASSOC, IA32_L3_MASK_n and the MBA throttles of every CPU (SDM 20.19.6.1, 20.19.7.2).
std::map<std::pair<unsigned, std::uint32_t>, std::uint64_t> registers(sim::Simulation& sim)
{
    std::map<std::pair<unsigned, std::uint32_t>, std::uint64_t> out;
    const auto& f = sim.machine().features();
    for (unsigned cpu = 0; cpu < sim.machine().cpuCount(); ++cpu) {
        out[{ cpu, 0xC8F }] = sim.msr().read(cpu, 0xC8F).valueOr(~0ull);
        for (std::uint32_t n = 0; n < f.l3Cat.numClos; ++n)
            out[{ cpu, 0xC90 + n }] = sim.msr().read(cpu, 0xC90 + n).valueOr(~0ull);
        for (std::uint32_t n = 0; n < f.mba.numClos; ++n)
            out[{ cpu, 0xD50 + n }] = sim.msr().read(cpu, 0xD50 + n).valueOr(~0ull);
    }
    return out;
}

} // namespace

TEST(Sweep, VictimKneeIsWhereItsWorkingSetFits)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    const auto caps = svc->machine()->capabilities;
    const auto* l3 = caps.resource("L3");
    ASSERT_TRUE(l3 && l3->bytesPerBit);
    auto s = quick("victim");
    s.isolate = { "streamer" };
    auto r = runSweep(*svc, s);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_TRUE(r->completed);
    EXPECT_TRUE(r->restored);
    ASSERT_GE(r->steps.size(), 3u);
    // noisy-neighbour's victim: two threads, 8 MiB each.
    const double ws = 16.0 * 1024 * 1024;
    const double expected = std::ceil(ws / static_cast<double>(l3->bytesPerBit));
    ASSERT_TRUE(r->knees.bandwidth.found);
    EXPECT_FALSE(r->knees.bandwidth.flat);
    EXPECT_LE(std::fabs(r->knees.bandwidth.x - expected), 1.0)
        << "knee " << r->knees.bandwidth.x << " ways, working set needs " << expected;
    EXPECT_LE(std::fabs(r->knees.occupancy.x - expected), 1.0);
    // Fewer ways than it needs cost it memory traffic: the one-way step reads far more than the widest.
    EXPECT_GT(r->steps.back().totalBps, 10 * std::max(1.0, r->steps.front().totalBps));
}

TEST(Sweep, StreamerCurveIsFlat)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    auto s = quick("streamer");
    s.isolate = { "victim" };
    auto r = runSweep(*svc, s);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    ASSERT_TRUE(r->knees.bandwidth.found);
    EXPECT_TRUE(r->knees.bandwidth.flat) << r->knees.bandwidth.best << " .. " << r->knees.bandwidth.worst;
    EXPECT_EQ(r->knees.bandwidth.x, 1.0) << "nothing to gain: the knee is the minimum";
    EXPECT_GT(r->steps.front().totalBps, 1e9) << "it streams";
}

TEST(Sweep, RefusesTwoBitMaskWithOneBitMinimumAndSaysWhy)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    auto two = Schemata::parseStrict("L3:0=3");
    ASSERT_TRUE(svc->applyAllocation("victim", *two).result.ok);
    const auto before = svc->snapshot();
    auto r = runSweep(*svc, quick("victim"));
    ASSERT_FALSE(r.ok());
    const auto& msg = r.error().message;
    EXPECT_NE(msg.find("has 2 way(s)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("min_cbm_bits is 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("at least 3"), std::string::npos) << msg;
    EXPECT_NE(r.error().advice.find("--from-full"), std::string::npos);
    const auto after = svc->snapshot();
    for (std::size_t i = 0; i < before.groups.size(); ++i)
        EXPECT_EQ(before.groups[i].schemata, after.groups[i].schemata) << "nothing written";
    // From the full mask it runs.
    auto full = quick("victim");
    full.fromFull = true;
    full.measureNs = 100'000'000;
    full.settleNs = 0;
    auto ok = runSweep(*svc, full);
    ASSERT_TRUE(ok.ok()) << ok.error().toString();
    EXPECT_EQ(ok->steps.front().value, 11u);
    EXPECT_TRUE(ok->restored);
    EXPECT_EQ(svc->snapshot().groups[1].schemata.value("L3", 0), before.groups[1].schemata.value("L3", 0));
}

TEST(Sweep, RefusesAnUnknownGroup)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    auto s = quick("no-such-group");
    auto r = runSweep(*svc, s);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("no group no-such-group"), std::string::npos);
}

TEST(Sweep, SigtermRestoresEverySchemataFile)
{
    auto sim = simulation(kTwoGroups);
    auto fs = std::shared_ptr<Fs>(&sim->resctrl(), [sim](Fs*) {});
    auto backend = ResctrlBackend::open(fs);
    ASSERT_TRUE(backend.ok()) << backend.error().toString();
    auto svc = serviceOver(sim, std::move(*backend));
    const auto before = schemataFiles(sim->resctrl());
    ASSERT_GE(before.size(), 3u);
    session::StopSignals::reset();
    session::StopSignals::install();
    bool changedMidway = false;
    SweepHooks hooks;
    hooks.stopRequested = [] { return session::StopSignals::requested(); };
    hooks.onStep = [&](const SweepStep& step, unsigned) {
        if (step.index == 3) {
            changedMidway = schemataFiles(sim->resctrl()) != before;
            std::raise(SIGTERM);
        }
    };
    auto r = runSweep(*svc, quick("victim"), hooks);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    session::StopSignals::reset();
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_TRUE(changedMidway) << "the sweep had changed the victim's mask when the signal came";
    EXPECT_TRUE(r->stopped);
    EXPECT_FALSE(r->completed);
    EXPECT_EQ(r->steps.size(), 3u);
    EXPECT_TRUE(r->restored);
    EXPECT_EQ(schemataFiles(sim->resctrl()), before);
}

TEST(Sweep, SigtermRestoresEveryRdtRegister)
{
    auto sim = simulation("machine preset=skx-6154 cores=4 sampling=128\n"
                          "thread svc-0 cpu=0 pattern=random ws=8M compute=40\n"
                          "thread scan-0 cpu=2 pattern=stream ws=1G compute=4\n");
    auto space = std::shared_ptr<MsrSpace>(&sim->msr(), [sim](MsrSpace*) {});
    auto backend = MsrBackend::open(space, msrEnumerationOf(sim->machine()), "");
    ASSERT_TRUE(backend.ok()) << backend.error().toString();
    auto svc = serviceOver(sim, std::move(*backend));
    ASSERT_TRUE(svc->createGroup("victim").ok);
    ASSERT_TRUE(svc->assignCpus("victim", { 0 }).ok);
    const auto before = registers(*sim);
    for (const auto kind : { SweepKind::Ways, SweepKind::Bandwidth }) {
        session::StopSignals::reset();
        session::StopSignals::install();
        bool changedMidway = false;
        SweepHooks hooks;
        hooks.stopRequested = [] { return session::StopSignals::requested(); };
        hooks.onStep = [&](const SweepStep& step, unsigned) {
            if (step.index == 2) {
                changedMidway = registers(*sim) != before;
                std::raise(SIGTERM);
            }
        };
        auto s = quick("victim");
        s.kind = kind;
        auto r = runSweep(*svc, s, hooks);
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
        session::StopSignals::reset();
        ASSERT_TRUE(r.ok()) << r.error().toString();
        EXPECT_TRUE(changedMidway);
        EXPECT_TRUE(r->stopped);
        EXPECT_TRUE(r->restored);
        EXPECT_EQ(registers(*sim), before);
    }
}

TEST(Sweep, BandwidthSweepWatchesTheVictim)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    auto s = quick("streamer");
    s.kind = SweepKind::Bandwidth;
    s.victim = "victim";
    auto r = runSweep(*svc, s);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    ASSERT_EQ(r->steps.size(), 10u) << "100 down to 10 in steps of 10";
    EXPECT_EQ(r->steps.front().value, 100u);
    EXPECT_EQ(r->steps.back().value, 10u);
    // A tighter cap takes the streamer's bandwidth away and gives the victim its cache back.
    EXPECT_LT(r->steps.back().totalBps, 0.5 * r->steps.front().totalBps);
    EXPECT_GT(r->steps.back().victimOccupancyBytes, 1.5 * r->steps.front().victimOccupancyBytes);
    EXPECT_TRUE(r->restored);
    EXPECT_EQ(svc->snapshot().groups.size(), 3u);
    bool seen = false;
    for (const auto& g : svc->snapshot().groups) {
        if (g.info.path != "streamer") continue;
        seen = true;
        EXPECT_EQ(g.schemata.value("MB", 0), std::optional<std::string>("100"));
    }
    EXPECT_TRUE(seen);
}
