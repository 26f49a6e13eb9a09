// SPDX-License-Identifier: GPL-3.0-or-later
// CaptureService::setCdp: the simulated `sim` source remounts its resctrl with or without L3 CDP and keeps the
// groups; the MSR source writes IA32_L3_QOS_CFG; a real resctrl mount is never remounted by us, the error says how
// to do it (resctrl.rst).
#include "engine/CaptureService.h"
#include "rdt/ResctrlBackend.h"
#include "sim/SimMachine.h"
#include "sim/SimResctrlFs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>

using namespace rdt;
using namespace rdt::engine;

namespace {

std::unique_ptr<CaptureService> openCdpScenario()
{
    ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = "cdp"; // mounted with -o cdp, groups frontend and analytics with two threads each
    o.rdt.scenarioSetupOnly = true;
    auto s = CaptureService::open(o);
    EXPECT_TRUE(s.ok()) << s.error().toString();
    return s.ok() ? std::move(*s) : nullptr;
}

const GroupState* group(const GroupsSnapshot& snap, const std::string& path)
{
    auto it = std::find_if(
        snap.groups.begin(), snap.groups.end(), [&](const GroupState& g) { return g.info.path == path; });
    return it == snap.groups.end() ? nullptr : &*it;
}

} // namespace

TEST(CdpRemount, SimulatedSourceSwitchesCdpAndKeepsTheGroups)
{
    auto svc = openCdpScenario();
    ASSERT_TRUE(svc);
    auto before = svc->snapshot(true);
    ASSERT_NE(group(before, "frontend"), nullptr);
    const auto tasks = group(before, "frontend")->tasks;
    ASSERT_EQ(tasks.size(), 2u);
    ASSERT_TRUE(group(before, "frontend")->schemata.value("L3CODE", 0));

    const auto off = svc->setCdp(false);
    ASSERT_TRUE(off.ok) << off.toString();
    auto plain = svc->snapshot(true);
    const auto* fe = group(plain, "frontend");
    ASSERT_NE(fe, nullptr);
    EXPECT_EQ(fe->tasks, tasks) << "the remount re-made the group with its tasks";
    EXPECT_EQ(fe->schemata.value("L3", 0).value_or(""), "fffff");
    EXPECT_FALSE(fe->schemata.value("L3CODE", 0));
    EXPECT_FALSE(svc->machine()->capabilities.cdpL3);

    ASSERT_TRUE(svc->setCdp(true).ok);
    auto cdp = svc->snapshot();
    ASSERT_NE(group(cdp, "analytics"), nullptr);
    EXPECT_EQ(group(cdp, "analytics")->schemata.value("L3DATA", 0).value_or(""), "fffff");
    EXPECT_TRUE(svc->machine()->capabilities.cdpL3);
    // The new mount is the one the allocation engine and the sampler use.
    auto a = svc->applyAllocation("frontend", *Schemata::parseStrict("L3CODE:0=000ff"));
    ASSERT_TRUE(a.result.ok) << a.result.toString();
    EXPECT_EQ(svc->snapshot().groups.size(), cdp.groups.size());
    ASSERT_TRUE(svc->pollRdt().ok);
    bool sampled = false, mounted = false;
    for (const auto& e : svc->drainEvents()) {
        if (const auto* b = std::get_if<RdtSampleBatch>(&e))
            for (const auto& s : b->samples)
                sampled |= s.group == "frontend";
        if (const auto* s = std::get_if<SimulationEvent>(&e))
            mounted |= s->text.find("mount -t resctrl resctrl -o cdp") != std::string::npos;
    }
    EXPECT_TRUE(sampled);
    EXPECT_TRUE(mounted) << "the remount is an event of the simulation";
    const auto again = svc->setCdp(true);
    ASSERT_TRUE(again.ok);
    ASSERT_FALSE(again.notes.empty());
    EXPECT_NE(again.notes.front().find("already on"), std::string::npos);
}

TEST(CdpRemount, RealResctrlIsNeverRemountedTheAdviceIsTheMountCommand)
{
    auto cpuid = sim::presetCpuid("bdw-6850k");
    ASSERT_TRUE(cpuid.ok());
    auto machine = sim::SimMachine::create(*cpuid);
    ASSERT_TRUE(machine.ok());
    auto fs = sim::SimResctrlFs::mount(**machine);
    ASSERT_TRUE(fs.ok());
    std::shared_ptr<Fs> shared(std::move(*fs));
    auto backend = ResctrlBackend::open(shared);
    ASSERT_TRUE(backend.ok());
    RdtSource source; // as a real mount: no simulation control
    source.backend = std::move(*backend);
    source.kind = "resctrl";
    ServiceOptions o;
    auto svc = CaptureService::openWith(std::move(source), o);
    ASSERT_TRUE(svc.ok());
    const auto r = (*svc)->setCdp(true);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.advice.find("mount -t resctrl resctrl -o cdp /sys/fs/resctrl"), std::string::npos) << r.advice;
    EXPECT_FALSE((*svc)->machine()->capabilities.cdpL3) << "nothing was remounted";
}

TEST(CdpRemount, MsrSourceSwitchesCdpThroughIa32L3QosCfg)
{
    ServiceOptions o;
    o.rdt.spec = "sim-msr";
    o.rdt.scenario = "noisy-neighbour"; // Skylake-SP enumerates L3 CDP
    o.rdt.scenarioSetupOnly = true;
    auto svc = CaptureService::open(o);
    ASSERT_TRUE(svc.ok()) << svc.error().toString();
    ASSERT_FALSE((*svc)->machine()->capabilities.cdpL3);
    const auto r = (*svc)->setCdp(true);
    ASSERT_TRUE(r.ok) << r.toString();
    EXPECT_TRUE((*svc)->machine()->capabilities.cdpL3);
    bool codeMask = false;
    for (const auto& g : (*svc)->snapshot().groups)
        codeMask |= g.schemata.value("L3CODE", 0).has_value();
    EXPECT_TRUE(codeMask);
}
