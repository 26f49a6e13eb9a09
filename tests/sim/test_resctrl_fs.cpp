// SPDX-License-Identifier: GPL-3.0-or-later
// SimResctrlFs against the kernel's behaviour (docs/RESCTRL.md): files, messages, errnos, groups.
#include "SimTestUtil.h"

#include "sim/SimResctrlFs.h"

#include <atomic>
#include <cerrno>
#include <set>
#include <thread>

using namespace rdt;
using namespace rdt::sim;
using namespace rdt::sim::test;

namespace {

struct Mounted {
    std::unique_ptr<SimMachine> machine;
    std::unique_ptr<SimResctrlFs> fs;
    std::string read(const std::string& p)
    {
        auto r = fs->read(p);
        EXPECT_TRUE(r.ok()) << p;
        return r ? *r : std::string {};
    }
    std::string status() { return read("info/last_cmd_status"); }
};

Mounted mount(MachineArgs args = { "skx-6154", 2, 1, 64, {} }, ResctrlMountOptions opts = {})
{
    Mounted m;
    m.machine = makeMachine(args);
    auto fs = SimResctrlFs::mount(*m.machine, opts);
    EXPECT_TRUE(fs.ok()) << fs.error().toString();
    m.fs = std::move(*fs);
    return m;
}

/// A write that must fail with errno and leave `text` in info/last_cmd_status (empty text: status "ok").
void expectReject(Mounted& m, const std::string& path, const std::string& data, int err, const std::string& text)
{
    auto s = m.fs->write(path, data);
    ASSERT_FALSE(s.ok()) << path << " <- " << data;
    EXPECT_EQ(s.error().code, err) << data;
    EXPECT_EQ(m.status(), text.empty() ? "ok\n" : text + "\n") << data;
}

} // namespace

TEST(SimResctrlFs, InfoFilesFromCpuid)
{
    auto m = mount();
    EXPECT_EQ(*m.fs->list("info"), (std::vector<std::string> { "L3", "L3_MON", "MB", "last_cmd_status" }));
    EXPECT_EQ(m.read("info/L3/cbm_mask"), "7ff\n");
    EXPECT_EQ(m.read("info/L3/shareable_bits"), "600\n");
    EXPECT_EQ(m.read("info/L3/num_closids"), "16\n");
    EXPECT_EQ(m.read("info/L3/min_cbm_bits"), "1\n");
    EXPECT_EQ(m.read("info/L3/sparse_masks"), "0\n");
    EXPECT_EQ(m.read("info/L3/bit_usage"), "0=XXSSSSSSSSS\n");
    EXPECT_EQ(m.read("info/MB/num_closids"), "8\n");
    EXPECT_EQ(m.read("info/MB/min_bandwidth"), "10\n");
    EXPECT_EQ(m.read("info/MB/bandwidth_gran"), "10\n");
    EXPECT_EQ(m.read("info/MB/delay_linear"), "1\n");
    EXPECT_EQ(m.read("info/MB/thread_throttle_mode"), "max\n");
    EXPECT_EQ(m.read("info/L3_MON/num_rmids"), "144\n");
    EXPECT_EQ(m.read("info/L3_MON/mon_features"), "llc_occupancy\nmbm_total_bytes\nmbm_local_bytes\n");
    EXPECT_EQ(m.read("info/L3_MON/max_threshold_occupancy"), "147456\n"); // 25952256/144 rounded to 73728
    EXPECT_EQ(m.status(), "ok\n");
    // Root: CLOSID 0 with the default masks; a CDP-capable L3 pads names as if "CODE" followed.
    EXPECT_EQ(m.read("schemata"), "    L3:0=7ff\n    MB:0=100\n");
    EXPECT_EQ(m.read("cpus"), "3\n");
    EXPECT_EQ(m.read("cpus_list"), "0-1\n");
    EXPECT_EQ(m.read("mode"), "shareable\n");
    EXPECT_EQ(m.read("size"), "    L3:0=25952256\n    MB:0=100\n");
    EXPECT_EQ(*m.fs->list("mon_data"), std::vector<std::string> { "mon_L3_00" });
    EXPECT_EQ(m.fs->read("info/L3/nope").error().code, ENOENT);
    EXPECT_EQ(m.fs->write("info/L3/cbm_mask", "1\n").error().code, EACCES);
    EXPECT_EQ(m.fs->read("info").error().code, EISDIR);

    auto icx = mount({ "icx-8351n", 2, 1, 64, {} }); // no CDP: no padding; 32-bit MBM
    EXPECT_EQ(icx.read("schemata"), "L3:0=fff\nMB:0=100\n");
    EXPECT_EQ(icx.read("info/L3/num_closids"), "15\n");
    EXPECT_EQ(icx.read("info/L3/shareable_bits"), "c00\n");
    auto hsw = mount({ "hsw-2699v3", 2, 1, 64, {} }); // CMT only
    EXPECT_EQ(*hsw.fs->list("info"), (std::vector<std::string> { "L3_MON", "last_cmd_status" }));
    EXPECT_EQ(hsw.read("info/L3_MON/mon_features"), "llc_occupancy\n");
    EXPECT_FALSE(hsw.fs->exists("schemata"));
    EXPECT_EQ(hsw.fs->mkdir("p0").error().code, EPERM) << "no allocation: only monitor groups";
    EXPECT_TRUE(hsw.fs->mkdir("mon_groups/m0").ok());
    auto none = SimResctrlFs::mount(*makeMachine({ "icx-d1718t", 1, 1, 64, {} }));
    EXPECT_EQ(none.error().code, ENODEV);
}

TEST(SimResctrlFs, SchemataMessagesAndErrnos)
{
    auto m = mount();
    ASSERT_TRUE(m.fs->mkdir("p1").ok());
    expectReject(m, "p1/schemata", "L3:0=5\n", EINVAL, "The mask 5 has non-consecutive 1-bits");
    expectReject(m, "p1/schemata", "L3:0=0\n", EINVAL, "Mask out of range");
    expectReject(m, "p1/schemata", "L3:0=fff\n", EINVAL, "Mask out of range");
    expectReject(m, "p1/schemata", "L3:0=xyz\n", EINVAL, "Non-hex character in the mask xyz");
    expectReject(m, "p1/schemata", "MB:0=5\n", EINVAL, "MB value 5 out of range [10,100]");
    expectReject(m, "p1/schemata", "MB:0=101\n", EINVAL, "MB value 101 out of range [10,100]");
    expectReject(m, "p1/schemata", "MB:0=fast\n", EINVAL, "Invalid MB value fast");
    expectReject(m, "p1/schemata", "L4:0=1\n", EINVAL, "Unknown or unsupported resource name 'L4'");
    expectReject(m, "p1/schemata", "L3CODE:0=1\n", EINVAL, "Unknown or unsupported resource name 'L3CODE'");
    expectReject(m, "p1/schemata", "L3:x=1\n", EINVAL, "Missing '=' or non-numeric domain");
    expectReject(m, "p1/schemata", "L3:0\n", EINVAL, "Missing '=' or non-numeric domain");
    expectReject(m, "p1/schemata", "L3:0=7;0=3\n", EINVAL, "Duplicate domain 0");
    expectReject(m, "p1/schemata", "L3\n", EINVAL, "Missing ':'");
    expectReject(m, "p1/schemata", "L3:\n", EINVAL, "Missing 'L3' value");
    expectReject(m, "p1/schemata", "L3:7=7\n", EINVAL, ""); // unknown domain: silent
    // Without the trailing newline the kernel fails before clearing the status: the previous text stays.
    expectReject(m, "p1/schemata", "L3:0=5\n", EINVAL, "The mask 5 has non-consecutive 1-bits");
    expectReject(m, "p1/schemata", "L3:0=7f", EINVAL, "The mask 5 has non-consecutive 1-bits");
    EXPECT_EQ(m.read("p1/schemata"), "    L3:0=7ff\n    MB:0=100\n") << "rejected writes change nothing";
    // A failing line rejects the whole write, even lines before it.
    expectReject(m, "p1/schemata", "L3:0=00f\nMB:0=3\n", EINVAL, "MB value 3 out of range [10,100]");
    EXPECT_EQ(m.read("p1/schemata"), "    L3:0=7ff\n    MB:0=100\n");
    // Valid: partial writes, multi-line, "0x" accepted, MB rounded up to bandwidth_gran, leading spaces trimmed.
    ASSERT_TRUE(m.fs->write("p1/schemata", "L3:0=0x0f0\n").ok());
    ASSERT_TRUE(m.fs->write("p1/schemata", "  MB:0=25\n").ok());
    EXPECT_EQ(m.status(), "ok\n");
    EXPECT_EQ(m.read("p1/schemata"), "    L3:0=f0\n    MB:0=30\n");
    EXPECT_EQ(m.machine->l3Mask(0, 1), 0x0F0u);
    EXPECT_EQ(m.machine->mbaDelay(0, 1), 70u) << "delay = 100 - bandwidth";
    EXPECT_EQ(m.read("p1/size"), "    L3:0=9437184\n    MB:0=30\n");
    ASSERT_TRUE(m.fs->write("p1/schemata", "L3:0=3\nMB:0=100\n").ok());
    EXPECT_EQ(m.read("info/L3/bit_usage"), "0=XXSSSSSSSSS\n");

    auto linear0 = mount({ "skx-6154", 2, 1, 64, { { "mba_linear", 0 } } });
    ASSERT_TRUE(linear0.fs->mkdir("p1").ok());
    expectReject(linear0, "p1/schemata", "MB:0=50\n", EINVAL, "No support for non-linear MB domains");

    ResctrlMountOptions hswQuirk;
    hswQuirk.minCbmBits = 2;
    auto min2 = mount({ "skx-6154", 2, 1, 64, {} }, hswQuirk);
    ASSERT_TRUE(min2.fs->mkdir("p1").ok());
    expectReject(min2, "p1/schemata", "L3:0=4\n", EINVAL, "Need at least 2 bits in the mask");
    auto sparse = mount({ "skx-6154", 2, 1, 64, { { "l3_sparse", 1 } } });
    ASSERT_TRUE(sparse.fs->mkdir("p1").ok());
    EXPECT_EQ(sparse.read("info/L3/sparse_masks"), "1\n");
    EXPECT_TRUE(sparse.fs->write("p1/schemata", "L3:0=70f\n").ok());
}

TEST(SimResctrlFs, ExclusiveModeAndInitialMask)
{
    auto m = mount();
    ASSERT_TRUE(m.fs->mkdir("p1").ok());
    EXPECT_EQ(m.read("p1/schemata"), "    L3:0=7ff\n    MB:0=100\n") << "all shareable: the full mask";
    expectReject(m, "p1/mode", "exclusive\n", EINVAL, "Schemata overlaps");
    ASSERT_TRUE(m.fs->write("schemata", "L3:0=7f0\n").ok());
    ASSERT_TRUE(m.fs->write("p1/schemata", "L3:0=00c\n").ok());
    ASSERT_TRUE(m.fs->write("p1/mode", "exclusive\n").ok());
    EXPECT_EQ(m.read("p1/mode"), "exclusive\n");
    EXPECT_EQ(m.read("info/L3/bit_usage"), "0=XXSSSSSEE00\n");
    expectReject(m, "schemata", "L3:0=7fc\n", EINVAL, "Overlaps with exclusive group");
    expectReject(m, "p1/schemata", "L3:0=01c\n", EINVAL, "Overlaps with other group");
    expectReject(m, "p1/mode", "pseudo-locksetup\n", EINVAL, "Unknown or unsupported mode");
    // __init_one_rdt_domain: shareable bits + shareable groups' bits + unused bits (0x003), cut to the first run.
    ASSERT_TRUE(m.fs->mkdir("p2").ok());
    EXPECT_EQ(m.read("p2/schemata"), "    L3:0=3\n    MB:0=100\n");
}

TEST(SimResctrlFs, TasksAndCpus)
{
    auto m = mount();
    auto a = m.machine->addThread("a", 0, spec(Pattern::Random, 1 << 20));
    auto b = m.machine->addThread("b", 1, spec(Pattern::Random, 1 << 20));
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(m.read("tasks"), "1001\n1002\n");
    ASSERT_TRUE(m.fs->mkdir("p1").ok());
    ASSERT_TRUE(m.fs->mkdir("p1/mon_groups/m1").ok());
    ASSERT_TRUE(m.fs->mkdir("p2").ok());
    ASSERT_TRUE(m.fs->write("p1/tasks", "1001,1002\n").ok());
    EXPECT_EQ(m.read("p1/tasks"), "1001\n1002\n");
    EXPECT_EQ(m.read("tasks"), "");
    EXPECT_EQ(m.machine->thread(*a)->clos, 1u);
    EXPECT_EQ(m.machine->thread(*a)->rmid, 1u);
    ASSERT_TRUE(m.fs->write("p1/mon_groups/m1/tasks", "1002\n").ok());
    EXPECT_EQ(m.read("p1/mon_groups/m1/tasks"), "1002\n");
    EXPECT_EQ(m.read("p1/tasks"), "1001\n1002\n") << "a CTRL_MON group lists its MON groups' tasks too";
    EXPECT_EQ(m.machine->thread(*b)->rmid, 2u);
    expectReject(m, "p1/tasks", "99999\n", ESRCH, "No task 99999\nError while processing task 99999");
    expectReject(m, "p1/tasks", "abc\n", EINVAL, "Task list parsing error pid abc");
    expectReject(m, "p1/tasks", "-5\n", EINVAL, "Invalid pid -5");
    ASSERT_TRUE(m.fs->write("p2/tasks", "1001\n").ok());
    expectReject(m, "p1/mon_groups/m1/tasks", "1001\n", EINVAL,
        "Can't move task to different control group\nError while processing task 1001");

    expectReject(m, "p2/cpus", "zz\n", EINVAL, "Bad CPU list/mask");
    expectReject(m, "p2/cpus_list", "0-9\n", EINVAL, "Bad CPU list/mask");
    expectReject(m, "cpus_list", "0\n", EINVAL, "Can't drop CPUs from default group");
    expectReject(m, "p1/mon_groups/m1/cpus_list", "1\n", EINVAL, "Can only add CPUs to mongroup that belong to parent");
    ASSERT_TRUE(m.fs->write("p1/cpus_list", "1\n").ok());
    EXPECT_EQ(m.read("p1/cpus"), "2\n");
    EXPECT_EQ(m.read("cpus_list"), "0\n");
    EXPECT_EQ(m.machine->pqr(1).clos, 1u) << "the CPU's default CLOSID";
    ASSERT_TRUE(m.fs->write("p1/mon_groups/m1/cpus_list", "1\n").ok());
    EXPECT_EQ(m.machine->pqr(1).rmid, 2u);
    ASSERT_TRUE(m.fs->write("p2/cpus", "2\n").ok()); // takes CPU 1 from p1 and m1
    EXPECT_EQ(m.read("p1/cpus_list"), "\n");
    EXPECT_EQ(m.read("p1/mon_groups/m1/cpus_list"), "\n");
    EXPECT_EQ(m.machine->pqr(1).clos, 2u);
    ASSERT_TRUE(m.fs->write("p2/cpus_list", "\n").ok()); // dropped CPUs return to the default group
    EXPECT_EQ(m.read("cpus_list"), "0-1\n");
    EXPECT_EQ(m.machine->pqr(1).clos, 0u);
}

TEST(SimResctrlFs, CpuMaskTrailingSeparatorsAreSkippedAsBitmapParseDoes)
{
    // lib/bitmap-str.c bitmap_parse skips commas and white space at the end: pqos writes "02," for CPU 1.
    auto m = mount();
    ASSERT_TRUE(m.fs->mkdir("p1").ok());
    ASSERT_TRUE(m.fs->write("p1/cpus", "02,").ok());
    EXPECT_EQ(m.read("p1/cpus_list"), "1\n");
    ASSERT_TRUE(m.fs->write("p1/cpus", "3, \n").ok());
    EXPECT_EQ(m.read("p1/cpus_list"), "0-1\n");
    ASSERT_TRUE(m.fs->write("p1/cpus", ",\n").ok()) << "nothing but separators: the empty set, as bitmap_parse";
    EXPECT_EQ(m.read("p1/cpus_list"), "\n");
    expectReject(m, "p1/cpus", "02,zz\n", EINVAL, "Bad CPU list/mask");
}

TEST(SimResctrlFs, HostTasksAreRecordedListedAndReturnedOnRmdir)
{
    std::set<unsigned> alive { 4242, 4343 };
    ResctrlMountOptions opts;
    opts.hostTaskExists = [&alive](unsigned pid) { return alive.count(pid) != 0; };
    auto m = mount({ "skx-6154", 2, 1, 64, {} }, opts);
    ASSERT_TRUE(m.fs->mkdir("p1").ok());
    ASSERT_TRUE(m.fs->mkdir("p1/mon_groups/m1").ok());
    EXPECT_TRUE(m.fs->taskExists(4242));
    EXPECT_FALSE(m.fs->taskExists(4444));
    ASSERT_TRUE(m.fs->write("p1/tasks", "4242\n").ok());
    ASSERT_TRUE(m.fs->write("p1/mon_groups/m1/tasks", "4343\n").ok() == false)
        << "4343 is in the default group, not p1: a monitor group of p1 cannot take it";
    ASSERT_TRUE(m.fs->write("p1/tasks", "4343\n").ok());
    ASSERT_TRUE(m.fs->write("p1/mon_groups/m1/tasks", "4343\n").ok());
    EXPECT_EQ(m.read("p1/tasks"), "4242\n4343\n");
    EXPECT_EQ(m.read("p1/mon_groups/m1/tasks"), "4343\n");
    EXPECT_EQ(m.read("tasks"), "") << "no simulated threads; the host tasks left the default group";
    alive.erase(4242); // an exited task drops out of every list
    EXPECT_EQ(m.read("p1/tasks"), "4343\n");
    expectReject(m, "p1/tasks", "4242\n", ESRCH, "No task 4242\nError while processing task 4242");
    ASSERT_TRUE(m.fs->rmdir("p1").ok());
    EXPECT_EQ(m.read("tasks"), "4343\n");
}

TEST(SimResctrlFs, DefaultGroupListsTheHostTasksNoGroupTook)
{
    ResctrlMountOptions opts;
    opts.hostTaskExists = [](unsigned pid) { return pid == 10 || pid == 11 || pid == 12; };
    opts.listHostTasks = [] { return std::vector<unsigned> { 10, 11, 12 }; };
    auto m = mount({ "skx-6154", 2, 1, 64, {} }, opts);
    ASSERT_TRUE(m.fs->mkdir("p1").ok());
    EXPECT_EQ(m.read("tasks"), "10\n11\n12\n") << "every task starts in the default group";
    ASSERT_TRUE(m.fs->write("p1/tasks", "11\n").ok());
    EXPECT_EQ(m.read("tasks"), "10\n12\n");
    EXPECT_EQ(m.read("p1/tasks"), "11\n");
    ASSERT_TRUE(m.fs->rmdir("p1").ok());
    EXPECT_EQ(m.read("tasks"), "11\n10\n12\n") << "listed once, back in the default group";
}

TEST(SimResctrlFs, ClosidExhaustionAndCdpHalving)
{
    auto m = mount();
    // num_closids: L3 16, MB 8 -> the kernel uses the minimum; CLOSID 0 is the root's: 7 groups.
    for (int i = 1; i <= 7; ++i)
        ASSERT_TRUE(m.fs->mkdir("p" + std::to_string(i)).ok()) << i;
    auto s = m.fs->mkdir("p8");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ENOSPC);
    EXPECT_EQ(m.status(), "Out of CLOSIDs\n");
    ASSERT_TRUE(m.fs->rmdir("p3").ok());
    ASSERT_TRUE(m.fs->mkdir("p8").ok());
    EXPECT_EQ(m.status(), "ok\n");

    ResctrlMountOptions cdp;
    cdp.cdp = true;
    auto b = mount({ "bdw-6850k", 2, 1, 64, {} }, cdp);
    EXPECT_EQ(*b.fs->list("info"), (std::vector<std::string> { "L3CODE", "L3DATA", "L3_MON", "last_cmd_status" }));
    EXPECT_EQ(b.read("info/L3CODE/num_closids"), "8\n");
    EXPECT_EQ(b.read("schemata"), "L3CODE:0=fffff\nL3DATA:0=fffff\n");
    for (int i = 1; i <= 7; ++i)
        ASSERT_TRUE(b.fs->mkdir("c" + std::to_string(i)).ok()) << i;
    EXPECT_EQ(b.fs->mkdir("c8").error().code, ENOSPC);
    expectReject(b, "c1/schemata", "L3:0=f\n", EINVAL, "Unknown or unsupported resource name 'L3'");
    EXPECT_TRUE(b.fs->write("c1/schemata", "L3DATA:0=f\n").ok());
    EXPECT_EQ(b.read("c1/schemata"), "L3CODE:0=fffff\nL3DATA:0=f\n");
    EXPECT_EQ(SimResctrlFs::mount(*makeMachine({ "icx-8351n", 1, 1, 64, {} }), cdp).error().code, EINVAL)
        << "no CDP enumerated";
}

TEST(SimResctrlFs, RmidExhaustionAndLimbo)
{
    auto m = mount({ "skx-6154", 2, 1, 64, { { "num_rmids", 4 } } });
    ASSERT_TRUE(m.fs->mkdir("p1").ok()); // RMID 1
    ASSERT_TRUE(m.fs->mkdir("p1/mon_groups/m1").ok()); // 2
    ASSERT_TRUE(m.fs->mkdir("mon_groups/m2").ok()); // 3
    auto s = m.fs->mkdir("mon_groups/m3");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ENOSPC);
    EXPECT_EQ(m.status(), "Out of RMIDs\n");
    auto s2 = m.fs->mkdir("p2");
    EXPECT_EQ(s2.error().code, ENOSPC) << "a control group needs an RMID too";
    EXPECT_EQ(m.status(), "Out of RMIDs\n");
    // A freed RMID waits in limbo (it may still tag lines) until the 1 s limbo check finds it clean.
    ASSERT_TRUE(m.fs->rmdir("mon_groups/m2").ok());
    EXPECT_EQ(m.fs->mkdir("mon_groups/m3").error().code, EBUSY);
    EXPECT_EQ(m.status(), "Out of RMIDs\n");
    m.machine->advance(1100 * kMs);
    EXPECT_TRUE(m.fs->mkdir("mon_groups/m3").ok());
}

TEST(SimResctrlFs, GroupLifecycleAndPaths)
{
    auto m = mount();
    auto t = m.machine->addThread("t", 0, spec(Pattern::Random, 1 << 20));
    ASSERT_TRUE(t.ok());
    ASSERT_TRUE(m.fs->mkdir("p1").ok());
    EXPECT_EQ(m.fs->mkdir("p1").error().code, EEXIST);
    EXPECT_EQ(m.fs->mkdir("info").error().code, EEXIST);
    EXPECT_EQ(m.fs->mkdir("p1/x").error().code, EPERM) << "control groups only in the root";
    EXPECT_EQ(m.fs->mkdir("nope/mon_groups/x").error().code, ENOENT);
    EXPECT_EQ(m.fs->mkdir("a\nb").error().code, EINVAL);
    ASSERT_TRUE(m.fs->mkdir("p1/mon_groups/m").ok());
    EXPECT_TRUE(m.fs->isDirectory("p1/mon_groups/m/mon_data/mon_L3_00"));
    EXPECT_EQ(*m.fs->list("p1"),
        (std::vector<std::string> {
            "cpus", "cpus_list", "mode", "mon_data", "mon_groups", "schemata", "size", "tasks" }));
    EXPECT_EQ(*m.fs->list("p1/mon_groups/m"), (std::vector<std::string> { "cpus", "cpus_list", "mon_data", "tasks" }));
    auto root = *m.fs->list("");
    EXPECT_NE(std::find(root.begin(), root.end(), "p1"), root.end());
    ASSERT_TRUE(m.fs->write("p1/tasks", "1001\n").ok());
    ASSERT_TRUE(m.fs->write("p1/mon_groups/m/tasks", "1001\n").ok());
    // Monitoring: the CTRL_MON group reports itself plus its MON groups.
    m.machine->advance(20 * kMs);
    const auto occM = std::stoull(m.read("p1/mon_groups/m/mon_data/mon_L3_00/llc_occupancy"));
    EXPECT_GT(occM, 0u);
    EXPECT_EQ(occM, m.machine->occupancyBytes(0, 2) / 73728 * 73728);
    EXPECT_EQ(std::stoull(m.read("p1/mon_data/mon_L3_00/llc_occupancy")),
        occM + m.machine->occupancyBytes(0, 1) / 73728 * 73728);
    m.machine->setUnavailable(0, 2, m.machine->nowNs() + 5 * kMs);
    EXPECT_EQ(m.read("p1/mon_groups/m/mon_data/mon_L3_00/mbm_total_bytes"), "Unavailable\n");
    // rmdir of a MON group returns its tasks to the parent; of a CTRL_MON group to the root.
    ASSERT_TRUE(m.fs->rmdir("p1/mon_groups/m").ok());
    EXPECT_EQ(m.machine->thread(*t)->taskRmid, 1u);
    EXPECT_EQ(m.read("p1/tasks"), "1001\n");
    ASSERT_TRUE(m.fs->rmdir("p1").ok());
    EXPECT_EQ(m.read("tasks"), "1001\n");
    EXPECT_EQ(m.machine->thread(*t)->clos, 0u);
    EXPECT_FALSE(m.fs->exists("p1"));
    EXPECT_EQ(m.fs->rmdir("").error().code, EPERM);
    EXPECT_EQ(m.fs->rmdir("info").error().code, EPERM);
    EXPECT_EQ(m.fs->rmdir("mon_groups").error().code, EPERM);
    EXPECT_EQ(m.fs->rmdir("tasks").error().code, ENOTDIR);
    EXPECT_EQ(m.fs->rmdir("p9").error().code, ENOENT);
    EXPECT_EQ(m.fs->read("p9/tasks").error().code, ENOENT);
    // Unmount resets every control to its default.
    ASSERT_TRUE(m.fs->mkdir("p2").ok());
    ASSERT_TRUE(m.fs->write("p2/schemata", "L3:0=3\n").ok());
    EXPECT_EQ(m.machine->l3Mask(0, 1), 3u);
    m.fs.reset();
    EXPECT_EQ(m.machine->l3Mask(0, 1), 0x7FFu);
}

// mbm_total_bytes is cumulative: the kernel reads the counter at least every second (mbm_handle_overflow) and
// adds the delta modulo 2^24, so the bytes it reports equal what the model moved (at counter resolution),
// across several wraps of the 24-bit counter.
TEST(SimResctrlFs, MbmBytesExactAcrossWraps)
{
    auto m = mount({ "skx-6154", 2, 1, 4096, { { "mbm_scale", 4096 } } });
    WorkloadSpec w = spec(Pattern::Stream, 8ull << 30);
    w.writeFraction = 0.5;
    auto a = m.machine->addThread("copy-0", 0, w);
    auto b = m.machine->addThread("copy-1", 1, w);
    ASSERT_TRUE(m.fs->mkdir("bulk").ok());
    ASSERT_TRUE(m.fs->write("bulk/tasks", std::to_string(*a) + "," + std::to_string(*b) + "\n").ok());
    m.machine->advance(12'000 * kMs);
    EXPECT_GE(m.machine->counterWraps(0, 1, 2), 2u) << "the counter must wrap during the test";
    const auto moved = m.machine->counters(0, 1);
    EXPECT_EQ(std::stoull(m.read("bulk/mon_data/mon_L3_00/mbm_total_bytes")), moved.totalBytes / 4096 * 4096);
    EXPECT_EQ(std::stoull(m.read("bulk/mon_data/mon_L3_00/mbm_local_bytes")), moved.localBytes / 4096 * 4096);
}

// The sampler thread reads while the GUI writes: the mutex keeps every file consistent.
TEST(SimResctrlFs, ConcurrentReadersAndWriters)
{
    auto m = mount();
    auto t = m.machine->addThread("t", 0, spec(Pattern::Stream, 64 << 20));
    ASSERT_TRUE(m.fs->mkdir("p1").ok());
    ASSERT_TRUE(m.fs->write("p1/tasks", std::to_string(*t) + "\n").ok());
    std::atomic<bool> stop { false };
    std::atomic<int> reads { 0 }, bad { 0 };
    std::thread reader([&] {
        while (!stop) {
            auto v = m.fs->read("p1/mon_data/mon_L3_00/mbm_total_bytes");
            auto sch = m.fs->read("p1/schemata");
            if (!v || !sch || sch->find("L3:0=") == std::string::npos) ++bad;
            ++reads;
        }
    });
    for (int i = 0; i < 200; ++i) {
        ASSERT_TRUE(m.fs->write("p1/schemata", i % 2 ? "L3:0=00f\n" : "L3:0=7f0\n").ok());
        m.machine->advance(kMs);
    }
    stop = true;
    reader.join();
    EXPECT_GT(reads.load(), 0);
    EXPECT_EQ(bad.load(), 0);
}
