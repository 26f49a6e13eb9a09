// SPDX-License-Identifier: GPL-3.0-or-later
// One conformance suite, several targets: each behaviour of the resctrl interface that rdtscope relies on
// (Documentation/filesystems/resctrl.rst, section named per test) runs through rdtscope's unmodified
// ResctrlBackend against (a) the emulated kernel through the Fs seam, (b) the same emulation mounted through FUSE
// and reached with real system calls (PosixFs), and (c) a real /sys/fs/resctrl when one is mounted; (c) only
// writes when RDTSCOPE_CONFORMANCE_WRITE=1, since its groups are the machine's.
#include "FuseTestUtil.h"

#include "core/PosixFs.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Schemata.h"
#include "sim/SimResctrlFs.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

using namespace rdt;
using namespace rdt::simfs;
using namespace rdt::simfs::test;

namespace {

enum class Target { Emulated, Mounted, Real };

std::string targetName(const ::testing::TestParamInfo<Target>& p)
{
    return p.param == Target::Emulated ? "Emulated" : p.param == Target::Mounted ? "Mounted" : "Real";
}

class ResctrlConformance : public ::testing::TestWithParam<Target> {
protected:
    void SetUp() override
    {
        if (GetParam() == Target::Real) {
            struct stat st { };
            if (::stat("/sys/fs/resctrl/info", &st) != 0) GTEST_SKIP() << "no resctrl mounted at /sys/fs/resctrl";
            if (!std::getenv("RDTSCOPE_CONFORMANCE_WRITE"))
                GTEST_SKIP() << "a real resctrl is mounted; set RDTSCOPE_CONFORMANCE_WRITE=1 to let the suite make "
                                "and remove its own groups there";
            open(std::make_shared<PosixFs>("/sys/fs/resctrl"));
            return;
        }
        auto cpuid = sim::presetCpuid("skx-6154");
        ASSERT_TRUE(cpuid.ok());
        sim::SimOptions o;
        o.topology.coresPerSocket = 2;
        auto m = sim::SimMachine::create(*cpuid, o);
        ASSERT_TRUE(m.ok());
        machine = std::move(*m);
        sim::WorkloadSpec stream;
        stream.pattern = sim::Pattern::Stream;
        stream.workingSet = 64ull << 20;
        ASSERT_TRUE(machine->addThread("scan", 1, stream).ok());
        auto fs = sim::SimResctrlFs::mount(*machine);
        ASSERT_TRUE(fs.ok());
        kernel = std::shared_ptr<sim::SimResctrlFs>(std::move(*fs));
        if (GetParam() == Target::Emulated) {
            open(kernel);
            return;
        }
        if (auto why = fuseUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
        ASSERT_TRUE(privateMountNamespace());
        char tmpl[] = "/tmp/rdtscope-conformance-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
        auto mounted = FsFuseMount::mount(kernel, dir);
        ASSERT_TRUE(mounted.ok()) << mounted.error().toString();
        mount = std::move(*mounted);
        mount->start();
        open(std::make_shared<PosixFs>(dir));
    }
    void TearDown() override
    {
        for (const auto& g : made)
            (void)backend->removeGroup(g);
        backend.reset();
        mount.reset();
        kernel.reset();
        if (!dir.empty()) ::rmdir(dir.c_str());
    }
    void open(std::shared_ptr<Fs> fs)
    {
        auto b = ResctrlBackend::open(std::move(fs));
        ASSERT_TRUE(b.ok()) << b.error().toString();
        backend = std::move(*b);
        auto c = backend->capabilities();
        ASSERT_TRUE(c.ok()) << c.error().toString();
        caps = *c;
    }
    /// A control group of this suite's own, removed in TearDown.
    void make(const std::string& name)
    {
        auto s = backend->createControlGroup(name);
        ASSERT_TRUE(s.ok()) << s.error().toString();
        made.push_back(name);
    }
    /// Lets the counters move: the simulated machine runs; real hardware runs on its own.
    void run(std::uint64_t ns)
    {
        if (machine)
            machine->advance(ns);
        else
            ::usleep(static_cast<useconds_t>(ns / 1000));
    }

    std::unique_ptr<sim::SimMachine> machine;
    std::shared_ptr<sim::SimResctrlFs> kernel;
    std::unique_ptr<FsFuseMount> mount;
    std::string dir;
    std::unique_ptr<ResctrlBackend> backend;
    Capabilities caps;
    std::vector<std::string> made;
};

} // namespace

// resctrl.rst "Info directory": num_closids bounds the control groups, the root holding CLOSID 0; mkdir beyond it
// fails with ENOSPC ("Resource alloc and monitor groups").
TEST_P(ResctrlConformance, ControlGroupsAreBoundedByNumClosids)
{
    ASSERT_GT(caps.maxControlGroups, 1u);
    auto groups = backend->listGroups();
    ASSERT_TRUE(groups.ok());
    unsigned existing = 0;
    for (const auto& g : *groups)
        existing += g.isControl ? 1 : 0;
    for (unsigned i = existing; i < caps.maxControlGroups; ++i)
        ASSERT_NO_FATAL_FAILURE(make("conformance" + std::to_string(i)));
    auto extra = backend->createControlGroup("conformance-extra");
    ASSERT_FALSE(extra.ok());
    EXPECT_EQ(extra.error().code, ENOSPC) << extra.error().toString();
}

// resctrl.rst "Schemata files - general concepts": a write may name only the domains it changes, the others keep
// their values; what is read back is what was written.
TEST_P(ResctrlConformance, SchemataWriteReadsBack)
{
    ASSERT_NO_FATAL_FAILURE(make("conformance-a"));
    const ResourceCaps* l3 = caps.resource("L3");
    if (!l3) GTEST_SKIP() << "no L3 CAT";
    const int domain = l3->domains.front();
    const std::uint64_t low = (std::uint64_t { 1 } << std::max(1u, l3->minCbmBits)) - 1;
    Schemata change;
    change.set("L3", domain, normaliseValue("L3", std::to_string(low)));
    auto s = backend->applySchemata("conformance-a", change);
    ASSERT_TRUE(s.ok()) << s.error().toString();
    auto back = backend->readSchemata("conformance-a");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(parseMask(*back->value("L3", domain)).valueOr(0), low);
}

// resctrl.rst "sparse_masks": with 0, a mask whose 1-bits are not consecutive is refused (EINVAL, the reason in
// info/last_cmd_status) and the group keeps its previous mask.
TEST_P(ResctrlConformance, NonContiguousMaskRefusedWithoutSparseMasks)
{
    const ResourceCaps* l3 = caps.resource("L3");
    if (!l3 || l3->sparseMasks || l3->cbmBits < 3) GTEST_SKIP() << "sparse masks allowed or L3 mask too short";
    ASSERT_NO_FATAL_FAILURE(make("conformance-b"));
    auto before = backend->readSchemata("conformance-b");
    ASSERT_TRUE(before.ok());
    Schemata change;
    change.set("L3", l3->domains.front(), "5");
    auto s = backend->applySchemata("conformance-b", change);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(*backend->readSchemata("conformance-b"), *before);
}

// resctrl.rst "cpus": a CPU written to a group's cpus_list leaves the group it was in; rmdir gives the group's CPUs
// back to the default group ("Removing a resource group").
TEST_P(ResctrlConformance, CpusMoveBetweenGroupsAndReturnOnRmdir)
{
    if (caps.cpus.size() < 2) GTEST_SKIP() << "one CPU";
    const unsigned cpu = caps.cpus.back();
    ASSERT_NO_FATAL_FAILURE(make("conformance-c"));
    ASSERT_TRUE(backend->assignCpus("conformance-c", { cpu }).ok());
    EXPECT_EQ(*backend->cpus("conformance-c"), std::vector<unsigned> { cpu });
    auto root = backend->cpus("");
    ASSERT_TRUE(root.ok());
    EXPECT_EQ(std::count(root->begin(), root->end(), cpu), 0);
    ASSERT_TRUE(backend->removeGroup("conformance-c").ok());
    made.clear();
    root = backend->cpus("");
    EXPECT_EQ(std::count(root->begin(), root->end(), cpu), 1);
}

// resctrl.rst "Monitoring": a group's mon_data counts what runs with its RMID; mbm_total_bytes only grows (as a
// cumulative byte count) while its CPUs run memory traffic.
TEST_P(ResctrlConformance, MonitorCountersMoveWithTheGroupsWork)
{
    if (!caps.monitoring.present) GTEST_SKIP() << "no L3 monitoring";
    if (caps.cpus.size() < 2) GTEST_SKIP() << "one CPU";
    ASSERT_NO_FATAL_FAILURE(make("conformance-d"));
    ASSERT_TRUE(backend->assignCpus("conformance-d", { caps.cpus.back() }).ok());
    auto first = backend->readCounters("conformance-d");
    ASSERT_TRUE(first.ok()) << first.error().toString();
    run(50'000'000);
    auto second = backend->readCounters("conformance-d");
    ASSERT_TRUE(second.ok());
    ASSERT_EQ(first->domains.size(), second->domains.size());
    ASSERT_FALSE(second->domains.empty());
    EXPECT_GE(second->domains[0].mbmTotalRaw, first->domains[0].mbmTotalRaw);
    if (machine) {
        EXPECT_GT(second->domains[0].mbmTotalRaw, first->domains[0].mbmTotalRaw);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Targets, ResctrlConformance, ::testing::Values(Target::Emulated, Target::Mounted, Target::Real), targetName);
