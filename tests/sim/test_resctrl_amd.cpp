// SPDX-License-Identifier: GPL-3.0-or-later
// SimResctrlFs on the epyc-genoa preset speaks the kernel's AMD dialect (Documentation/filesystems/resctrl.rst):
// MB in 1/8 GB/s with padded values, sparse masks, assignable counters and BMEC.
#include "SimTestUtil.h"

#include "sim/SimResctrlFs.h"

#include <cerrno>

using namespace rdt;
using namespace rdt::sim;
using namespace rdt::sim::test;

namespace {

struct Amd {
    std::unique_ptr<SimMachine> machine;
    std::unique_ptr<SimResctrlFs> fs;
    Amd()
    {
        MachineArgs a;
        a.preset = "epyc-genoa";
        a.cores = 16;
        a.coresPerL3 = 8; // two L3 domains
        machine = makeMachine(a);
        auto m = SimResctrlFs::mount(*machine);
        EXPECT_TRUE(m.ok()) << m.error().toString();
        fs = std::move(*m);
    }
    std::string read(const std::string& p)
    {
        auto r = fs->read(p);
        EXPECT_TRUE(r.ok()) << p << ": " << (r ? "" : r.error().toString());
        return r ? *r : std::string {};
    }
    void write(const std::string& p, const std::string& data)
    {
        auto s = fs->write(p, data);
        EXPECT_TRUE(s.ok()) << p << " <- " << data << ": " << (s ? "" : s.error().toString());
    }
};

} // namespace

TEST(SimResctrlAmd, MbInEighthsOfAGBps)
{
    Amd m;
    EXPECT_EQ(m.read("info/MB/min_bandwidth"), "0\n");
    EXPECT_EQ(m.read("info/MB/bandwidth_gran"), "1\n");
    EXPECT_EQ(m.read("info/MB/delay_linear"), "0\n");
    EXPECT_FALSE(m.fs->exists("info/MB/thread_throttle_mode"));
    EXPECT_EQ(m.read("info/L3/sparse_masks"), "1\n");
    EXPECT_EQ(m.read("schemata"), "    L3:0=ffff;1=ffff\n    MB:0=2048;1=2048\n");
    ASSERT_TRUE(m.fs->mkdir("g").ok());
    m.write("g/schemata", "MB:1=16\nL3:0=f00f\n");
    EXPECT_EQ(m.read("g/schemata"), "    L3:0=f00f;1=ffff\n    MB:0=2048;1=  16\n");
    EXPECT_EQ(m.machine->mbaDelay(1, 1), 16u) << "the MSR holds the limit itself";
    auto bad = m.fs->write("g/schemata", "MB:0=2049\n");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, EINVAL);
    EXPECT_EQ(m.read("info/last_cmd_status"), "MB value 2049 out of range [0,2048]\n");
    m.write("g/schemata", "MB:0=0\n"); // 0 is a valid AMD limit (min_bandwidth 0)
}

TEST(SimResctrlAmd, AssignableCountersRunOut)
{
    Amd m;
    EXPECT_EQ(m.read("info/L3_MON/mbm_assign_mode"), "[mbm_event]\ndefault\n");
    EXPECT_EQ(m.read("info/L3_MON/num_mbm_cntrs"), "0=8;1=8\n");
    EXPECT_EQ(m.read("info/L3_MON/available_mbm_cntrs"), "0=6;1=6\n") << "the default group holds two per domain";
    EXPECT_EQ(m.read("info/L3_MON/event_configs/mbm_local_bytes/event_filter"),
        "local_reads,local_non_temporal_writes,local_reads_slow_memory\n");
    EXPECT_EQ(m.read("mbm_L3_assignments"), "mbm_total_bytes:0=e;1=e\nmbm_local_bytes:0=e;1=e\n");
    for (const char* g : { "a", "b", "c" })
        ASSERT_TRUE(m.fs->mkdir(g).ok());
    EXPECT_EQ(m.read("info/L3_MON/available_mbm_cntrs"), "0=0;1=0\n");
    ASSERT_TRUE(m.fs->mkdir("d").ok()) << "mkdir succeeds without counters";
    // rdt_last_cmd_printf appends: one line per (event, domain) that found no counter.
    EXPECT_EQ(m.read("info/last_cmd_status"),
        "Failed to allocate counter for mbm_total_bytes in domain 0\n"
        "Failed to allocate counter for mbm_local_bytes in domain 0\n"
        "Failed to allocate counter for mbm_total_bytes in domain 1\n"
        "Failed to allocate counter for mbm_local_bytes in domain 1\n");
    EXPECT_EQ(m.read("d/mbm_L3_assignments"), "mbm_total_bytes:0=_;1=_\nmbm_local_bytes:0=_;1=_\n");
    EXPECT_EQ(m.read("d/mon_data/mon_L3_00/mbm_total_bytes"), "Unassigned\n");
    EXPECT_NE(m.read("d/mon_data/mon_L3_00/llc_occupancy"), "Unassigned\n") << "occupancy needs no counter";
    auto full = m.fs->write("d/mbm_L3_assignments", "mbm_total_bytes:0=e\n");
    ASSERT_FALSE(full.ok());
    EXPECT_EQ(full.error().code, ENOSPC);
    m.write("a/mbm_L3_assignments", "mbm_total_bytes:0=_\n");
    m.write("d/mbm_L3_assignments", "mbm_total_bytes:0=e\n");
    EXPECT_EQ(m.read("d/mbm_L3_assignments"), "mbm_total_bytes:0=e;1=_\nmbm_local_bytes:0=_;1=_\n");
    EXPECT_EQ(m.read("d/mon_data/mon_L3_00/mbm_total_bytes"), "0\n") << "a new counter starts from zero";
    EXPECT_EQ(m.read("a/mon_data/mon_L3_00/mbm_total_bytes"), "Unassigned\n");
    ASSERT_TRUE(m.fs->rmdir("b").ok());
    EXPECT_EQ(m.read("info/L3_MON/available_mbm_cntrs"), "0=2;1=2\n") << "rmdir gives the counters back";
    m.write("d/mbm_L3_assignments", "mbm_local_bytes:*=e\n");
    EXPECT_EQ(m.read("d/mbm_L3_assignments"), "mbm_total_bytes:0=e;1=_\nmbm_local_bytes:0=e;1=e\n");
}

TEST(SimResctrlAmd, BmecConfigClearsTheDomainsCounters)
{
    Amd m;
    EXPECT_FALSE(m.fs->exists("info/L3_MON/mbm_total_bytes_config")) << "mbm_event mode configures event_filter";
    m.write("info/L3_MON/mbm_assign_mode", "default\n");
    EXPECT_FALSE(m.fs->exists("mbm_L3_assignments"));
    EXPECT_EQ(m.read("info/L3_MON/mon_features"),
        "llc_occupancy\nmbm_total_bytes\nmbm_total_bytes_config\nmbm_local_bytes\nmbm_local_bytes_config\n");
    EXPECT_EQ(m.read("info/L3_MON/mbm_total_bytes_config"), "0=0x7f;1=0x7f\n");
    EXPECT_EQ(m.read("info/L3_MON/mbm_local_bytes_config"), "0=0x15;1=0x15\n");
    auto tid = m.machine->addThread("hog", 0, spec(Pattern::Stream, 1ull << 28));
    ASSERT_TRUE(tid.ok());
    m.machine->advance(20 * kMs);
    EXPECT_NE(m.read("mon_data/mon_L3_00/mbm_total_bytes"), "0\n");
    m.write("info/L3_MON/mbm_total_bytes_config", "0=0x33\n");
    EXPECT_EQ(m.read("info/L3_MON/mbm_total_bytes_config"), "0=0x33;1=0x7f\n");
    EXPECT_EQ(m.read("mon_data/mon_L3_00/mbm_total_bytes"), "Unavailable\n");
    EXPECT_EQ(m.read("mon_data/mon_L3_00/mbm_total_bytes"), "0\n") << "counting again from the clear";
    EXPECT_NE(m.read("mon_data/mon_L3_01/mbm_total_bytes"), "Unavailable\n") << "other domains keep counting";
    auto bad = m.fs->write("info/L3_MON/mbm_total_bytes_config", "0=0x80\n");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(m.read("info/last_cmd_status"), "Invalid event configuration: max valid mask is 0x7f\n");
}

// BMEC filters what the simulated machine counts: a streamer's misses are reads and its stores' dirty victims
// writebacks. Reads only (0x03) count less than every type (0x7f); victims only (0x40) the rest; the two add up.
TEST(SimResctrlAmd, BmecConfigFiltersTheCountedTransactions)
{
    Amd m;
    m.write("info/L3_MON/mbm_assign_mode", "default\n");
    auto streamer = spec(Pattern::Stream, 1ull << 28);
    streamer.writeFraction = 0.5;
    auto tid = m.machine->addThread("hog", 0, streamer);
    ASSERT_TRUE(tid.ok());
    m.machine->advance(20 * kMs); // warm: the cache fills with dirty lines, whose eviction is written back
    auto bytesOver = [&](const std::string& config) {
        m.write("info/L3_MON/mbm_total_bytes_config", config);
        EXPECT_EQ(m.read("mon_data/mon_L3_00/mbm_total_bytes"), "Unavailable\n"); // the clear
        m.machine->advance(20 * kMs);
        return std::stoull(m.read("mon_data/mon_L3_00/mbm_total_bytes"));
    };
    const auto reads = bytesOver("0=0x03\n"); // each a change from the one before: each clears the counters
    const auto victims = bytesOver("0=0x40\n");
    const auto all = bytesOver("0=0x7f\n");
    EXPECT_GT(reads, 0u);
    EXPECT_GT(victims, 0u);
    EXPECT_LT(reads, all);
    // Each 20 ms runs the same steady stream: the parts add up to the whole within 10 %.
    const double sum = static_cast<double>(reads + victims);
    EXPECT_NEAR(sum / static_cast<double>(all), 1.0, 0.1) << reads << " + " << victims << " vs " << all;
    // Non-temporal writes and slow memory: the simulated programs have none.
    EXPECT_EQ(bytesOver("0=0x3c\n"), 0u);
    // Local counts local reads by default (0x15, no victims): on one node, what total counts with 0x03.
    m.write("info/L3_MON/mbm_total_bytes_config", "0=0x03\n");
    (void)m.read("mon_data/mon_L3_00/mbm_total_bytes"); // the clear
    const auto local0 = std::stoull(m.read("mon_data/mon_L3_00/mbm_local_bytes"));
    m.machine->advance(20 * kMs);
    EXPECT_EQ(std::stoull(m.read("mon_data/mon_L3_00/mbm_local_bytes")) - local0,
        std::stoull(m.read("mon_data/mon_L3_00/mbm_total_bytes")));
}
