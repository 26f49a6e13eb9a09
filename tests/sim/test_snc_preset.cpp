// SPDX-License-Identifier: GPL-3.0-or-later
// The icx-8351n-snc2 preset: an Ice Lake-SP in SNC-2 mode. Each node counts its own RMIDs (the hardware adds the
// node's share to the RMID), and the simulated resctrl shows them as mon_L3_XX/mon_sub_L3_YY with the RMIDs
// divided by the nodes (kernel Documentation/filesystems/resctrl.rst "mon_data", "Notes on Sub-NUMA Cluster mode").
#include "SimTestUtil.h"

#include "sim/SimResctrlFs.h"

#include <cstdlib>

using namespace rdt;
using namespace rdt::sim;
using namespace rdt::sim::test;

namespace {
struct Snc {
    std::unique_ptr<SimMachine> machine;
    std::unique_ptr<SimResctrlFs> fs;
    Snc()
    {
        const PresetInfo* info = presetInfo("icx-8351n-snc2");
        EXPECT_NE(info, nullptr);
        auto cpuid = presetCpuid("icx-8351n-snc2");
        EXPECT_TRUE(cpuid.ok());
        SimOptions o;
        o.topology.coresPerSocket = 8;
        o.topology.sncNodes = info ? info->sncNodes : 1;
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
    std::uint64_t number(const std::string& p) { return std::strtoull(read(p).c_str(), nullptr, 10); }
};
} // namespace

TEST(SncPreset, SubNodeDirectoriesAndRmidsPerNode)
{
    Snc m;
    EXPECT_EQ(m.machine->options().topology.sncNodes, 2u);
    EXPECT_EQ(m.read("info/L3_MON/num_rmids"), "144\n") << "288 RMIDs shared by 2 nodes";
    auto list = m.fs->list("mon_data/mon_L3_00");
    ASSERT_TRUE(list.ok());
    EXPECT_EQ(*list,
        (std::vector<std::string> {
            "llc_occupancy", "mbm_local_bytes", "mbm_total_bytes", "mon_sub_L3_00", "mon_sub_L3_01" }));
    EXPECT_TRUE(m.fs->exists("mon_data/mon_L3_00/mon_sub_L3_01/llc_occupancy"));
    EXPECT_FALSE(m.fs->exists("mon_data/mon_L3_00/mon_sub_L3_02"));
}

// A thread on node 1's CPUs fills node 1's count only; the L3 file is the sum of the nodes.
TEST(SncPreset, EachNodeCountsItsOwnCpus)
{
    Snc m;
    ASSERT_TRUE(m.fs->mkdir("g").ok());
    auto tid = m.machine->addThread("fill", 6, spec(Pattern::Stream, 8u << 20)); // CPU 6: node 1 of 4+4 cores
    ASSERT_TRUE(tid.ok());
    ASSERT_TRUE(m.fs->write("g/tasks", std::to_string(*tid) + "\n").ok());
    m.machine->advance(30 * kMs);
    const std::uint64_t node0 = m.number("g/mon_data/mon_L3_00/mon_sub_L3_00/llc_occupancy");
    const std::uint64_t node1 = m.number("g/mon_data/mon_L3_00/mon_sub_L3_01/llc_occupancy");
    const std::uint64_t l3 = m.number("g/mon_data/mon_L3_00/llc_occupancy");
    EXPECT_EQ(node0, 0u);
    EXPECT_GT(node1, 4u << 20);
    EXPECT_EQ(l3, node0 + node1);
    EXPECT_GT(m.number("g/mon_data/mon_L3_00/mon_sub_L3_01/mbm_total_bytes"), 0u);
    EXPECT_EQ(m.number("g/mon_data/mon_L3_00/mon_sub_L3_00/mbm_total_bytes"), 0u);
}
