// SPDX-License-Identifier: GPL-3.0-or-later
// Topology from small sysfs trees built in a temp dir: 2 packages x 2 cores x 2 threads, one L3 per package.
#include "TempDir.h"

#include "platform/Topology.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::test;

namespace {

/// cpu = package * 4 + core * 2 + thread, as a 2-socket SMT machine numbers them... except that Linux numbers
/// siblings apart; the tree uses 0-3 on package 0 and 4-7 on package 1 with siblings (0,1), (2,3), ...
void buildTwoSocketTree(const TempDir& d)
{
    d.write("devices/system/cpu/online", "0-7\n");
    for (unsigned cpu = 0; cpu < 8; ++cpu) {
        const unsigned package = cpu / 4;
        const unsigned core = (cpu % 4) / 2;
        const std::string base = "devices/system/cpu/cpu" + std::to_string(cpu);
        d.write(base + "/topology/physical_package_id", std::to_string(package) + "\n");
        d.write(base + "/topology/die_id", "0\n");
        d.write(base + "/topology/core_id", std::to_string(core) + "\n");
        d.write(base + "/cache/index0/level", "1\n");
        d.write(base + "/cache/index0/type", "Data\n");
        d.write(base + "/cache/index0/id", std::to_string(cpu / 2) + "\n");
        d.write(base + "/cache/index1/level", "1\n");
        d.write(base + "/cache/index1/type", "Instruction\n");
        d.write(base + "/cache/index2/level", "2\n");
        d.write(base + "/cache/index2/type", "Unified\n");
        const unsigned l2id = cpu / 2;
        d.write(base + "/cache/index2/id", std::to_string(l2id) + "\n");
        d.write(base + "/cache/index2/shared_cpu_list",
            std::to_string(l2id * 2) + "-" + std::to_string(l2id * 2 + 1) + "\n");
        d.write(base + "/cache/index2/size", "1024K\n");
        d.write(base + "/cache/index3/level", "3\n");
        d.write(base + "/cache/index3/type", "Unified\n");
        // resctrl domain ids need not be 0..n-1: use 0 and 2 to catch code that assumes they are indices.
        d.write(base + "/cache/index3/id", std::to_string(package * 2) + "\n");
        d.write(base + "/cache/index3/shared_cpu_list", package == 0 ? "0-3\n" : "4-7\n");
        d.write(base + "/cache/index3/size", "25344K\n");
    }
    d.write("devices/system/node/node0/cpulist", "0-3\n");
    d.write("devices/system/node/node1/cpulist", "4-7\n");
    d.write("devices/system/node/possible", "0-1\n"); // not a nodeN entry: must be ignored
}

} // namespace

TEST(Topology, TwoSocketTree)
{
    TempDir d;
    buildTwoSocketTree(d);
    auto t = readTopology(d.path());
    ASSERT_TRUE(t.ok()) << t.error().toString();
    EXPECT_EQ(t->cpus.size(), 8u);
    EXPECT_EQ(t->packageCount(), 2u);
    EXPECT_EQ(t->coreCount(), 4u);
    ASSERT_EQ(t->l3.size(), 2u);
    EXPECT_EQ(t->l3[0].id, 0u);
    EXPECT_EQ(t->l3[1].id, 2u);
    EXPECT_EQ(t->l3[1].cpus, (std::vector<unsigned> { 4, 5, 6, 7 }));
    EXPECT_EQ(t->l3[0].size, "25344K");
    ASSERT_EQ(t->l2.size(), 4u);
    EXPECT_EQ(t->l2[3].cpus, (std::vector<unsigned> { 6, 7 }));
    ASSERT_EQ(t->nodes.size(), 2u);
    EXPECT_EQ(t->nodes.at(1), (std::vector<unsigned> { 4, 5, 6, 7 }));
    EXPECT_EQ(t->cpus[5].node, 1);
    EXPECT_EQ(t->cpus[5].package, 1);
    EXPECT_EQ(t->cpus[5].core, 0);
    EXPECT_TRUE(t->warnings.empty());
}

TEST(Topology, OfflineCpusAreSkippedAndMissingIdsWarn)
{
    TempDir d;
    buildTwoSocketTree(d);
    d.write("devices/system/cpu/online", "0-3\n");
    std::filesystem::remove(std::filesystem::path(d.path()) / "devices/system/cpu/cpu2/cache/index3/id");
    auto t = readTopology(d.path());
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->cpus.size(), 4u);
    EXPECT_EQ(t->packageCount(), 1u);
    ASSERT_EQ(t->l3.size(), 1u);
    ASSERT_EQ(t->warnings.size(), 1u);
    EXPECT_NE(t->warnings[0].find("cpu2/cache/index3/id missing"), std::string::npos);
}

TEST(Topology, NoOnlineFileFallsBackToCpuDirectories)
{
    TempDir d;
    d.write("devices/system/cpu/cpu0/topology/physical_package_id", "0\n");
    d.write("devices/system/cpu/cpu0/topology/core_id", "0\n");
    d.write("devices/system/cpu/cpu1/topology/physical_package_id", "0\n");
    d.write("devices/system/cpu/cpu1/topology/core_id", "1\n");
    d.mkdir("devices/system/cpu/cpufreq"); // not a CPU
    auto t = readTopology(d.path());
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->cpus.size(), 2u);
    EXPECT_EQ(t->coreCount(), 2u);
    EXPECT_TRUE(t->l3.empty());
    EXPECT_TRUE(t->nodes.empty());
}

TEST(Topology, EmptyRootIsAnError)
{
    TempDir d;
    auto t = readTopology(d.path());
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error().code, ENOENT);
}
