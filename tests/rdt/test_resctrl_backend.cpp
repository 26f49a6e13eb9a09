// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestTree.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Sample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <unistd.h>

using namespace rdt;
using rdt::test::FaultyFs;
using rdt::test::TempTree;

namespace {
std::unique_ptr<ResctrlBackend> openTree(const TempTree& t)
{
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    EXPECT_TRUE(b.ok()) << (b ? "" : b.error().toString());
    return b ? std::move(*b) : nullptr;
}
bool hasGroup(const std::vector<GroupInfo>& groups, const std::string& path)
{
    return std::any_of(groups.begin(), groups.end(), [&](const GroupInfo& g) { return g.path == path; });
}
}

TEST(ResctrlBackend, CapabilitiesOfFullTree)
{
    TempTree t("resctrl.full");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    auto caps = b->capabilities();
    ASSERT_TRUE(caps.ok());
    const auto* l3 = caps->resource("L3");
    ASSERT_NE(l3, nullptr);
    EXPECT_EQ(l3->cbmMask, 0xfffffu);
    EXPECT_EQ(l3->cbmBits, 20u);
    EXPECT_EQ(l3->shareableBits, 0xc0000u);
    EXPECT_EQ(l3->numClosids, 16u);
    EXPECT_EQ(l3->minCbmBits, 1u);
    EXPECT_FALSE(l3->sparseMasks);
    EXPECT_EQ(l3->domains, (std::vector<int> { 0, 1, 2, 3 }));
    EXPECT_EQ(l3->bytesPerBit, 57671680u / 20u);
    const auto* mb = caps->resource("MB");
    ASSERT_NE(mb, nullptr);
    EXPECT_EQ(mb->kind, ResourceKind::Bandwidth);
    EXPECT_EQ(mb->minBandwidth, 10u);
    EXPECT_EQ(mb->bandwidthGran, 10u);
    EXPECT_TRUE(mb->delayLinear);
    EXPECT_FALSE(mb->mbpsMode);
    EXPECT_EQ(caps->maxControlGroups, 8u); // min over resources (MB has 8)
    EXPECT_TRUE(caps->monitoring.present);
    EXPECT_EQ(caps->monitoring.numRmids, 192u);
    EXPECT_TRUE(caps->monitoring.llcOccupancy && caps->monitoring.mbmTotal && caps->monitoring.mbmLocal);
    EXPECT_EQ(caps->monitoring.domains, (std::vector<int> { 0, 1, 2, 3 }));
    EXPECT_EQ(caps->monitoring.maxThresholdOccupancy, 98304u);
}

TEST(ResctrlBackend, CapabilitiesOfEveryTree)
{
    struct Expect {
        const char* tree;
        std::vector<std::string> resources;
        bool monitoring;
        bool cdpL2;
        bool mbps;
    };
    const Expect cases[] = {
        { "resctrl.full", { "L3", "MB" }, true, false, false },
        { "resctrl.l2", { "L2" }, false, false, false },
        { "resctrl.l2cdp", { "L2CODE", "L2DATA", "L3" }, false, true, false },
        { "resctrl.nol3", { "MB" }, true, false, false },
        { "resctrl.nol3.mbps", { "MB" }, true, false, true },
        { "resctrl.nomb", { "L3" }, true, false, false },
    };
    for (const auto& c : cases) {
        TempTree t(c.tree);
        auto b = openTree(t);
        ASSERT_TRUE(b) << c.tree;
        auto caps = b->capabilities();
        ASSERT_TRUE(caps.ok()) << c.tree;
        std::vector<std::string> names;
        for (const auto& r : caps->resources)
            names.push_back(r.name);
        EXPECT_EQ(names, c.resources) << c.tree;
        EXPECT_EQ(caps->monitoring.present, c.monitoring) << c.tree;
        EXPECT_EQ(caps->cdpL2, c.cdpL2) << c.tree;
        if (const auto* mb = caps->resource("MB")) {
            EXPECT_EQ(mb->mbpsMode, c.mbps) << c.tree;
        }
        if (std::string(c.tree) == "resctrl.nomb") {
            EXPECT_EQ(caps->resource("L3")->minCbmBits, 2u);
        }
        if (std::string(c.tree) == "resctrl.l2cdp") {
            EXPECT_EQ(caps->resource("L3")->shareableBits, 0x400u);
            EXPECT_EQ(caps->resource("L2CODE")->domains, (std::vector<int> { 0, 1, 2, 3 }));
        }
    }
}

TEST(ResctrlBackend, NotAResctrlTree)
{
    char templ[] = "/tmp/rdt-empty-XXXXXX";
    const std::string dir = ::mkdtemp(templ);
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(dir));
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error().code, ENOENT);
    EXPECT_NE(b.error().advice.find("mount -t resctrl"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(ResctrlBackend, ListGroupsFindsControlAndMonitorGroups)
{
    TempTree t("resctrl.full");
    auto b = openTree(t);
    auto groups = b->listGroups();
    ASSERT_TRUE(groups.ok());
    EXPECT_TRUE(hasGroup(*groups, ""));
    EXPECT_TRUE(hasGroup(*groups, "Guaranteed"));
    EXPECT_TRUE(hasGroup(*groups, "Guaranteed/mon_groups/non_goresctrl.group"));
    EXPECT_TRUE(hasGroup(*groups, "mon_groups/example"));
    EXPECT_FALSE(hasGroup(*groups, "info"));
    for (const auto& g : *groups)
        if (g.path == "Guaranteed/mon_groups/non_goresctrl.group") {
            EXPECT_FALSE(g.isControl);
            EXPECT_EQ(g.parent, "Guaranteed");
        }
}

TEST(ResctrlBackend, GroupLifecycleOnEveryTree)
{
    for (const char* tree : rdt::test::kFixtureTrees) {
        TempTree t(tree);
        auto b = openTree(t);
        ASSERT_TRUE(b) << tree;
        ASSERT_TRUE(b->createControlGroup("p0").ok()) << tree;
        auto groups = b->listGroups();
        ASSERT_TRUE(groups.ok());
        EXPECT_TRUE(hasGroup(*groups, "p0")) << tree;
        EXPECT_TRUE(b->removeGroup("p0").ok()) << tree;
        groups = b->listGroups();
        EXPECT_FALSE(hasGroup(*groups, "p0")) << tree;
        auto rootRemoval = b->removeGroup("");
        ASSERT_FALSE(rootRemoval.ok());
        EXPECT_EQ(rootRemoval.error().code, EPERM);
        EXPECT_FALSE(b->createControlGroup("a/b").ok());
        EXPECT_FALSE(b->createControlGroup("info").ok());
    }
}

TEST(ResctrlBackend, MonitorGroupUnderExistingParent)
{
    TempTree t("resctrl.full");
    auto b = openTree(t);
    ASSERT_TRUE(b->createMonitorGroup("Guaranteed", "m1").ok());
    auto groups = b->listGroups();
    EXPECT_TRUE(hasGroup(*groups, "Guaranteed/mon_groups/m1"));
    auto missing = b->createMonitorGroup("nope", "m1");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
}

TEST(ResctrlBackend, ReadAndApplySchemataOnEveryTree)
{
    for (const char* tree : rdt::test::kFixtureTrees) {
        TempTree t(tree);
        auto b = openTree(t);
        auto caps = b->capabilities();
        ASSERT_TRUE(caps.ok());
        auto before = b->readSchemata("");
        ASSERT_TRUE(before.ok()) << tree;
        for (const auto& r : caps->resources) {
            ASSERT_FALSE(r.domains.empty()) << tree << " " << r.name;
            const int d = r.domains.back();
            const std::string v = r.isCache() ? "3" : (r.mbpsMode ? "2000" : "50");
            Schemata change;
            change.set(r.name, d, v);
            auto ok = b->applySchemata("", change);
            ASSERT_TRUE(ok.ok()) << tree << " " << r.name << ": " << (ok ? "" : ok.error().toString());
            auto after = b->readSchemata("");
            ASSERT_TRUE(after.ok());
            EXPECT_EQ(after->value(r.name, d).value_or(""), v) << tree;
            // The other domains and resources are kept and the file ends with a newline.
            for (const auto& line : before->lines())
                for (const auto& [dd, vv] : line.values)
                    if (!(line.resource == r.name && dd == d)) {
                        EXPECT_EQ(after->value(line.resource, dd).value_or("?"), vv) << tree;
                    }
            const auto text = t.read("schemata");
            ASSERT_FALSE(text.empty());
            EXPECT_EQ(text.back(), '\n');
            before = after;
        }
    }
}

TEST(ResctrlBackend, ApplyToMonitorGroupIsRefused)
{
    TempTree t("resctrl.full");
    auto b = openTree(t);
    Schemata s;
    s.set("L3", 0, "f");
    auto r = b->applySchemata("mon_groups/example", s);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("monitor group"), std::string::npos);
}

TEST(ResctrlBackend, WriteFailureCarriesLastCmdStatus)
{
    TempTree t("resctrl.full");
    auto faulty = std::make_shared<FaultyFs>(std::make_shared<PosixFs>(t.root()));
    auto b = ResctrlBackend::open(faulty);
    ASSERT_TRUE(b.ok());
    faulty->arm(1, EINVAL, "The mask f0f has non-consecutive 1-bits");
    Schemata s;
    s.set("L3", 0, "f0f");
    auto r = (*b)->applySchemata("", s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EINVAL);
    EXPECT_NE(r.error().message.find("kernel says: The mask f0f has non-consecutive 1-bits"), std::string::npos);
    // Without a status text the advice says the kernel gave no reason.
    t.write("info/last_cmd_status", "ok\n");
    faulty->arm(1, EINVAL);
    r = (*b)->applySchemata("", s);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().advice.find("no reason"), std::string::npos);
}

TEST(ResctrlBackend, ReadBackMismatchIsAnError)
{
    // A kernel that accepts a write but keeps the old value: an Fs whose writes succeed and change nothing.
    TempTree t("resctrl.full");
    auto fs = std::make_shared<FaultyFs>(std::make_shared<PosixFs>(t.root()));
    fs->m_swallow = true;
    auto b = ResctrlBackend::open(fs);
    ASSERT_TRUE(b.ok());
    Schemata s;
    s.set("L3", 1, "ff");
    auto r = (*b)->applySchemata("", s);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("read back fffff"), std::string::npos) << r.error().message;
}

TEST(ResctrlBackend, CountersWithSpecialStrings)
{
    TempTree t("resctrl.full");
    t.write("mon_data/mon_L3_00/llc_occupancy", "123456\n");
    t.write("mon_data/mon_L3_00/mbm_total_bytes", "1000\n");
    t.write("mon_data/mon_L3_00/mbm_local_bytes", "600\n");
    t.write("mon_data/mon_L3_01/llc_occupancy", "Error\n");
    t.write("mon_data/mon_L3_01/mbm_total_bytes", "Unavailable\n");
    t.write("mon_data/mon_L3_02/mbm_local_bytes", "Unassigned\n");
    std::filesystem::remove(t.root() + "/mon_data/mon_L3_03/mbm_total_bytes");
    auto b = openTree(t);
    auto c = b->readCounters("");
    ASSERT_TRUE(c.ok());
    ASSERT_EQ(c->domains.size(), 4u);
    EXPECT_EQ(c->domains[0].occupancyBytes, 123456u);
    EXPECT_EQ(c->domains[0].mbmTotalRaw, 1000u);
    EXPECT_EQ(c->domains[0].mbmLocalRaw, 600u);
    EXPECT_EQ(c->domains[0].flags, 0u);
    EXPECT_TRUE(c->domains[1].flags & SampleOccupancyError);
    EXPECT_TRUE(c->domains[1].flags & SampleMbmUnavailable);
    EXPECT_EQ(c->domains[2].flags, std::uint32_t(SampleMbmLocalUnassigned)); // the total and occupancy still read
    EXPECT_EQ(c->domains[3].flags, std::uint32_t(SampleMbmUnassigned)); // ENOENT = no counter assigned
    // Unknown extra files (goresctrl's xxx_new_metric) are ignored.
    EXPECT_TRUE(b->readCounters("goresctrl.Guaranteed").ok());
}

TEST(ResctrlBackend, DomainIdGapsInMonData)
{
    TempTree t("resctrl.nomb");
    std::filesystem::rename(t.root() + "/mon_data/mon_L3_01", t.root() + "/mon_data/mon_L3_05");
    t.write("mon_data/mon_L3_05/llc_occupancy", "4096\n");
    auto b = openTree(t);
    auto caps = b->capabilities();
    EXPECT_EQ(caps->monitoring.domains, (std::vector<int> { 0, 2, 3, 5 }));
    auto c = b->readCounters("");
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->domains[3].domain, 5);
    EXPECT_EQ(c->domains[3].occupancyBytes, 4096u);
}

TEST(ResctrlBackend, NoMonitoringSaysWhy)
{
    TempTree t("resctrl.l2");
    auto b = openTree(t);
    auto c = b->readCounters("");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().code, ENOENT);
    EXPECT_NE(c.error().message.find("no monitoring"), std::string::npos);
}

TEST(ResctrlBackend, AssignTasksAndCpus)
{
    TempTree t("resctrl.full");
    auto b = openTree(t);
    const auto self = static_cast<unsigned>(::getpid()); // a PID that exists
    ASSERT_TRUE(b->assignTasks("Guaranteed", { self }).ok());
    auto tasks = b->tasks("Guaranteed");
    ASSERT_TRUE(tasks.ok());
    EXPECT_NE(std::find(tasks->begin(), tasks->end(), self), tasks->end());
    EXPECT_EQ(t.read("Guaranteed/tasks"), std::to_string(self) + "\n"); // newline-terminated, one PID per write
    ASSERT_TRUE(b->assignCpus("Guaranteed", { 2, 3, 4 }).ok());
    auto cpus = b->cpus("Guaranteed");
    ASSERT_TRUE(cpus.ok());
    EXPECT_EQ(*cpus, (std::vector<unsigned> { 2, 3, 4 }));
    ASSERT_TRUE(b->assignCpus("Guaranteed", { 7 }).ok());
    EXPECT_EQ(t.read("Guaranteed/cpus_list"), "2-4,7\n");
    auto root = b->cpus("");
    ASSERT_TRUE(root.ok());
    EXPECT_EQ(root->size(), 192u);
}

TEST(ResctrlBackend, MissingPidsAreNamedAndNothingMoves)
{
    TempTree t("resctrl.full");
    auto b = openTree(t);
    const auto before = t.read("Guaranteed/tasks");
    const auto self = static_cast<unsigned>(::getpid());
    // pid_max is at most 2^22 (PID_MAX_LIMIT): 4194301 and 4194302 cannot exist.
    auto r = b->assignTasks("Guaranteed", { self, 4194301, 4194302 });
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ESRCH);
    EXPECT_NE(r.error().message.find("4194301, 4194302"), std::string::npos) << r.error().message;
    EXPECT_EQ(t.read("Guaranteed/tasks"), before) << "no PID may move when one does not exist";
}

TEST(ResctrlBackend, OnlineCpusAreTheUnionOfControlGroups)
{
    TempTree t("resctrl.full");
    t.write("cpus_list", "0-3,8-191\n"); // 4-7 belong to Guaranteed, as the kernel shows it
    t.write("Guaranteed/cpus_list", "4-7\n");
    auto b = openTree(t);
    auto caps = b->capabilities();
    ASSERT_TRUE(caps.ok());
    ASSERT_EQ(caps->cpus.size(), 192u);
    EXPECT_EQ(caps->cpus.back(), 191u);
}

TEST(ResctrlBackend, WarnsAboutOtherRdtUsers)
{
    TempTree t("resctrl.full");
    auto b = openTree(t);
    EXPECT_TRUE(b->warnings().empty());
    std::filesystem::create_directories(t.root() + "/COS3");
    std::filesystem::create_directories(t.root() + "/mon_groups/pcm0");
    std::filesystem::create_directories(t.root() + "/Guaranteed/mon_groups/cadvisor-abc");
    auto w = b->warnings();
    ASSERT_EQ(w.size(), 3u);
    EXPECT_NE(w[0].find("pqos"), std::string::npos);
    EXPECT_NE(w[0].find("COS3"), std::string::npos);
    EXPECT_NE(w[1].find("PCM"), std::string::npos);
    EXPECT_NE(w[2].find("cAdvisor"), std::string::npos);
}

TEST(ResctrlBackend, AdviceForCommonErrnos)
{
    TempTree t("resctrl.full");
    auto faulty = std::make_shared<FaultyFs>(std::make_shared<PosixFs>(t.root()));
    auto b = ResctrlBackend::open(faulty);
    ASSERT_TRUE(b.ok());
    const std::pair<int, const char*> cases[] = {
        { EACCES, "root" },
        { EBUSY, "limbo" },
        { ENOSPC, "remove an unused group" },
    };
    for (const auto& [code, needle] : cases) {
        faulty->m_mkdirCode = code;
        auto r = (*b)->createControlGroup("p9");
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, code);
        EXPECT_NE(r.error().toString().find(needle), std::string::npos) << r.error().toString();
    }
    faulty->m_mkdirCode = 0;
    auto missing = (*b)->readSchemata("nope");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
    EXPECT_NE(missing.error().advice.find("groups list"), std::string::npos);
}
