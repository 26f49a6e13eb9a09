// SPDX-License-Identifier: GPL-3.0-or-later
// CaptureService reports allocation changes it did not make (ExternalChangeDetector.h): a schemata or mode write
// done straight through the simulated kernel, bypassing the engine, as pqos or a shell would, is one
// AllocationChanged{who = "external"} with its old and new values; the engine's own writes are never reported
// again as external.
#include "engine/CaptureService.h"
#include "engine/ExternalChangeDetector.h"
#include "rdt/ResctrlBackend.h"
#include "sim/SimMachine.h"
#include "sim/SimResctrlFs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <variant>
#include <vector>

using namespace rdt;
using namespace rdt::engine;

namespace {

struct Rig {
    std::unique_ptr<sim::SimMachine> machine;
    std::shared_ptr<Fs> fs; ///< the simulated kernel, shared with the engine's backend: "another program"
    std::unique_ptr<CaptureService> svc;
};

Rig open()
{
    Rig r;
    auto cpuid = sim::presetCpuid("bdw-6850k");
    EXPECT_TRUE(cpuid.ok());
    auto machine = sim::SimMachine::create(*cpuid);
    EXPECT_TRUE(machine.ok());
    r.machine = std::move(*machine);
    auto fs = sim::SimResctrlFs::mount(*r.machine);
    EXPECT_TRUE(fs.ok());
    r.fs = std::shared_ptr<Fs>(std::move(*fs));
    EXPECT_TRUE(r.fs->mkdir("pqos1").ok()); // there before the engine opens: part of its baseline
    auto backend = ResctrlBackend::open(r.fs);
    EXPECT_TRUE(backend.ok());
    RdtSource source;
    source.backend = std::move(*backend);
    source.kind = "resctrl";
    ServiceOptions o;
    o.who = "gui";
    o.externalCheckIntervalNs = 0; // look at every drain
    auto svc = CaptureService::openWith(std::move(source), o);
    EXPECT_TRUE(svc.ok());
    r.svc = std::move(*svc);
    return r;
}

std::vector<AllocationChanged> changesBy(CaptureService& svc, const std::string& who)
{
    std::vector<AllocationChanged> out;
    for (auto& e : svc.drainEvents())
        if (auto* c = std::get_if<AllocationChanged>(&e); c && c->who == who) out.push_back(*c);
    return out;
}

} // namespace

TEST(ExternalChanges, AWriteBehindTheEnginesBackIsReportedOnceWithOldAndNewValues)
{
    auto r = open();
    ASSERT_TRUE(r.svc);
    EXPECT_TRUE(changesBy(*r.svc, kExternalWho).empty()) << "the state at open is the baseline, not news";
    ASSERT_TRUE(r.fs->write("pqos1/schemata", "L3:0=3\n").ok()); // pqos -e "llc:1=0x3", as the kernel sees it
    auto seen = changesBy(*r.svc, kExternalWho);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].group, "pqos1");
    EXPECT_EQ(seen[0].resource, "L3");
    EXPECT_EQ(seen[0].domain, 0);
    EXPECT_EQ(seen[0].oldValue, "fffff");
    EXPECT_EQ(seen[0].newValue, "3");
    EXPECT_TRUE(seen[0].ok);
    EXPECT_TRUE(changesBy(*r.svc, kExternalWho).empty()) << "reported once";
}

TEST(ExternalChanges, TheEnginesOwnWritesAreNeverExternal)
{
    auto r = open();
    ASSERT_TRUE(r.svc);
    (void)r.svc->drainEvents();
    ASSERT_TRUE(r.svc->createGroup("mine").ok);
    Schemata change;
    change.set("L3", 0, "ff");
    ASSERT_TRUE(r.svc->applyAllocation("mine", change).result.ok);
    auto events = r.svc->drainEvents();
    int own = 0, external = 0;
    for (auto& e : events)
        if (auto* c = std::get_if<AllocationChanged>(&e)) (c->who == kExternalWho ? external : own) += 1;
    EXPECT_EQ(own, 1);
    EXPECT_EQ(external, 0) << "neither the new group's defaults nor the engine's write";
    EXPECT_TRUE(changesBy(*r.svc, kExternalWho).empty());
}

TEST(ExternalChanges, ANewGroupReportsOnlyWhatDiffersFromTheDefaultsAndAModeChangeIsReported)
{
    auto r = open();
    ASSERT_TRUE(r.svc);
    (void)r.svc->drainEvents();
    ASSERT_TRUE(r.fs->mkdir("COS2").ok());
    ASSERT_TRUE(r.fs->write("COS2/schemata", "L3:0=f0\n").ok());
    auto seen = changesBy(*r.svc, kExternalWho);
    ASSERT_EQ(seen.size(), 1u) << "its other values still hold the defaults";
    EXPECT_EQ(seen[0].group, "COS2");
    EXPECT_EQ(seen[0].domain, 0);
    EXPECT_EQ(seen[0].oldValue, "");
    EXPECT_EQ(seen[0].newValue, "f0");

    // Exclusive needs a mask no other group shares (resctrl.rst "Resource alloc and monitor groups").
    ASSERT_TRUE(r.fs->write("schemata", "L3:0=fff00\n").ok());
    ASSERT_TRUE(r.fs->write("pqos1/schemata", "L3:0=3\n").ok());
    EXPECT_EQ(changesBy(*r.svc, kExternalWho).size(), 2u);
    ASSERT_TRUE(r.fs->write("pqos1/mode", "exclusive\n").ok());
    seen = changesBy(*r.svc, kExternalWho);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].resource, kModeResource);
    EXPECT_EQ(seen[0].oldValue, "shareable");
    EXPECT_EQ(seen[0].newValue, "exclusive");
}

TEST(ExternalChanges, TheCheckWaitsForItsInterval)
{
    Rig r = open();
    ASSERT_TRUE(r.svc);
    ServiceOptions o; // the default interval, over the same kernel
    auto backend = ResctrlBackend::open(r.fs);
    ASSERT_TRUE(backend.ok());
    RdtSource source;
    source.backend = std::move(*backend);
    source.kind = "resctrl";
    auto svc = CaptureService::openWith(std::move(source), o);
    ASSERT_TRUE(svc.ok());
    ASSERT_TRUE(r.fs->write("pqos1/schemata", "L3:0=3\n").ok());
    EXPECT_TRUE(changesBy(**svc, kExternalWho).empty()) << "looked at open, not again within 500 ms";
    std::size_t seen = 0;
    for (int i = 0; i < 40 && seen == 0; ++i) { // 2 s at most
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        seen = changesBy(**svc, kExternalWho).size();
    }
    EXPECT_EQ(seen, 1u);
}

TEST(ExternalChanges, AScenarioStepIsReportedByItsOwnEventNotAsExternal)
{
    // noisy-neighbour fences the streamer at 20 s with a write step (L3:0=003): the SimulationEvent says so.
    ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = "noisy-neighbour";
    o.externalCheckIntervalNs = 0;
    auto svc = CaptureService::open(o);
    ASSERT_TRUE(svc.ok()) << svc.error().toString();
    (void)(*svc)->drainEvents();
    int steps = 0, external = 0;
    for (std::uint64_t t = 1; t <= 25; ++t) { // a drain every simulated second, as a front end would
        (*svc)->advanceTo(t * 1'000'000'000ull);
        for (auto& e : (*svc)->drainEvents()) {
            if (auto* s = std::get_if<SimulationEvent>(&e); s && s->text.rfind("write streamer/schemata", 0) == 0)
                ++steps;
            if (auto* c = std::get_if<AllocationChanged>(&e); c && c->who == kExternalWho) ++external;
        }
    }
    EXPECT_EQ(steps, 1);
    EXPECT_EQ(external, 0);
}
