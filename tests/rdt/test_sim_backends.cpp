// SPDX-License-Identifier: GPL-3.0-or-later
// Every backend operation against the simulator's kernel (SimResctrlFs) and MSR space (SimMsrSpace).
#include "TestTree.h"
#include "engine/SourceAssembly.h"
#include "platform/CpuFeatures.h"
#include "platform/CpuidDump.h"
#include "rdt/AllocationEngine.h"
#include "rdt/MsrBackend.h"
#include "rdt/RdtSource.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Sample.h"
#include "rdt/Sampler.h"
#include "sim/SimMachine.h"
#include "sim/SimMsrSpace.h"
#include "sim/SimResctrlFs.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace rdt;

namespace {
std::unique_ptr<sim::SimMachine> machine()
{
    auto cpuid = sim::presetCpuid(sim::defaultPresetId());
    EXPECT_TRUE(cpuid.ok());
    auto m = sim::SimMachine::create(std::move(*cpuid));
    EXPECT_TRUE(m.ok());
    return std::move(*m);
}

struct SimResctrl {
    std::unique_ptr<sim::SimMachine> m = machine();
    std::shared_ptr<test::FaultyFs> fs;
    std::unique_ptr<ResctrlBackend> b;
    SimResctrl()
    {
        auto mounted = sim::SimResctrlFs::mount(*m);
        EXPECT_TRUE(mounted.ok());
        fs = std::make_shared<test::FaultyFs>(std::shared_ptr<Fs>(std::move(*mounted)));
        auto opened = ResctrlBackend::open(fs);
        EXPECT_TRUE(opened.ok());
        b = std::move(*opened);
    }
};
}

TEST(SimResctrlBackend, CapabilitiesMatchTheSimulatedCpu)
{
    SimResctrl s;
    auto caps = s.b->capabilities();
    ASSERT_TRUE(caps.ok());
    const auto& f = s.m->features();
    const auto* l3 = caps->resource("L3");
    ASSERT_NE(l3, nullptr);
    EXPECT_EQ(l3->cbmMask, f.l3Cat.fullMask());
    EXPECT_EQ(l3->shareableBits, f.l3Cat.shareableBits);
    EXPECT_EQ(l3->numClosids, f.l3Cat.numClos);
    ASSERT_NE(caps->resource("MB"), nullptr);
    EXPECT_TRUE(caps->monitoring.present);
    EXPECT_EQ(caps->monitoring.domains.size(), s.m->l3DomainCount());
}

TEST(SimResctrlBackend, GroupsTasksCpusAndClosidExhaustion)
{
    SimResctrl s;
    auto tid = s.m->addThread("t", 2, sim::WorkloadSpec {});
    ASSERT_TRUE(tid.ok());
    ASSERT_TRUE(s.b->createControlGroup("p0").ok());
    ASSERT_TRUE(s.b->createMonitorGroup("p0", "m0").ok());
    ASSERT_TRUE(s.b->assignTasks("p0", { static_cast<unsigned>(*tid) }).ok());
    auto tasks = s.b->tasks("p0");
    ASSERT_TRUE(tasks.ok());
    EXPECT_EQ(*tasks, std::vector<unsigned> { static_cast<unsigned>(*tid) });
    // PIDs the simulated kernel does not know are named before anything moves.
    auto noTask = s.b->assignTasks("p0", { 99999, static_cast<unsigned>(*tid), 99998 });
    ASSERT_FALSE(noTask.ok());
    EXPECT_EQ(noTask.error().code, ESRCH);
    EXPECT_NE(noTask.error().message.find("no processes with PIDs 99998, 99999"), std::string::npos)
        << noTask.error().toString();
    ASSERT_TRUE(s.b->assignCpus("p0", { 3 }).ok());
    EXPECT_EQ(*s.b->cpus("p0"), std::vector<unsigned> { 3 });
    auto groups = s.b->listGroups();
    EXPECT_EQ(groups->size(), 3u);
    // CLOSID 0 is the root's: min(num_closids) - 1 more control groups fit, then "Out of CLOSIDs".
    const auto max = s.b->capabilities()->maxControlGroups;
    for (unsigned i = 2; i < max; ++i)
        ASSERT_TRUE(s.b->createControlGroup("g" + std::to_string(i)).ok()) << i;
    auto full = s.b->createControlGroup("one-too-many");
    ASSERT_FALSE(full.ok());
    EXPECT_EQ(full.error().code, ENOSPC);
    EXPECT_NE(full.error().toString().find("Out of CLOSIDs"), std::string::npos);
    EXPECT_NE(full.error().advice.find("remove an unused group"), std::string::npos);
    ASSERT_TRUE(s.b->removeGroup("p0").ok());
    EXPECT_TRUE(s.b->createControlGroup("one-too-many").ok());
}

TEST(SimResctrlBackend, SchemataWritesCarryTheKernelsMessages)
{
    SimResctrl s;
    ASSERT_TRUE(s.b->createControlGroup("p0").ok());
    Schemata ok;
    ok.set("L3", 0, "3");
    ASSERT_TRUE(s.b->applySchemata("p0", ok).ok());
    EXPECT_EQ(s.b->readSchemata("p0")->value("L3", 0).value_or(""), "3");
    Schemata bad;
    bad.set("L3", 0, "505");
    auto r = s.b->applySchemata("p0", bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EINVAL);
    EXPECT_NE(r.error().message.find("kernel says: The mask 505 has non-consecutive 1-bits"), std::string::npos)
        << r.error().toString();
    // The kernel rounds MB up; the backend notices that the value read back differs.
    Schemata mb;
    mb.set("MB", 0, "55");
    auto rounded = s.b->applySchemata("p0", mb);
    ASSERT_FALSE(rounded.ok());
    EXPECT_NE(rounded.error().message.find("read back 60"), std::string::npos) << rounded.error().toString();
    // ...and the engine rounds first, as the kernel would, so the same request succeeds there.
    AllocationEngine engine(*s.b);
    auto out = engine.apply({ "p0", mb, "test" });
    EXPECT_TRUE(out.ok) << out.error.toString();
    EXPECT_EQ(s.b->readSchemata("p0")->value("MB", 0).value_or(""), "60");
}

TEST(SimResctrlBackend, RollbackOnTheSimulatedKernel)
{
    SimResctrl s;
    ASSERT_TRUE(s.b->createControlGroup("p0").ok());
    auto before = s.b->readSchemata("p0");
    AllocationEngine engine(*s.b);
    s.fs->arm(2, EIO);
    auto out = engine.apply({ "p0", *Schemata::parseStrict("L3:0=3\nMB:0=50"), "test" });
    EXPECT_FALSE(out.ok);
    EXPECT_TRUE(out.rolledBack);
    s.fs->arm(0);
    EXPECT_TRUE(*s.b->readSchemata("p0") == *before);
}

TEST(SimResctrlBackend, CountersMoveWithSimulatedTime)
{
    SimResctrl s;
    sim::WorkloadSpec stream;
    stream.pattern = sim::Pattern::Stream;
    stream.workingSet = 256ull << 20;
    auto tid = s.m->addThread("stream", 1, stream);
    ASSERT_TRUE(tid.ok());
    ASSERT_TRUE(s.b->createControlGroup("p0").ok());
    ASSERT_TRUE(s.b->assignTasks("p0", { static_cast<unsigned>(*tid) }).ok());
    Sampler sampler(*s.b, SamplerConfig { 10.0, 8, { "p0" }, 2e12 });
    ASSERT_TRUE(sampler.pollOnce(s.m->nowNs()).ok());
    s.m->advance(100'000'000);
    auto b = sampler.pollOnce(s.m->nowNs());
    ASSERT_TRUE(b.ok());
    ASSERT_FALSE(b->samples.empty());
    EXPECT_GT(b->samples[0].occupancyBytes, 0u);
    EXPECT_GT(b->samples[0].mbmTotalBps, 1e8);
    EXPECT_GE(b->samples[0].mbmTotalBps, b->samples[0].mbmLocalBps);
}

TEST(SimMsrBackend, EveryOperation)
{
    auto src = openRdtSource(RdtSourceOptions { "sim-msr", "noisy-neighbour", "/sys/fs/resctrl", "/proc/mounts" });
    ASSERT_TRUE(src.ok()) << src.error().toString();
    ASSERT_TRUE(src->simulated);
    auto& b = *src->backend;
    auto caps = b.capabilities();
    ASSERT_TRUE(caps.ok());
    EXPECT_FALSE(caps->handlesTasks);
    EXPECT_EQ(caps->monitoring.counterWidth, 24u); // Skylake-SP: 24-bit MBM
    ASSERT_TRUE(b.createControlGroup("p0").ok());
    ASSERT_TRUE(b.createMonitorGroup("p0", "m0").ok());
    ASSERT_TRUE(b.assignCpus("p0", { 6, 7 }).ok());
    ASSERT_TRUE(b.assignCpus("p0/mon_groups/m0", { 7 }).ok());
    EXPECT_FALSE(b.assignTasks("p0", { 1 }).ok());
    ASSERT_TRUE(b.applySchemata("p0", *Schemata::parseStrict("L3:0=3\nMB:0=40")).ok());
    auto s = b.readSchemata("p0");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->value("L3", 0).value_or(""), "3");
    EXPECT_EQ(s->value("MB", 0).value_or(""), "40");
    // SimMsrSpace #GPs a non-contiguous CBM (20.19.4.3) and the backend reports it with the SDM reason.
    auto gp = b.applySchemata("p0", *Schemata::parseStrict("L3:0=505"));
    ASSERT_FALSE(gp.ok());
    EXPECT_EQ(gp.error().code, EIO);
    // Counters after some simulated time.
    auto* msrBackend = dynamic_cast<MsrBackend*>(&b);
    ASSERT_NE(msrBackend, nullptr);
    ASSERT_TRUE(msrBackend->setCdp("L3", true).ok());
    EXPECT_NE(b.capabilities()->resource("L3CODE"), nullptr);
    ASSERT_TRUE(b.applySchemata("p0", *Schemata::parseStrict("L3CODE:0=3\nL3DATA:0=7f0")).ok());
    EXPECT_EQ(b.readSchemata("p0")->value("L3DATA", 0).value_or(""), "7f0");
    ASSERT_TRUE(msrBackend->setCdp("L3", false).ok());
    ASSERT_TRUE(b.removeGroup("p0").ok());
    EXPECT_EQ(b.listGroups()->size(), 3u); // default + the scenario's victim and streamer
}

// MBM over MSRs with a small upscaling factor (a lesson override: 64 B units), so the 24-bit counter wraps every
// 1 GiB: the sampler's wrap-corrected bytes equal the bytes the model moved, across many wraps.
TEST(SimMsrBackend, CountersWrapAt24BitsAndTheSamplerCorrects)
{
    auto cpuid = sim::presetCpuid(sim::defaultPresetId());
    ASSERT_TRUE(cpuid.ok());
    ASSERT_TRUE(sim::applyCpuidOverride(*cpuid, "mbm_scale", 64).ok());
    auto created = sim::SimMachine::create(std::move(*cpuid));
    ASSERT_TRUE(created.ok());
    auto& m = **created;
    sim::WorkloadSpec stream;
    stream.pattern = sim::Pattern::Stream;
    stream.workingSet = 1ull << 30;
    stream.computeCycles = 1;
    ASSERT_TRUE(m.addThread("stream", 0, stream).ok());
    auto msrs = std::make_shared<sim::SimMsrSpace>(m);
    auto b = MsrBackend::open(msrs, msrEnumerationOf(m), "");
    ASSERT_TRUE(b.ok());
    EXPECT_EQ((*b)->capabilities()->monitoring.counterWidth, 24u);
    Sampler sampler(**b, SamplerConfig { 10.0, 64, { "" }, 0 });
    const auto start = m.counters(0, 0).totalBytes;
    auto first = sampler.pollOnce(m.nowNs());
    ASSERT_TRUE(first.ok());
    const auto startCum = first->samples[0].mbmTotalBytes;
    int wraps = 0;
    // 20 ms polls: at ~14 GB/s a 1 GiB counter turns at most once between two reads. (With real 73728-byte
    // units the SDM's 1 Hz suffices; a 64-byte override voids that guarantee, so the test polls faster.)
    for (int i = 0; i < 100; ++i) {
        m.advance(20'000'000);
        auto batch = sampler.pollOnce(m.nowNs());
        ASSERT_TRUE(batch.ok());
        const auto& s = batch->samples[0];
        wraps += (s.flags & SampleWrapped) != 0;
        EXPECT_EQ(s.flags & (SampleCounterReset | SampleMaybeMultiWrap), 0u);
        // Exact to the counter unit: both sides count whole 64-byte units of the same total.
        const auto moved = m.counters(0, 0).totalBytes / 64 * 64 - start / 64 * 64;
        EXPECT_EQ(s.mbmTotalBytes - startCum, moved) << "poll " << i;
    }
    EXPECT_GE(wraps, 2) << "the stream should wrap a 1 GiB counter several times in 2 s";
}

// The scenario's timed steps run through the MSR backend as simulated time passes (sim-msr).
TEST(SimMsrBackend, ScenarioStepsRunAsTimePasses)
{
    auto src = openRdtSource(RdtSourceOptions { "sim-msr", "noisy-neighbour", "", "" });
    ASSERT_TRUE(src.ok()) << src.error().toString();
    auto setup = src->simulation->takeEvents();
    ASSERT_FALSE(setup.empty());
    EXPECT_NE(setup.front().text.find("mkdir victim"), std::string::npos);
    EXPECT_EQ(src->backend->readSchemata("streamer")->value("L3", 0).value_or(""), "7ff");
    src->simulation->advanceTo(20'500'000'000ULL); // the scenario fences the streamer at 20 s
    EXPECT_EQ(src->backend->readSchemata("streamer")->value("L3", 0).value_or(""), "3");
    EXPECT_EQ(src->backend->readSchemata("victim")->value("L3", 0).value_or(""), "7fc");
    auto later = src->simulation->takeEvents();
    EXPECT_TRUE(std::any_of(later.begin(), later.end(), [](const SimulationEvent& e) { return e.note; }));
    EXPECT_TRUE(std::all_of(later.begin(), later.end(), [](const SimulationEvent& e) { return e.ok; }));
}

TEST(SimSource, SamplerThreadAdvancesSimulatedTime)
{
    auto src = openRdtSource(RdtSourceOptions { "sim", "noisy-neighbour", "/sys/fs/resctrl", "/proc/mounts" });
    ASSERT_TRUE(src.ok()) << src.error().toString();
    ASSERT_TRUE(src->simulated);
    ASSERT_NE(src->simulation, nullptr);
    const auto t0 = src->simulation->nowNs();
    Sampler sampler(*src->backend, SamplerConfig { 50.0, 64, {}, 2e12 }, src->simulation.get());
    ASSERT_TRUE(sampler.start().ok());
    int batches = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    std::uint64_t lastTime = 0;
    while (batches < 5 && std::chrono::steady_clock::now() < deadline) {
        while (auto b = sampler.queue().pop()) {
            EXPECT_GT(b->timeNs, lastTime);
            lastTime = b->timeNs;
            ++batches;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    sampler.stop();
    EXPECT_GE(batches, 5);
    EXPECT_GE(src->simulation->nowNs() - t0, 5u * 20'000'000u);
}

TEST(RdtSource, AutoFallsBackToSimAndSaysWhy)
{
    rdt::test::TempTree t("resctrl.l2");
    t.write("mounts", "proc /proc proc rw 0 0\n");
    auto src = openRdtSource(RdtSourceOptions { "auto", "", "/sys/fs/resctrl", t.root() + "/mounts" });
    ASSERT_TRUE(src.ok()) << src.error().toString();
    EXPECT_EQ(src->kind, "sim");
    EXPECT_TRUE(src->simulated);
    EXPECT_NE(src->why.find("resctrl not mounted"), std::string::npos) << src->why;
    EXPECT_NE(src->why.find("simulated"), std::string::npos);
    // A mounted resctrl (here: a fixture tree named in the mounts file) is preferred.
    t.write("mounts", "resctrl " + t.root() + " resctrl rw 0 0\n");
    auto real = openRdtSource(RdtSourceOptions { "auto", "", "/sys/fs/resctrl", t.root() + "/mounts" });
    ASSERT_TRUE(real.ok()) << real.error().toString();
    EXPECT_EQ(real->kind, "resctrl");
    EXPECT_FALSE(real->simulated);
    EXPECT_NE(real->why.find("mounted at " + t.root()), std::string::npos);
    auto unknown = openRdtSource(RdtSourceOptions { "bogus", "idle", "", "" });
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().advice.find("sim-msr"), std::string::npos);
    auto badScenario = openRdtSource(RdtSourceOptions { "sim", "no-such-scenario", "", "" });
    ASSERT_FALSE(badScenario.ok());
    EXPECT_NE(badScenario.error().advice.find("noisy-neighbour"), std::string::npos);
}

// A recorded simulated session stores the simulated CPU's CPUID (issue 5: "the machine (the CPUID JSON snapshot)"),
// so a replay can describe it; both simulated sources hand it out and it decodes as the preset CPU.
TEST(SimSources, ExposeTheSimulatedCpuidSnapshot)
{
    for (const char* kind : { "sim", "sim-msr" }) {
        auto src = openRdtSource(RdtSourceOptions { kind, "noisy-neighbour", "/sys/fs/resctrl", "/proc/mounts" });
        ASSERT_TRUE(src.ok()) << src.error().toString();
        ASSERT_TRUE(src->simulation);
        const std::string json = src->simulation->cpuidJson();
        ASSERT_FALSE(json.empty()) << kind;
        auto table = cpuidTableFromJson(json);
        ASSERT_TRUE(table.ok()) << table.error().toString();
        const CpuFeatures f = decodeCpuFeatures(*table);
        EXPECT_TRUE(f.identity.isIntel()) << kind;
        EXPECT_EQ(f.allocation.l3.cbmMask, 0x7ffu) << kind; // the default preset, Xeon Gold 6154
    }
}
