// SPDX-License-Identifier: GPL-3.0-or-later
// cpuways(N): the ways CPU N's tasks without a class of their own may fill, from the groups' cpus files (what pqos -a
// "llc:COS=CPUS" changes; resctrl.rst "Resource allocation rules").
#include "lesson/LessonExpr.h"
#include "lesson/RunMeasurements.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::lesson;

namespace {

engine::GroupState control(
    const std::string& path, const std::string& schemata, std::vector<unsigned> cpus, bool cpusKnown = true)
{
    engine::GroupState g;
    g.info.path = path;
    g.info.name = path;
    g.info.isControl = true;
    g.schemata = *Schemata::parseStrict(schemata);
    g.cpus = std::move(cpus);
    g.cpusKnown = cpusKnown;
    return g;
}

Result<double> eval(const std::string& text, const RunMeasurements& m)
{
    auto e = parseExpr(text);
    if (!e) return e.error();
    return e->evaluate(m);
}

} // namespace

TEST(LessonCpuWays, TheGroupWhoseCpusHoldTheCpuDecides)
{
    engine::GroupsSnapshot s;
    s.groups.push_back(control("", "L3:0=7ff", { 0, 2, 3 }));
    s.groups.push_back(control("COS1", "L3:0=3", { 1 }));
    s.groups.push_back(control("COS2", "L3:0=ff", {}));
    engine::GroupState mon;
    mon.info.path = "mon_groups/victim";
    mon.info.isControl = false;
    mon.cpus = { 0 }; // a MON group's CPUs choose its RMID, never the class of service
    mon.cpusKnown = true;
    s.groups.push_back(mon);
    RunMeasurements m;
    m.reset(s, 1'000'000'000);
    EXPECT_EQ(*eval("cpuways(1)", m), 2.0);
    EXPECT_EQ(*eval("cpuways(0)", m), 11.0);
    EXPECT_EQ(*eval("cpuways(3)", m), 11.0);

    // pqos -a "llc:2=0,1": both CPUs move to COS2; a later snapshot says so.
    s.groups[0].cpus = { 2, 3 };
    s.groups[1].cpus = {};
    s.groups[2].cpus = { 0, 1 };
    m.refresh(s, 1'000'000'000);
    EXPECT_EQ(*eval("cpuways(0)", m), 8.0);
    EXPECT_EQ(*eval("cpuways(1)", m), 8.0);
}

TEST(LessonCpuWays, UnknownIsAnErrorNotAWayCount)
{
    engine::GroupsSnapshot s;
    s.groups.push_back(control("", "L3:0=7ff", { 0 }));
    s.groups.push_back(control("COS1", "L3:0=3", {}, false)); // its cpus file could not be read
    RunMeasurements m;
    m.reset(s, 1'000'000'000);
    auto missing = eval("cpuways(5)", m);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("no control group's cpus list CPU 5"), std::string::npos)
        << missing.error().message;
    auto word = eval("cpuways(victim)", m);
    ASSERT_FALSE(word.ok());
    EXPECT_NE(word.error().message.find("'victim' is not a CPU number"), std::string::npos) << word.error().message;
}
