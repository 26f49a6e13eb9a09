// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated PERF_PKG_MON telemetry of the icx-8351n-snc2 preset (synthetic, capture/sim/SimResctrlTelemetry.cpp):
// the kernel's files and formats (info/PERF_PKG_MON, mon_data/mon_PERF_PKG_XX, fixed-point core_energy and activity,
// integer events), energy that follows what the group's threads do, per package, and CTRL_MON sums.
#include "SimTestUtil.h"

#include "sim/SimResctrlFs.h"

#include <cstdlib>
#include <regex>

using namespace rdt;
using namespace rdt::sim;
using namespace rdt::sim::test;

namespace {
struct Tel {
    std::unique_ptr<SimMachine> machine;
    std::unique_ptr<SimResctrlFs> fs;
    Tel()
    {
        const PresetInfo* info = presetInfo("icx-8351n-snc2");
        EXPECT_NE(info, nullptr);
        auto cpuid = presetCpuid("icx-8351n-snc2");
        EXPECT_TRUE(cpuid.ok());
        SimOptions o;
        o.topology.sockets = 2;
        o.topology.coresPerSocket = 8;
        o.topology.sncNodes = info ? info->sncNodes : 1;
        o.pkgTelemetry = info && info->pkgTelemetry;
        o.setSampling = 16;
        auto m = SimMachine::create(*cpuid, o);
        EXPECT_TRUE(m.ok());
        machine = std::move(*m);
        auto f = SimResctrlFs::mount(*machine);
        EXPECT_TRUE(f.ok());
        fs = std::move(*f);
    }
    std::string read(const std::string& p)
    {
        auto r = fs->read(p);
        EXPECT_TRUE(r.ok()) << p;
        return r ? *r : std::string {};
    }
    double number(const std::string& p) { return std::strtod(read(p).c_str(), nullptr); }
    int addThread(const std::string& group, unsigned cpu)
    {
        auto tid = machine->addThread(group + std::to_string(cpu), cpu, spec(Pattern::Stream, 8u << 20));
        EXPECT_TRUE(tid.ok());
        // A task enters a MON group from its parent control group (the kernel refuses a move across CLOSIDs).
        if (const auto pos = group.find("/mon_groups/"); pos != std::string::npos) {
            EXPECT_TRUE(fs->write(group.substr(0, pos) + "/tasks", std::to_string(*tid) + "\n").ok());
        }
        EXPECT_TRUE(fs->write(group + "/tasks", std::to_string(*tid) + "\n").ok());
        return *tid;
    }
};
} // namespace

TEST(PkgTelemetryPreset, InfoAndDirectoriesAsTheKernelShowsThem)
{
    Tel m;
    EXPECT_EQ(m.read("info/PERF_PKG_MON/num_rmids"), "144\n");
    const auto features = m.read("info/PERF_PKG_MON/mon_features");
    EXPECT_EQ(features.rfind("core_energy\nactivity\n", 0), 0u) << features;
    auto data = m.fs->list("mon_data");
    ASSERT_TRUE(data.ok());
    EXPECT_EQ(*data, (std::vector<std::string> { "mon_L3_00", "mon_L3_01", "mon_PERF_PKG_00", "mon_PERF_PKG_01" }));
    EXPECT_FALSE(m.fs->exists("mon_data/mon_PERF_PKG_02"));
    EXPECT_FALSE(m.fs->exists("mon_data/mon_PERF_PKG_00/c1_res")) << "not modelled, so not listed";
    EXPECT_TRUE(m.fs->isDirectory("mon_data/mon_PERF_PKG_01"));
    // Fixed-point events print as decimals with a fraction, integer events as integers.
    EXPECT_TRUE(std::regex_match(m.read("mon_data/mon_PERF_PKG_00/core_energy"), std::regex("[0-9]+\\.[0-9]{6}\n")));
    EXPECT_TRUE(std::regex_match(m.read("mon_data/mon_PERF_PKG_00/uops_retired"), std::regex("[0-9]+\n")));
}

TEST(PkgTelemetryPreset, EnergyFollowsTheGroupsThreadsPerPackage)
{
    Tel m;
    ASSERT_TRUE(m.fs->mkdir("one").ok());
    ASSERT_TRUE(m.fs->mkdir("two").ok());
    ASSERT_TRUE(m.fs->mkdir("two/mon_groups/m").ok());
    m.addThread("one", 1);
    m.addThread("two", 2);
    m.addThread("two/mon_groups/m", 3);
    m.machine->advance(200 * kMs);
    const double one = m.number("one/mon_data/mon_PERF_PKG_00/core_energy");
    const double two = m.number("two/mon_data/mon_PERF_PKG_00/core_energy");
    const double child = m.number("two/mon_groups/m/mon_data/mon_PERF_PKG_00/core_energy");
    // One busy core for 0.2 s: a few watts (the model's 0.8 nJ per cycle at 3 GHz and more per instruction/byte).
    EXPECT_GT(one / 0.2, 1.0);
    EXPECT_LT(one / 0.2, 20.0);
    // A CTRL_MON group reads the sum of itself and its MON groups; two identical threads use twice the energy.
    EXPECT_GT(child, 0.0);
    EXPECT_NEAR(two / one, 2.0, 0.3);
    EXPECT_GT(m.number("one/mon_data/mon_PERF_PKG_00/activity"), 0.0);
    EXPECT_GT(m.number("one/mon_data/mon_PERF_PKG_00/unhalted_core_cycles"), 0.1 * 3e9 * 0.2);
    // Package 1 ran nothing of these groups.
    EXPECT_EQ(m.number("one/mon_data/mon_PERF_PKG_01/core_energy"), 0.0);
    // Moving the thread to package 1 (CPU 9) moves where its energy is counted.
    const int tid = m.addThread("one", 9);
    (void)tid;
    m.machine->advance(100 * kMs);
    EXPECT_GT(m.number("one/mon_data/mon_PERF_PKG_01/core_energy"), 0.0);
    EXPECT_GT(m.number("one/mon_data/mon_PERF_PKG_00/core_energy"), one) << "cumulative: never goes down";
}
