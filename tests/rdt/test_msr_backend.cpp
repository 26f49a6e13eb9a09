// SPDX-License-Identifier: GPL-3.0-or-later
#include "FakeMsrSpace.h"
#include "rdt/AllocationEngine.h"
#include "rdt/MsrBackend.h"
#include "rdt/Sample.h"
#include "rdt/SampleFlags.h"
#include "rdt/Sampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace rdt;
using rdt::test::FakeMsrSpace;

namespace {
struct Fixture {
    std::shared_ptr<FakeMsrSpace> msrs;
    std::unique_ptr<MsrBackend> backend;
    explicit Fixture(MsrRdtEnumeration e = rdt::test::skxLike())
        : msrs(std::make_shared<FakeMsrSpace>(e))
    {
        auto b = MsrBackend::open(msrs, e, "");
        EXPECT_TRUE(b.ok());
        backend = std::move(*b);
    }
};
}

TEST(MsrBackend, RefusesWhileResctrlIsMounted)
{
    auto e = rdt::test::skxLike();
    auto b = MsrBackend::open(std::make_shared<FakeMsrSpace>(e), e, "/sys/fs/resctrl");
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error().code, EBUSY);
    EXPECT_NE(b.error().message.find("resctrl is mounted at /sys/fs/resctrl"), std::string::npos);
    EXPECT_NE(b.error().advice.find("umount"), std::string::npos);
}

TEST(MsrBackend, RefusesWithoutRdt)
{
    MsrRdtEnumeration none;
    none.l3IdOfCpu = { 0 };
    auto b = MsrBackend::open(std::make_shared<FakeMsrSpace>(none), none, "");
    ASSERT_FALSE(b.ok());
    EXPECT_NE(b.error().advice.find("CPUID.07H.00H:EBX[12]"), std::string::npos);
}

TEST(MsrBackend, CapabilitiesFromEnumeration)
{
    Fixture f;
    auto caps = f.backend->capabilities();
    ASSERT_TRUE(caps.ok());
    const auto* l3 = caps->resource("L3");
    ASSERT_NE(l3, nullptr);
    EXPECT_EQ(l3->cbmMask, 0x7ffu);
    EXPECT_EQ(l3->shareableBits, 0x600u);
    EXPECT_EQ(l3->numClosids, 16u);
    EXPECT_EQ(l3->domains, (std::vector<int> { 0, 1 }));
    const auto* mb = caps->resource("MB");
    ASSERT_NE(mb, nullptr);
    EXPECT_EQ(mb->minBandwidth, 10u);
    EXPECT_EQ(mb->bandwidthGran, 10u);
    EXPECT_EQ(caps->maxControlGroups, 8u); // MBA has 8 CLOS
    EXPECT_FALSE(caps->handlesTasks);
    EXPECT_EQ(caps->monitoring.counterWidth, 24u);
    EXPECT_EQ(caps->monitoring.numRmids, 8u);
}

TEST(MsrBackend, TasksAreRefusedWithTheReason)
{
    Fixture f;
    auto r = f.backend->assignTasks("", { 1234 });
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EOPNOTSUPP);
    EXPECT_NE(r.error().advice.find("per logical processor"), std::string::npos);
    EXPECT_NE(r.error().advice.find("20.18.6"), std::string::npos);
}

TEST(MsrBackend, GroupsCpusAndPqrAssoc)
{
    Fixture f;
    ASSERT_TRUE(f.backend->createControlGroup("p0").ok());
    ASSERT_TRUE(f.backend->createMonitorGroup("p0", "m0").ok());
    ASSERT_TRUE(f.backend->assignCpus("p0", { 1, 2 }).ok());
    auto groups = f.backend->listGroups();
    ASSERT_TRUE(groups.ok());
    ASSERT_EQ(groups->size(), 3u);
    const auto& p0 = (*groups)[1];
    EXPECT_EQ(p0.path, "p0");
    EXPECT_EQ(p0.closid, 1);
    const auto pqr = f.msrs->read(2, msr::IA32_PQR_ASSOC);
    EXPECT_EQ(*pqr, (1ULL << 32) | static_cast<unsigned>(p0.rmid));
    // A monitor group only takes its parent's CPUs.
    auto bad = f.backend->assignCpus("p0/mon_groups/m0", { 3 });
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().advice.find("belong to parent"), std::string::npos);
    ASSERT_TRUE(f.backend->assignCpus("p0/mon_groups/m0", { 2 }).ok());
    const auto m0rmid = (*f.backend->listGroups())[2].rmid;
    EXPECT_EQ(*f.msrs->read(2, msr::IA32_PQR_ASSOC), (1ULL << 32) | static_cast<unsigned>(m0rmid));
    // Removing p0 returns its CPUs to the default group (CLOS0/RMID0).
    ASSERT_TRUE(f.backend->removeGroup("p0").ok());
    EXPECT_EQ(*f.msrs->read(1, msr::IA32_PQR_ASSOC), 0u);
    EXPECT_EQ(*f.msrs->read(2, msr::IA32_PQR_ASSOC), 0u);
    EXPECT_EQ(f.backend->listGroups()->size(), 1u);
}

TEST(MsrBackend, OutOfClosids)
{
    Fixture f;
    for (int i = 1; i < 8; ++i)
        ASSERT_TRUE(f.backend->createControlGroup("g" + std::to_string(i)).ok()) << i;
    auto r = f.backend->createControlGroup("g8");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ENOSPC);
    EXPECT_NE(r.error().message.find("Out of CLOSIDs"), std::string::npos);
}

TEST(MsrBackend, RmidLimboUntilOccupancyDrains)
{
    Fixture f;
    ASSERT_TRUE(f.backend->createControlGroup("a").ok());
    const auto rmid = static_cast<unsigned>((*f.backend->listGroups())[1].rmid);
    f.msrs->setCounter(0, rmid, 1, 1000); // 1000 x 73728 B still cached
    ASSERT_TRUE(f.backend->removeGroup("a").ok());
    EXPECT_EQ(f.backend->limboRmids(), std::vector<unsigned> { rmid });
    // Six more groups take RMIDs 2..7 (the limbo one is skipped), then the pool is empty: EBUSY.
    for (int i = 0; i < 6; ++i)
        ASSERT_TRUE(f.backend->createMonitorGroup("", "m" + std::to_string(i)).ok()) << i;
    auto busy = f.backend->createMonitorGroup("", "m6");
    ASSERT_FALSE(busy.ok());
    EXPECT_EQ(busy.error().code, EBUSY);
    EXPECT_NE(busy.error().message.find("limbo"), std::string::npos);
    f.msrs->setCounter(0, rmid, 1, 0); // drained
    ASSERT_TRUE(f.backend->createMonitorGroup("", "m6").ok());
    EXPECT_TRUE(f.backend->limboRmids().empty());
    EXPECT_EQ(static_cast<unsigned>(f.backend->listGroups()->back().rmid), rmid);
}

TEST(MsrBackend, SchemataMasksMbaAndCba)
{
    Fixture f;
    ASSERT_TRUE(f.backend->createControlGroup("p0").ok());
    auto s = Schemata::parseStrict("L3:0=3;1=7f0\nMB:1=50\nCBA:0=4");
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(f.backend->applySchemata("p0", *s).ok());
    EXPECT_EQ(*f.msrs->read(0, msr::IA32_L3_MASK_0 + 1), 0x3u);
    EXPECT_EQ(*f.msrs->read(2, msr::IA32_L3_MASK_0 + 1), 0x7f0u);
    EXPECT_EQ(*f.msrs->read(2, msr::IA32_L2_QOS_EXT_BW_THRTL_0 + 1), 50u); // delay = 100 - 50 (20.19.7.2)
    EXPECT_EQ((*f.msrs->read(0, msr::IA32_QOS_CORE_BW_THRTL_0) >> 8) & 0xff, 4u); // CLOS1 byte (20.19.8.3)
    EXPECT_EQ((*f.msrs->read(1, msr::IA32_QOS_CORE_BW_THRTL_0) >> 8) & 0xff, 4u); // every CPU of domain 0
    auto back = f.backend->readSchemata("p0");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->value("L3", 0).value_or(""), "3");
    EXPECT_EQ(back->value("L3", 1).value_or(""), "7f0");
    EXPECT_EQ(back->value("MB", 1).value_or(""), "50");
    EXPECT_EQ(back->value("MB", 0).value_or(""), "100");
    EXPECT_EQ(back->value("CBA", 0).value_or(""), "4");
    // A #GP (non-contiguous CBM) comes back as EIO with the SDM reason.
    auto gp = f.backend->applySchemata("p0", *Schemata::parseStrict("L3:0=505"));
    ASSERT_FALSE(gp.ok());
    EXPECT_EQ(gp.error().code, EIO);
    EXPECT_NE(gp.error().advice.find("#GP(0)"), std::string::npos);
}

TEST(MsrBackend, CountersScaledAndFlagged)
{
    Fixture f;
    f.msrs->setCounter(0, 0, 1, 10);
    f.msrs->setCounter(0, 0, 2, 500);
    f.msrs->setCounter(0, 0, 3, 200);
    f.msrs->setUnavailable(1, 0, 2);
    auto c = f.backend->readCounters("");
    ASSERT_TRUE(c.ok());
    ASSERT_EQ(c->domains.size(), 2u);
    EXPECT_EQ(c->bytesPerUnit, 73728u);
    EXPECT_EQ(c->domains[0].occupancyBytes, 10u * 73728u);
    EXPECT_EQ(c->domains[0].mbmTotalRaw, 500u);
    EXPECT_EQ(c->domains[0].mbmLocalRaw, 200u);
    EXPECT_TRUE(c->domains[1].flags & SampleMbmUnavailable);
    // QM_EVTSEL is written right before each QM_CTR read (the 20.18.7 pair).
    const auto& w = f.msrs->writes;
    EXPECT_TRUE(
        std::any_of(w.begin(), w.end(), [](const auto& x) { return x.msr == msr::IA32_QM_EVTSEL && x.value == 3; }));
}

TEST(MsrBackend, SamplerWrapsA24BitCounter)
{
    Fixture f;
    Sampler sampler(*f.backend, SamplerConfig { 10.0, 8, { "" }, 0 });
    f.msrs->setCounter(0, 0, 2, (1ULL << 24) - 100);
    ASSERT_TRUE(sampler.pollOnce(1'000'000'000).ok());
    f.msrs->setCounter(0, 0, 2, (1ULL << 24) + 400); // the fake wraps it to 400
    auto b = sampler.pollOnce(1'500'000'000);
    ASSERT_TRUE(b.ok());
    const auto& s = b->samples[0];
    EXPECT_TRUE(s.flags & SampleWrapped);
    EXPECT_DOUBLE_EQ(s.mbmTotalBps, 500.0 * 73728.0 / 0.5);
    // A 24-bit source never lets the sampler wait longer than 1 s (20.18.8).
    Sampler slow(*f.backend, SamplerConfig { 0.25, 8, { "" }, 0 });
    EXPECT_EQ(slow.intervalNs(), 1'000'000'000u);
    EXPECT_NE(slow.rateNote().find("20.18.8"), std::string::npos);
}

// A CPU that enumerates the overflow bit (CPUID.0FH.01H:EAX[8]): a read that saw bit 61 (set on overflow, reset on
// read; SDM 20.18.5.2) carries it to its sample, and only that read; a CPU that does not enumerate it never does.
TEST(MsrBackend, OverflowBitReachesTheSample)
{
    auto e = rdt::test::skxLike();
    e.overflowBit = true;
    for (const bool enumerated : { true, false }) {
        SCOPED_TRACE(enumerated);
        e.overflowBit = enumerated;
        Fixture f(e);
        Sampler sampler(*f.backend, SamplerConfig { 10.0, 8, { "" }, 0 });
        f.msrs->setCounter(0, 0, 2, 100);
        ASSERT_TRUE(sampler.pollOnce(1'000'000'000).ok());
        f.msrs->setCounter(0, 0, 2, 900); // rose, but the bit says a whole turn came with it
        f.msrs->overflowOnce(0, 0, 2);
        auto o = sampler.pollOnce(1'500'000'000);
        ASSERT_TRUE(o.ok());
        EXPECT_EQ((o->samples[0].flags & SampleOverflowBit) != 0, enumerated);
        EXPECT_EQ(sampleFlagLetters(o->samples[0].flags), enumerated ? "WO" : "-");
        const double units = enumerated ? double((1ULL << 24) + 800) : 800.0;
        EXPECT_DOUBLE_EQ(o->samples[0].mbmTotalBps, units * 73728.0 / 0.5);
        f.msrs->setCounter(0, 0, 2, 1000);
        auto after = sampler.pollOnce(2'000'000'000);
        ASSERT_TRUE(after.ok());
        EXPECT_FALSE(after->samples[0].flags & SampleOverflowBit);
    }
}

TEST(MsrBackend, CdpEnableSequence)
{
    Fixture f;
    ASSERT_TRUE(f.backend->createControlGroup("p0").ok());
    ASSERT_TRUE(f.backend->assignCpus("p0", { 1 }).ok());
    ASSERT_TRUE(f.backend->applySchemata("p0", *Schemata::parseStrict("L3:0=f")).ok());
    f.msrs->writes.clear();
    ASSERT_TRUE(f.backend->setCdp("L3", true).ok());
    // 20.19.6.2: masks all 1s first, threads to CLOS0, then QOS_CFG, then associations restored.
    const auto& w = f.msrs->writes;
    auto firstOf = [&](auto pred) { return std::find_if(w.begin(), w.end(), pred) - w.begin(); };
    const auto firstMask
        = firstOf([](const auto& x) { return x.msr >= msr::IA32_L3_MASK_0 && x.msr < msr::IA32_L3_MASK_0 + 16; });
    const auto cfg = firstOf([](const auto& x) { return x.msr == msr::IA32_L3_QOS_CFG; });
    const auto toClos0
        = firstOf([](const auto& x) { return x.msr == msr::IA32_PQR_ASSOC && x.cpu == 1 && (x.value >> 32) == 0; });
    ASSERT_LT(cfg, static_cast<long>(w.size()));
    EXPECT_LT(firstMask, toClos0);
    EXPECT_LT(toClos0, cfg);
    EXPECT_EQ(*f.msrs->read(0, msr::IA32_L3_MASK_0 + 2), 0x7ffu); // all 1s
    EXPECT_EQ(*f.msrs->read(1, msr::IA32_PQR_ASSOC) >> 32, 1u); // restored
    auto caps = f.backend->capabilities();
    EXPECT_NE(caps->resource("L3CODE"), nullptr);
    EXPECT_NE(caps->resource("L3DATA"), nullptr);
    EXPECT_EQ(caps->resource("L3CODE")->numClosids, 8u);
    // CLOS1 data mask is MASK_2, code mask MASK_3 (Table 20-19).
    ASSERT_TRUE(f.backend->applySchemata("p0", *Schemata::parseStrict("L3DATA:0=ff\nL3CODE:0=3")).ok());
    EXPECT_EQ(*f.msrs->read(0, msr::IA32_L3_MASK_0 + 2), 0xffu);
    EXPECT_EQ(*f.msrs->read(0, msr::IA32_L3_MASK_0 + 3), 0x3u);
}

TEST(MsrBackend, CdpRefusedWithHighClosInUse)
{
    auto e = rdt::test::skxLike();
    e.mbaMaxClos = 15; // allow 16 groups so CLOS 8+ exist
    e.cba = false;
    e.maxRmid = 31;
    Fixture f(e);
    for (int i = 1; i <= 9; ++i)
        ASSERT_TRUE(f.backend->createControlGroup("g" + std::to_string(i)).ok()) << i;
    auto r = f.backend->setCdp("L3", true);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EBUSY);
}

TEST(MsrBackend, TransactionRollbackOverMsrs)
{
    Fixture f;
    ASSERT_TRUE(f.backend->createControlGroup("p0").ok());
    auto before = f.backend->readSchemata("p0");
    AllocationEngine engine(*f.backend);
    f.msrs->failWrite(2); // the second WRMSR (domain 1's mask) faults
    auto out = engine.apply({ "p0", *Schemata::parseStrict("L3:0=ff;1=ff"), "cli" });
    EXPECT_FALSE(out.ok);
    EXPECT_TRUE(out.rolledBack);
    f.msrs->failWrite(0);
    auto after = f.backend->readSchemata("p0");
    EXPECT_TRUE(*after == *before);
}

// MSR state that survives the process (issue #14 item 3). Two backends one after the other on the same MSR space
// stand for two `--source msr` runs: the second finds the first's groups (from IA32_PQR_ASSOC and the state
// file) instead of handing out CLOS 1 again and rewriting masks CPUs of the first run still use.
TEST(MsrState, ASecondRunKeepsTheFirstRunsGroups)
{
    auto e = rdt::test::skxLike();
    auto msrs = std::make_shared<FakeMsrSpace>(e);
    const std::string dir = ::testing::TempDir() + "/msr-state-" + std::to_string(::getpid());
    const std::string file = dir + "/msr-state";
    std::filesystem::remove_all(dir);
    {
        auto first = MsrBackend::open(msrs, e, "");
        ASSERT_TRUE(first.ok());
        ASSERT_TRUE((*first)->attachStateFile(file).ok());
        ASSERT_TRUE((*first)->createControlGroup("web").ok());
        ASSERT_TRUE((*first)->createControlGroup("batch").ok()); // no CPUs: no trace in PQR_ASSOC
        ASSERT_TRUE((*first)->assignCpus("web", { 1 }).ok());
        ASSERT_TRUE((*first)->applySchemata("web", *Schemata::parseStrict("L3:0=3;1=3\n")).ok());
    }
    auto second = MsrBackend::open(msrs, e, "");
    ASSERT_TRUE(second.ok());
    ASSERT_TRUE((*second)->attachStateFile(file).ok());
    auto groups = (*second)->listGroups();
    ASSERT_TRUE(groups.ok());
    std::map<std::string, int> closOf;
    for (const auto& g : *groups)
        closOf[g.path] = g.closid;
    ASSERT_TRUE(closOf.count("web")) << "the first run's group is gone";
    ASSERT_TRUE(closOf.count("batch"));
    EXPECT_EQ((*second)->cpus("web").value(), (std::vector<unsigned> { 1 }));
    ASSERT_TRUE((*second)->createControlGroup("new").ok());
    auto after = (*second)->listGroups();
    int newClos = -1;
    for (const auto& g : *after)
        if (g.path == "new") newClos = g.closid;
    EXPECT_NE(newClos, closOf["web"]);
    EXPECT_NE(newClos, closOf["batch"]);
    // The first run's mask for web is untouched by the second run's new group.
    EXPECT_EQ((*second)->readSchemata("web")->value("L3", 0), std::optional<std::string>("3"));
    std::filesystem::remove_all(dir);
}

TEST(MsrState, WithoutAStateFileTheHardwareStillTellsWhatIsInUse)
{
    auto e = rdt::test::skxLike();
    auto msrs = std::make_shared<FakeMsrSpace>(e);
    {
        auto first = MsrBackend::open(msrs, e, "");
        ASSERT_TRUE((*first)->createControlGroup("web").ok());
        ASSERT_TRUE((*first)->assignCpus("web", { 2 }).ok());
    }
    ASSERT_TRUE(msrs->write(0, msr::IA32_L3_MASK_0 + 5, 0xf).ok()); // set by another tool, no CPU uses CLOS 5
    auto second = MsrBackend::open(msrs, e, "");
    ASSERT_TRUE(second.ok());
    EXPECT_EQ((*second)->cpus("clos1").value(), (std::vector<unsigned> { 2 })) << "CLOS 1 of CPU 2 was not found";
    EXPECT_TRUE((*second)->reservedClos().count(5));
    for (int i = 0; i < 6; ++i) {
        if (!(*second)->createControlGroup("g" + std::to_string(i)).ok()) break;
    }
    const auto groups = (*second)->listGroups();
    ASSERT_TRUE(groups.ok());
    for (const auto& g : *groups) {
        EXPECT_TRUE(g.path == "clos1" || g.closid != 1) << g.path << " got CLOS 1 again";
        EXPECT_NE(g.closid, 5) << g.path << " got the CLOS another tool configured";
    }
}

TEST(MsrState, OfflineCpusAreSkippedAndRealCpuNumbersUsed)
{
    auto e = rdt::test::skxLike();
    e.l3IdOfCpu = { 0, -1, 1, 1 }; // CPU 1 offline
    auto msrs = std::make_shared<FakeMsrSpace>(e);
    auto b = MsrBackend::open(msrs, e, "");
    ASSERT_TRUE(b.ok());
    EXPECT_EQ((*b)->cpus("").value(), (std::vector<unsigned> { 0, 2, 3 }));
    ASSERT_TRUE((*b)->createControlGroup("p").ok());
    EXPECT_FALSE((*b)->assignCpus("p", { 1 }).ok());
    ASSERT_TRUE((*b)->assignCpus("p", { 3 }).ok());
    msrs->writes.clear();
    ASSERT_TRUE((*b)->setCdp("L3", true).ok());
    for (const auto& w : msrs->writes)
        EXPECT_NE(w.cpu, 1u) << "an offline CPU was written";
}

TEST(MsrState, ADamagedStateFileIsRefusedWithAReason)
{
    auto e = rdt::test::skxLike();
    const std::string file = ::testing::TempDir() + "/bad-msr-state-" + std::to_string(::getpid());
    {
        std::ofstream(file) << "control web 99 1\n";
    }
    auto b = MsrBackend::open(std::make_shared<FakeMsrSpace>(e), e, "");
    auto attached = (*b)->attachStateFile(file);
    ASSERT_FALSE(attached.ok());
    EXPECT_NE(attached.error().toString().find("beyond what this CPU enumerates"), std::string::npos);
    {
        std::ofstream(file) << "control ../../etc 1 1\n";
    }
    EXPECT_FALSE((*b)->attachStateFile(file).ok());
    std::filesystem::remove(file);
}
