// SPDX-License-Identifier: GPL-3.0-or-later
// Per-step PMU figures of a way sweep on the simulated machine: the victim's MPKI rises and its IPC falls once its
// ways shrink below the knee, read from the model's counts of its own threads; a source without such counts gives
// no figures and says why; the figures go into the session's sweep_pmu table and read back, and a file without that
// table reads as "not measured"; on a real (not simulated) source the group's threads are counted with
// perf_event_open (TMA's memory-bound share from the Skylake-SP formula), here through the engine's seam onto a
// fake kernel.
#include "../pmu/FakeCountingPerf.h"
#include "SweepTestSupport.h"
#include "engine/CaptureService.h"
#include "experiment/Sweep.h"
#include "pmu/MemoryBound.h"
#include "rdt/ResctrlBackend.h"
#include "session/SessionReader.h"
#include "session/SessionWriter.h"
#include "sim/Scenario.h"
#include "sim/Simulation.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

using namespace rdt;
using namespace rdt::experiment;
using rdt::experiment::test::quick;
using rdt::experiment::test::TestControl;

namespace {

const SweepStep* stepWithWays(const SweepResult& r, std::uint64_t ways)
{
    for (const auto& s : r.steps)
        if (s.value == ways) return &s;
    return nullptr;
}

} // namespace

TEST(SweepPmu, VictimMpkiRisesAsItsWaysShrinkBelowTheKnee)
{
    engine::ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = "noisy-neighbour";
    o.who = "test";
    auto svc = engine::CaptureService::open(o);
    ASSERT_TRUE(svc.ok()) << svc.error().toString();
    auto s = quick("victim");
    s.isolate = { "streamer" };
    auto r = runSweep(**svc, s);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    ASSERT_TRUE(r->completed);
    ASSERT_TRUE(r->pmu.available) << r->pmu.unavailable;
    EXPECT_NE(r->pmu.method.find("simulated"), std::string::npos) << r->pmu.method;
    for (const auto& st : r->steps) {
        ASSERT_TRUE(st.ipc && st.mpki && st.memoryBound) << "step " << st.index;
        EXPECT_GT(*st.ipc, 0);
        EXPECT_GE(*st.memoryBound, 0);
        EXPECT_LE(*st.memoryBound, 1);
        EXPECT_EQ(st.pmuSource, r->pmu.method);
    }
    ASSERT_TRUE(r->knees.bandwidth.found);
    const auto knee = static_cast<std::uint64_t>(r->knees.bandwidth.x);
    ASSERT_GE(knee, 3u) << "the victim's 16 MiB need several ways";
    const auto* widest = &r->steps.front();
    const auto* atKnee = stepWithWays(*r, knee);
    const auto* narrowest = &r->steps.back();
    ASSERT_TRUE(atKnee);
    ASSERT_EQ(narrowest->value, 1u);
    // Above the knee its working set fits: MPKI stays near the widest step's. Below it, every way taken away
    // costs misses: MPKI rises step by step, IPC falls, and more of its cycles wait on memory.
    EXPECT_LT(*atKnee->mpki, 2 * *widest->mpki + 0.5)
        << "at the knee " << *atKnee->mpki << ", widest " << *widest->mpki;
    double previous = *atKnee->mpki;
    for (std::uint64_t ways = knee - 1; ways >= 1; --ways) {
        const auto* st = stepWithWays(*r, ways);
        ASSERT_TRUE(st);
        EXPECT_GT(*st->mpki, previous) << ways << " ways";
        previous = *st->mpki;
    }
    EXPECT_GT(*narrowest->mpki, 5 * *atKnee->mpki + 1) << "narrowest " << *narrowest->mpki;
    EXPECT_LT(*narrowest->ipc, *atKnee->ipc);
    EXPECT_GT(*narrowest->memoryBound, *atKnee->memoryBound);
    // The same misses the MBM counters see: the one-way step's memory traffic rose with its MPKI.
    EXPECT_GT(narrowest->totalBps, atKnee->totalBps);
}

TEST(SweepPmu, NoFiguresAndTheReasonWithoutAPmu)
{
    auto sc = sim::parseScenario("machine preset=skx-6154 cores=4 sampling=128\nmkdir victim\n"
                                 "thread svc-0 group=victim cpu=0 pattern=random ws=8M compute=40\n",
        "test");
    ASSERT_TRUE(sc.ok()) << sc.error().toString();
    auto created = sim::Simulation::create(*sc);
    ASSERT_TRUE(created.ok()) << created.error().toString();
    std::shared_ptr<sim::Simulation> simulation(std::move(*created));
    auto backend = ResctrlBackend::open(std::shared_ptr<Fs>(&simulation->resctrl(), [simulation](Fs*) {}));
    ASSERT_TRUE(backend.ok()) << backend.error().toString();
    RdtSource src;
    src.backend = std::move(*backend);
    src.kind = "sim";
    src.simulated = true;
    src.simulation = std::make_shared<TestControl>(simulation, "test simulation without task counts");
    engine::ServiceOptions o;
    o.who = "test";
    auto svc = engine::CaptureService::openWith(std::move(src), o);
    ASSERT_TRUE(svc.ok()) << svc.error().toString();
    auto r = runSweep(**svc, quick("victim"));
    ASSERT_TRUE(r.ok()) << r.error().toString();
    ASSERT_FALSE(r->steps.empty());
    EXPECT_FALSE(r->pmu.available);
    EXPECT_NE(r->pmu.unavailable.find("no model"), std::string::npos) << r->pmu.unavailable;
    for (const auto& st : r->steps) {
        EXPECT_FALSE(st.ipc || st.mpki || st.memoryBound) << "step " << st.index << ": a figure without a PMU";
        EXPECT_EQ(st.pmuSource, r->pmu.unavailable);
    }
}

TEST(SweepPmu, ARealSourceCountsTheGroupsThreadsWithPerf)
{
    auto sc = sim::parseScenario("machine preset=skx-6154 cores=4 sampling=128\nmkdir victim\n"
                                 "thread svc-0 group=victim cpu=0 pattern=random ws=8M compute=40\n"
                                 "thread svc-1 group=victim cpu=1 pattern=random ws=8M compute=40\n",
        "test");
    ASSERT_TRUE(sc.ok()) << sc.error().toString();
    auto created = sim::Simulation::create(*sc);
    ASSERT_TRUE(created.ok()) << created.error().toString();
    std::shared_ptr<sim::Simulation> simulation(std::move(*created));
    auto backend = ResctrlBackend::open(std::shared_ptr<Fs>(&simulation->resctrl(), [simulation](Fs*) {}));
    ASSERT_TRUE(backend.ok()) << backend.error().toString();
    // A source that is not simulated (its tasks file read as the kernel's), its perf_event_open a fake kernel's.
    RdtSource src;
    src.backend = std::move(*backend);
    src.kind = "resctrl";
    auto perf = std::make_shared<pmu::test::CountingPerfState>();
    perf->env.hasCpuPmu = true;
    perf->env.isRoot = true;
    engine::ServiceOptions o;
    o.who = "test";
    o.perfSyscalls = [perf] { return std::make_unique<pmu::test::FakeCountingPerf>(perf); };
    // A Skylake-SP PMU (pmu/MemoryBound.h): per read, TMA level 1 with backend bound 0.4 and retiring 0.4 from
    // cycles 1000, UOPS_ISSUED.ANY 2000, RETIRE_SLOTS 1600, IDQ_UOPS_NOT_DELIVERED 400; STALLS_MEM_ANY 300,
    // BOUND_ON_STORES 100, STALLS_TOTAL 500, 1_PORTS_UTIL 200, 2_PORTS_UTIL 250: share 400 / 900 * 0.4.
    for (const auto& [config, step] :
        std::map<std::uint64_t, std::uint64_t> { { 0x010e, 2000 }, { 0x02c2, 1600 }, { 0x019c, 400 },
            { 0x140014a3, 300 }, { 0x40a6, 100 }, { 0x040004a3, 500 }, { 0x02a6, 200 }, { 0x04a6, 250 } })
        perf->stepPerRead[config] = step;
    o.memoryBoundRecipes = [](const pmu::PerfEnvironment&) {
        return pmu::memoryBoundRecipes(pmu::EventEncoder::forModel(pmu::modelForPfmName("skx")), {});
    };
    auto svc = engine::CaptureService::openWith(std::move(src), o);
    ASSERT_TRUE(svc.ok()) << svc.error().toString();
    std::vector<unsigned> tasks;
    for (const auto& g : (*svc)->snapshot(true).groups)
        if (g.info.path == "victim") tasks = g.tasks;
    ASSERT_EQ(tasks.size(), 2u);
    auto s = quick("victim");
    s.settleNs = 0; // paced in real time: keep the sweep short
    s.measureNs = 30'000'000;
    s.pollNs = 10'000'000;
    auto r = runSweep(**svc, s);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    ASSERT_TRUE(r->completed);
    EXPECT_FALSE(r->simulated);
    ASSERT_TRUE(r->pmu.available) << r->pmu.unavailable;
    EXPECT_NE(r->pmu.method.find("perf_event_open on each of the group's 2 thread(s)"), std::string::npos)
        << r->pmu.method;
    EXPECT_EQ(r->pmu.method.find("simulated"), std::string::npos) << r->pmu.method;
    // Each step reads every counter once more at its start and its end: per thread 1000 cycles, 2000 instructions
    // and 10 cache misses over the measurement, so IPC 2 and 5 misses per thousand instructions, and the TMA
    // memory-bound share of the step's interval.
    for (const auto& st : r->steps) {
        ASSERT_TRUE(st.ipc && st.mpki) << "step " << st.index << ": " << st.pmuSource;
        EXPECT_DOUBLE_EQ(*st.ipc, 2.0);
        EXPECT_DOUBLE_EQ(*st.mpki, 5.0);
        ASSERT_TRUE(st.memoryBound) << st.pmuSource;
        EXPECT_NEAR(*st.memoryBound, 400.0 / 900.0 * 0.4, 1e-9);
    }
    EXPECT_NE(r->pmu.method.find("memory-bound share: TMA Memory Bound"), std::string::npos) << r->pmu.method;
    // Per thread of the group, opened once for the whole sweep, each following its thread: three counters, and the
    // three TMA groups (5 + 3 + 2 events).
    ASSERT_EQ(perf->opens.size(), 2u * (3 + 10));
    for (const auto& op : perf->opens) {
        EXPECT_NE(std::find(tasks.begin(), tasks.end(), static_cast<unsigned>(op.pid)), tasks.end()) << op.pid;
        EXPECT_EQ(op.cpu, -1);
    }
}

TEST(SweepPmu, FiguresRoundTripThroughTheSessionAndOldFilesReadAsNotMeasured)
{
    char tmpl[] = "/tmp/rdtscope-sweep-pmu-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string file = std::string(tmpl) + "/s.rdts";
    {
        auto w = session::SessionWriter::create(file, {}, {});
        ASSERT_TRUE(w.ok()) << w.error().toString();
        session::SweepStepRow measured;
        measured.step = 1;
        measured.kind = "ways";
        measured.group = "victim";
        measured.value = 11;
        measured.ipc = 0.75;
        measured.mpki = 12.5;
        measured.memoryBound = 0.4;
        measured.pmuSource = "simulated: test";
        session::SweepStepRow unmeasured = measured;
        unmeasured.step = 2;
        unmeasured.value = 10;
        unmeasured.ipc.reset();
        unmeasured.mpki.reset();
        unmeasured.memoryBound.reset();
        unmeasured.pmuSource = "no PMU: test";
        ASSERT_TRUE((*w)->addSweepStep(measured).ok());
        ASSERT_TRUE((*w)->addSweepStep(unmeasured).ok());
        ASSERT_TRUE((*w)->close().ok());
    }
    {
        auto reader = session::SessionReader::open(file);
        ASSERT_TRUE(reader.ok()) << reader.error().toString();
        auto steps = (*reader)->sweepSteps();
        ASSERT_TRUE(steps.ok()) << steps.error().toString();
        ASSERT_EQ(steps->size(), 2u);
        ASSERT_TRUE((*steps)[0].ipc && (*steps)[0].mpki && (*steps)[0].memoryBound);
        EXPECT_DOUBLE_EQ(*(*steps)[0].ipc, 0.75);
        EXPECT_DOUBLE_EQ(*(*steps)[0].mpki, 12.5);
        EXPECT_DOUBLE_EQ(*(*steps)[0].memoryBound, 0.4);
        EXPECT_EQ((*steps)[0].pmuSource, "simulated: test");
        EXPECT_FALSE((*steps)[1].ipc || (*steps)[1].mpki || (*steps)[1].memoryBound);
        EXPECT_EQ((*steps)[1].pmuSource, "no PMU: test");
    }
    { // A file written before sweep_pmu existed: the table dropped, the sweep still reads, without figures.
        auto db = session::Database::open(file, session::Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok()) << db.error().toString();
        ASSERT_TRUE(db->exec("DROP TABLE sweep_pmu").ok());
    }
    auto reader = session::SessionReader::open(file);
    ASSERT_TRUE(reader.ok()) << reader.error().toString();
    auto steps = (*reader)->sweepSteps();
    ASSERT_TRUE(steps.ok()) << steps.error().toString();
    ASSERT_EQ(steps->size(), 2u);
    EXPECT_EQ((*steps)[0].value, 11u);
    EXPECT_FALSE((*steps)[0].ipc || (*steps)[0].mpki || (*steps)[0].memoryBound);
    EXPECT_TRUE((*steps)[0].pmuSource.empty());
    std::filesystem::remove_all(tmpl);
}
