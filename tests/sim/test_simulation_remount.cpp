// SPDX-License-Identifier: GPL-3.0-or-later
// Simulation::remountResctrl: CDP switched by a remount, as the kernel allows it (Documentation/filesystems/
// resctrl.rst), with the groups re-made; a processor without L3 CDP refuses and keeps its mount.
#include "sim/Scenario.h"
#include "sim/Simulation.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::sim;

namespace {

std::unique_ptr<Simulation> setupOf(const std::string& name, bool withoutCdp = false)
{
    auto sc = loadScenario(name);
    EXPECT_TRUE(sc.ok());
    std::erase_if(sc->steps, [](const ScenarioStep& s) { return s.atNs > 0; });
    if (withoutCdp) sc->overrides.push_back({ "l3_cdp", 0 });
    auto sim = Simulation::create(*sc);
    EXPECT_TRUE(sim.ok()) << sim.error().toString();
    return std::move(*sim);
}

} // namespace

TEST(SimulationRemount, CdpOffAndOnKeepsGroupsTasksAndResetsMasks)
{
    auto sim = setupOf("cdp");
    const std::string tasks = *sim->resctrl().read("frontend/tasks");
    const std::string analytics = *sim->resctrl().read("analytics/tasks");
    ASSERT_FALSE(tasks.empty());
    ASSERT_TRUE(sim->resctrl().write("frontend/schemata", "L3CODE:0=000ff\n").ok());
    ASSERT_TRUE(sim->remountResctrl(false).ok());
    EXPECT_FALSE(sim->resctrl().options().cdp);
    EXPECT_FALSE(sim->machine().l3Cdp(0)) << "IA32_L3_QOS_CFG.CDP cleared by the mount";
    EXPECT_EQ(*sim->resctrl().read("frontend/tasks"), tasks);
    const std::string plain = *sim->resctrl().read("frontend/schemata");
    EXPECT_NE(plain.find("L3:0=fffff"), std::string::npos) << plain;
    EXPECT_EQ(plain.find("L3CODE"), std::string::npos) << plain;

    ASSERT_TRUE(sim->remountResctrl(true).ok());
    EXPECT_TRUE(sim->machine().l3Cdp(0));
    const std::string cdp = *sim->resctrl().read("frontend/schemata");
    EXPECT_NE(cdp.find("L3CODE:0=fffff"), std::string::npos) << "the unmount reset the 000ff mask: " << cdp;
    EXPECT_NE(cdp.find("L3DATA:0=fffff"), std::string::npos) << cdp;
    EXPECT_EQ(*sim->resctrl().read("analytics/tasks"), analytics);
    bool recorded = false;
    for (const auto& e : sim->events())
        recorded |= e.text.find("mount -t resctrl resctrl -o cdp /sys/fs/resctrl") != std::string::npos;
    EXPECT_TRUE(recorded);
}

TEST(SimulationRemount, ProcessorWithoutCdpRefusesAndKeepsItsMount)
{
    auto sim = setupOf("noisy-neighbour", /*withoutCdp=*/true);
    ASSERT_TRUE(sim->resctrl().mkdir("kept").ok());
    auto r = sim->remountResctrl(true);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("CPUID.10H.1:ECX[2]=0"), std::string::npos) << r.error().message;
    EXPECT_TRUE(sim->resctrl().isDirectory("kept")) << "nothing was unmounted";
}
