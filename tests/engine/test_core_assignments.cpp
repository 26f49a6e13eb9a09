// SPDX-License-Identifier: GPL-3.0-or-later
// The per-core table `pqos -s` prints (engine/CoreAssignments.h), from the engine's snapshot: on the simulated
// machine (whose resctrl moves a CPU out of the default group as the kernel does) and on a copy of the 4-domain
// fixture tree (a plain file tree, where the default group's cpus file keeps listing every CPU).
#include "engine/CaptureService.h"
#include "engine/CoreAssignments.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace rdt;
using namespace rdt::engine;

namespace {

const CoreAssignment* core(const CoreAssignments& t, unsigned cpu)
{
    for (const auto& c : t.cores)
        if (c.cpu == cpu) return &c;
    return nullptr;
}

const ClassAllocation* klass(const CoreAssignments& t, const std::string& group)
{
    for (const auto& c : t.classes)
        if (c.group == group) return &c;
    return nullptr;
}

std::size_t resourceIndex(const CoreAssignments& t, const std::string& r)
{
    return static_cast<std::size_t>(std::find(t.resources.begin(), t.resources.end(), r) - t.resources.begin());
}

} // namespace

TEST(CoreAssignments, SimulatedMachineCpusFollowTheirGroup)
{
    ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = "noisy-neighbour";
    o.who = "test";
    auto service = CaptureService::open(o);
    ASSERT_TRUE(service.ok()) << service.error().toString();
    auto machine = (*service)->machine();
    ASSERT_TRUE(machine.ok());
    auto table = coreAssignments((*service)->snapshot(), machine->capabilities);
    ASSERT_EQ(table.cores.size(), machine->capabilities.cpus.size());
    for (const auto& c : table.cores) {
        EXPECT_TRUE(c.known);
        EXPECT_EQ(c.controlGroup, "") << "every CPU starts in the default group";
        EXPECT_EQ(c.closid, 0) << "CLOSID 0 is the default group's";
    }
    ASSERT_FALSE(table.classes.empty());
    EXPECT_EQ(table.classes.front().group, "");
    ASSERT_NE(klass(table, "victim"), nullptr);
    ASSERT_LT(resourceIndex(table, "L3"), table.resources.size());

    ASSERT_TRUE((*service)->assignCpus("victim", { 2, 3 }).ok);
    ASSERT_TRUE((*service)->createMonitorGroup("victim", "probe").ok);
    ASSERT_TRUE((*service)->assignCpus("victim/mon_groups/probe", { 3 }).ok);
    const auto snapshot = (*service)->snapshot();
    table = coreAssignments(snapshot, machine->capabilities);
    ASSERT_NE(core(table, 2), nullptr);
    EXPECT_EQ(core(table, 2)->controlGroup, "victim");
    EXPECT_EQ(core(table, 2)->monitorGroup, "victim") << "no monitor group lists CPU 2: the group's own RMID";
    EXPECT_EQ(core(table, 3)->controlGroup, "victim");
    EXPECT_EQ(core(table, 3)->monitorGroup, "victim/mon_groups/probe");
    EXPECT_EQ(core(table, 1)->controlGroup, "");
    // The class rows carry each control group's schemata per resource, as the engine read them.
    for (const auto& g : snapshot.groups) {
        if (!g.info.isControl) continue;
        const auto* c = klass(table, g.info.path);
        ASSERT_NE(c, nullptr) << g.info.path;
        const auto* line = g.schemata.line("L3");
        ASSERT_NE(line, nullptr);
        EXPECT_EQ(c->values[resourceIndex(table, "L3")], formatDomainValues(line->values));
    }
}

namespace {
auto openTree(const std::filesystem::path& tree)
{
    ServiceOptions o;
    o.rdt.spec = "resctrl:" + tree.string();
    o.who = "test";
    return CaptureService::open(o);
}
} // namespace

TEST(CoreAssignments, FourDomainTreeNamesGroupsAndMasksAndLeavesIdsUnknown)
{
    const auto tree = std::filesystem::temp_directory_path() / ("rdtscope-cores-" + std::to_string(::getpid()));
    std::filesystem::remove_all(tree);
    std::filesystem::copy(
        std::string(RDTSCOPE_TEST_DATA) + "/resctrl/resctrl.full", tree, std::filesystem::copy_options::recursive);
    {
        auto service = openTree(tree);
        ASSERT_TRUE(service.ok()) << service.error().toString();
        auto machine = (*service)->machine();
        ASSERT_TRUE(machine.ok());
        ASSERT_TRUE((*service)->assignCpus("Guaranteed", { 4, 5, 6, 7 }).ok);
        ASSERT_TRUE((*service)->assignCpus("Guaranteed/mon_groups/non_goresctrl.group", { 5 }).ok);
        const auto table = coreAssignments((*service)->snapshot(), machine->capabilities);
        EXPECT_EQ(table.cores.size(), 192u); // cpus_list 0-191
        // The copy's default group still lists 0-191 (no kernel moved them): the claim of another group wins.
        EXPECT_EQ(core(table, 4)->controlGroup, "Guaranteed");
        EXPECT_EQ(core(table, 5)->monitorGroup, "Guaranteed/mon_groups/non_goresctrl.group");
        EXPECT_EQ(core(table, 6)->monitorGroup, "Guaranteed");
        EXPECT_EQ(core(table, 8)->controlGroup, "");
        // resctrl without -o debug shows no CLOSID or RMID: unknown, except the default group's CLOSID 0.
        EXPECT_EQ(core(table, 4)->closid, -1);
        EXPECT_EQ(core(table, 4)->rmid, -1);
        EXPECT_EQ(core(table, 8)->closid, 0);
        EXPECT_FALSE(table.closidsKnown);
        EXPECT_FALSE(table.rmidsKnown);
        const auto* g = klass(table, "Guaranteed");
        ASSERT_NE(g, nullptr);
        EXPECT_EQ(g->values[resourceIndex(table, "L3")], "0=fffff;1=fffff;2=fffff;3=fffff");
        EXPECT_EQ(g->values[resourceIndex(table, "MB")], "0=100;1=100;2=100;3=100");
        EXPECT_EQ(table.classes.front().group, "");
        EXPECT_EQ(table.classes.size(), 5u); // the default group and four control groups
    }
    {
        // Mounted with -o debug, every group has its ctrl_hw_id/mon_hw_id: the numbers are shown as the kernel gave
        // them; a file holding something else leaves that number unknown.
        auto write = [&](const std::string& rel, const char* text) { std::ofstream(tree / rel) << text; };
        write("mon_hw_id", "0\n");
        if (std::filesystem::exists(tree / "mon_groups"))
            for (const auto& m : std::filesystem::directory_iterator(tree / "mon_groups"))
                std::ofstream(m.path() / "mon_hw_id") << "8\n";
        for (const auto& dir : std::filesystem::directory_iterator(tree)) {
            const auto name = dir.path().filename().string();
            if (!dir.is_directory() || name == "info" || name == "mon_groups" || name == "mon_data") continue;
            write(name + "/ctrl_hw_id", name == "Guaranteed" ? "3\n" : "1\n");
            write(name + "/mon_hw_id", name == "Guaranteed" ? "7\n" : "2\n");
            if (std::filesystem::exists(dir.path() / "mon_groups"))
                for (const auto& m : std::filesystem::directory_iterator(dir.path() / "mon_groups"))
                    std::ofstream(m.path() / "mon_hw_id") << "9\n";
        }
        auto service = openTree(tree);
        ASSERT_TRUE(service.ok()) << service.error().toString();
        auto machine = (*service)->machine();
        ASSERT_TRUE(machine.ok());
        auto table = coreAssignments((*service)->snapshot(), machine->capabilities);
        EXPECT_EQ(core(table, 4)->closid, 3);
        EXPECT_EQ(core(table, 4)->rmid, 7);
        EXPECT_EQ(core(table, 5)->rmid, 9);
        EXPECT_EQ(core(table, 8)->rmid, 0);
        EXPECT_TRUE(table.closidsKnown);
        EXPECT_TRUE(table.rmidsKnown);
        write("Guaranteed/ctrl_hw_id", "seven\n");
        table = coreAssignments((*service)->snapshot(), machine->capabilities);
        EXPECT_EQ(core(table, 4)->closid, -1);
        EXPECT_FALSE(table.closidsKnown);
    }
    std::filesystem::remove_all(tree);
}
