// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated kernel (SimResctrlFs) served through FUSE (FsFuseMount) and reached through real system calls:
// what a process sees through the mount is what the Fs says, errno values included, and rdtscope's unmodified
// resctrl backend (ResctrlBackend over PosixFs) works on it as on /sys/fs/resctrl
// (Documentation/filesystems/resctrl.rst; docs/RESCTRL.md "The simulated machine as a mount").
#include "FuseTestUtil.h"

#include "core/PosixFs.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Schemata.h"
#include "sim/SimResctrlFs.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>

using namespace rdt;
using namespace rdt::simfs;
using namespace rdt::simfs::test;

namespace {

class FuseMount : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (auto why = fuseUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
        ASSERT_TRUE(privateMountNamespace()) << "unshare(CLONE_NEWNS) failed: " << std::strerror(errno);
        char tmpl[] = "/tmp/rdtscope-simfs-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
        auto cpuid = sim::presetCpuid("skx-6154");
        ASSERT_TRUE(cpuid.ok());
        sim::SimOptions o;
        o.topology.coresPerSocket = 2;
        o.setSampling = 64;
        auto m = sim::SimMachine::create(*cpuid, o);
        ASSERT_TRUE(m.ok()) << m.error().toString();
        machine = std::move(*m);
        sim::WorkloadSpec stream;
        stream.pattern = sim::Pattern::Stream;
        stream.workingSet = 64ull << 20;
        ASSERT_TRUE(machine->addThread("scan", 1, stream).ok());
        sim::ResctrlMountOptions mo;
        mo.hostTaskExists = [](unsigned pid) { return ::kill(pid_t(pid), 0) == 0 || errno == EPERM; };
        auto fs = sim::SimResctrlFs::mount(*machine, mo);
        ASSERT_TRUE(fs.ok()) << fs.error().toString();
        kernel = std::shared_ptr<sim::SimResctrlFs>(std::move(*fs));
        auto mounted = FsFuseMount::mount(kernel, dir);
        ASSERT_TRUE(mounted.ok()) << mounted.error().toString();
        mount = std::move(*mounted);
        mount->start();
    }
    void TearDown() override
    {
        mount.reset(); // unmounts before the machine goes
        kernel.reset();
        if (!dir.empty()) ::rmdir(dir.c_str());
    }
    std::string at(const std::string& rel) const { return dir + "/" + rel; }

    std::string dir;
    std::unique_ptr<sim::SimMachine> machine;
    std::shared_ptr<sim::SimResctrlFs> kernel; ///< the emulated resctrl the mount serves
    std::unique_ptr<FsFuseMount> mount;
};

std::vector<std::string> listDir(const std::string& path)
{
    std::vector<std::string> out;
    DIR* d = ::opendir(path.c_str());
    if (!d) return out;
    while (dirent* e = ::readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.push_back(e->d_name);
    ::closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

/// Every file below `rel` (paths relative to the root), walked through the Fs itself.
void walk(Fs& fs, const std::string& rel, std::vector<std::string>& files)
{
    auto names = fs.list(rel);
    ASSERT_TRUE(names.ok()) << rel;
    for (const auto& n : *names) {
        const std::string p = rel.empty() ? n : rel + "/" + n;
        if (fs.isDirectory(p))
            walk(fs, p, files);
        else
            files.push_back(p);
    }
}

} // namespace

TEST_F(FuseMount, EveryDirectoryAndFileReadsAsTheEmulatedKernelSaysIt)
{
    ASSERT_EQ(::mkdir(at("p0").c_str(), 0755), 0) << std::strerror(errno);
    std::vector<std::string> files;
    walk(*kernel, "", files);
    ASSERT_GT(files.size(), 20u);
    for (const auto& f : files) {
        auto direct = kernel->read(f);
        int err = 0;
        const std::string viaMount = readFile(at(f), err);
        if (direct) {
            EXPECT_EQ(err, 0) << f;
            EXPECT_EQ(viaMount, *direct) << f; // the machine does not run between the two reads
        } else {
            EXPECT_EQ(err, direct.error().code) << f;
        }
    }
    EXPECT_EQ(listDir(dir), *kernel->list(""));
    EXPECT_EQ(listDir(at("info")), *kernel->list("info"));
    EXPECT_EQ(listDir(at("p0/mon_data/mon_L3_00")), *kernel->list("p0/mon_data/mon_L3_00"));
    struct stat st { };
    ASSERT_EQ(::stat(at("p0").c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    ASSERT_EQ(::stat(at("p0/schemata").c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(::stat(at("nonexistent").c_str(), &st), -1);
    EXPECT_EQ(errno, ENOENT);
}

TEST_F(FuseMount, GroupsSchemataAndErrnoThroughSystemCalls)
{
    // mkdir makes a complete group. skx-6154 has 16 L3 CLOSIDs but 8 MBA ones; the kernel uses the smaller count
    // (resctrl.rst "num_closids"), the root holds CLOSID 0, so the 8th mkdir fails with ENOSPC.
    for (int i = 0; i < 7; ++i)
        ASSERT_EQ(::mkdir(at("g" + std::to_string(i)).c_str(), 0755), 0) << i << ": " << std::strerror(errno);
    EXPECT_EQ(::mkdir(at("g7").c_str(), 0755), -1);
    EXPECT_EQ(errno, ENOSPC);
    EXPECT_EQ(readFile(at("info/last_cmd_status")), "Out of CLOSIDs\n");
    EXPECT_EQ(listDir(at("g0")), *kernel->list("g0"));

    // A schemata write is one command; the kernel's format comes back.
    EXPECT_EQ(writeFile(at("g0/schemata"), "L3:0=3\n"), 0);
    auto parsed = Schemata::parse(readFile(at("g0/schemata")));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->value("L3", 0), "3");
    EXPECT_EQ(readFile(at("info/last_cmd_status")), "ok\n");
    // A bad mask (resctrl.rst "Cache resource": non-contiguous masks are refused on Intel): EINVAL and the reason.
    EXPECT_EQ(writeFile(at("g0/schemata"), "L3:0=5\n"), EINVAL);
    const std::string status = readFile(at("info/last_cmd_status"));
    EXPECT_NE(status.find("non-consecutive 1-bits"), std::string::npos) << status;
    EXPECT_EQ(status, *kernel->read("info/last_cmd_status"));
    EXPECT_EQ(Schemata::parse(readFile(at("g0/schemata")))->value("L3", 0), "3") << "a refused write changes nothing";

    // rmdir frees the CLOSID.
    EXPECT_EQ(::rmdir(at("g6").c_str()), 0);
    EXPECT_EQ(::mkdir(at("g7").c_str(), 0755), 0) << std::strerror(errno);
    EXPECT_EQ(::rmdir(at("info").c_str()), -1);
    EXPECT_EQ(errno, EPERM);
}

TEST_F(FuseMount, HostPidsAndCpusAreTasksAndCpusOfTheSimulatedMachine)
{
    ASSERT_EQ(::mkdir(at("p0").c_str(), 0755), 0);
    const std::string self = std::to_string(::getpid());
    EXPECT_EQ(writeFile(at("p0/tasks"), self + "\n"), 0);
    EXPECT_EQ(readFile(at("p0/tasks")), self + "\n") << "a host PID is recorded and listed back";
    EXPECT_EQ(readFile(at("tasks")).find(self + "\n"), std::string::npos) << "and left the default group";
    // A monitor group of another control group cannot take it (resctrl.rst "tasks").
    ASSERT_EQ(::mkdir(at("mon_groups/m0").c_str(), 0755), 0);
    EXPECT_EQ(writeFile(at("mon_groups/m0/tasks"), self + "\n"), EINVAL);
    EXPECT_EQ(readFile(at("info/last_cmd_status")),
        "Can't move task to different control group\nError while processing task " + self + "\n");
    // A PID that does not exist: ESRCH, as the kernel's find_task_by_vpid.
    EXPECT_EQ(writeFile(at("p0/tasks"), "2147483000\n"), ESRCH);
    // rmdir moves the group's tasks back to the default group.
    ASSERT_EQ(::rmdir(at("p0").c_str()), 0);
    EXPECT_NE(readFile(at("tasks")).find(self + "\n"), std::string::npos);

    ASSERT_EQ(::mkdir(at("p1").c_str(), 0755), 0);
    EXPECT_EQ(writeFile(at("p1/cpus_list"), "1\n"), 0);
    EXPECT_EQ(readFile(at("p1/cpus")), "2\n");
    EXPECT_EQ(readFile(at("cpus_list")), "0\n");
    EXPECT_EQ(writeFile(at("p1/cpus_list"), "7\n"), EINVAL) << "the machine has 2 CPUs";
    EXPECT_EQ(readFile(at("info/last_cmd_status")), "Bad CPU list/mask\n");
}

TEST_F(FuseMount, UnmodifiedResctrlBackendWorksOnTheMount)
{
    auto backend = ResctrlBackend::open(std::make_shared<PosixFs>(dir));
    ASSERT_TRUE(backend.ok()) << backend.error().toString();
    auto& b = **backend;
    auto caps = b.capabilities();
    ASSERT_TRUE(caps.ok()) << caps.error().toString();
    EXPECT_EQ(caps->maxControlGroups, 8u) << "min(L3 16, MB 8) CLOSIDs";
    EXPECT_EQ(caps->cpus, (std::vector<unsigned> { 0, 1 }));
    ASSERT_TRUE(b.createControlGroup("streamer").ok());
    Schemata change;
    change.set("L3", 0, "f");
    change.set("MB", 0, "50");
    auto applied = b.applySchemata("streamer", change);
    ASSERT_TRUE(applied.ok()) << applied.error().toString();
    auto back = b.readSchemata("streamer");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->value("L3", 0), "f");
    EXPECT_EQ(back->value("MB", 0), "50");
    // The simulator's truth: the CLOSID's mask in the machine's MSR state equals what went through the mount.
    EXPECT_EQ(*kernel->read("streamer/schemata"), readFile(at("streamer/schemata")));
    ASSERT_TRUE(b.assignCpus("streamer", { 1 }).ok());
    auto groups = b.listGroups();
    ASSERT_TRUE(groups.ok());
    EXPECT_EQ(groups->size(), 2u);

    // mon_data moves as the machine runs: the streamer on CPU 1 now counts in the group's RMID.
    auto first = b.readCounters("streamer");
    ASSERT_TRUE(first.ok()) << first.error().toString();
    machine->advance(50'000'000);
    auto second = b.readCounters("streamer");
    ASSERT_TRUE(second.ok());
    ASSERT_EQ(second->domains.size(), 1u);
    EXPECT_GT(second->domains[0].mbmTotalRaw, first->domains[0].mbmTotalRaw);
    EXPECT_GT(second->domains[0].occupancyBytes, 0u);
    EXPECT_GT(mount->requests(), 10u);
}
