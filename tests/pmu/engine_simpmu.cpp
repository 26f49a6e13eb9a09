// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated PMU end to end: byte-exact records in an in-memory ring, read by the real RingReader, decoded by the
// real RecordDecoder, symbolized and aggregated.
#include "platform/CpuFeatures.h"
#include "pmu/BranchGraph.h"
#include "pmu/LoadLatency.h"
#include "pmu/RecordDecoder.h"
#include "pmu/RingReader.h"
#include "pmu/Symbolizer.h"
#include "pmu/Tma.h"
#include "sim/SimCpuid.h"
#include "simpmu/SimPmu.h"
#include "simpmu/SimPmuModel.h"

#include <gtest/gtest.h>

using namespace rdt::pmu;

namespace {

struct Pipeline {
    RecordDecoder decoder;
    Symbolizer symbols;
    std::uint64_t samples = 0, comms = 0, mmaps = 0;
};

// Drains the sim's ring through the real reader and decoder; calls onSample for every sample.
template <typename F> RingStats drain(SimPmu& sim, Pipeline& p, F&& onSample, std::uint64_t* decodeErrors = nullptr)
{
    auto view = RingReader::viewOfMapping(sim.ring().base(), sim.ring().mapSize(), sim.ring().pageSize());
    EXPECT_TRUE(view) << view.error().toString();
    auto reader = RingReader::create(*view);
    EXPECT_TRUE(reader);
    DecodedRecord rec;
    reader->drainDecoded(p.decoder, rec, [&](const DecodedRecord& r) {
        p.symbols.onRecord(r);
        if (r.kind == RecordKind::Sample) {
            ++p.samples;
            onSample(r.sample);
        } else if (r.kind == RecordKind::Comm) {
            ++p.comms;
        } else if (r.kind == RecordKind::Mmap) {
            ++p.mmaps;
        }
    });
    if (decodeErrors) *decodeErrors = reader->decodeErrors();
    return reader->stats();
}

const FunctionEdge* edge(const BranchGraphReport& r, const std::string& a, const std::string& b)
{
    for (const auto& e : r.edges)
        if (e.from == a && e.to == b) return &e;
    return nullptr;
}

} // namespace

TEST(SimPmu, CallStackLbrThroughRealReaderAndDecoder)
{
    SimPmuConfig cfg;
    cfg.capture = SimCapture::LbrCallStack;
    auto sim = SimPmu::create(cfg);
    ASSERT_TRUE(sim) << sim.error().toString();
    EXPECT_EQ(sim->samplingAttr().branchSampleType,
        perf::BranchUser | perf::BranchCallStack | perf::BranchNoFlags | perf::BranchNoCycles | perf::BranchHwIndex);
    Pipeline p;
    sim->addEventsTo(p.decoder);
    sim->registerSymbols(p.symbols);
    BranchGraph graph(BranchGraph::Mode::CallStack);
    std::uint64_t errors = 0;
    std::uint64_t total = 0;
    for (int round = 0; round < 5; ++round) { // run and drain in slices, as the live reader thread does
        sim->run(4'000'000);
        drain(
            *sim, p,
            [&](const Sample& s) {
                EXPECT_TRUE(s.hasHwIdx);
                EXPECT_EQ(s.pid, cfg.pid);
                graph.add(s);
            },
            &errors);
        total = p.samples;
    }
    EXPECT_EQ(errors, 0u);
    EXPECT_EQ(p.comms, 1u);
    EXPECT_EQ(p.mmaps, 1u);
    EXPECT_EQ(total, sim->truth().samplesWritten);
    EXPECT_GT(total, 500u);
    EXPECT_EQ(p.symbols.comm(cfg.pid), "rdtscope-sim-app");
    auto r = graph.report(p.symbols);
    ASSERT_FALSE(r.edges.empty());
    EXPECT_EQ(r.edges[0].from, "main"); // every stack passes main -> serve_requests
    EXPECT_EQ(r.edges[0].to, "serve_requests");
    ASSERT_NE(edge(r, "serve_requests", "lookup_user"), nullptr);
    ASSERT_NE(edge(r, "lookup_user", "probe_table"), nullptr);
    ASSERT_NE(edge(r, "parse_request", "tokenize"), nullptr);
    EXPECT_EQ(edge(r, "serve_requests", "main"), nullptr);
    EXPECT_EQ(edge(r, "tokenize", "lookup_user"), nullptr) << "no such call in the program";
    EXPECT_EQ(r.functions[0].inclusive, total); // main (or serve_requests, tied unless a sample hit main itself)
    bool mainSeen = false;
    for (const auto& f : r.functions)
        if (f.name == "main") {
            mainSeen = true;
            EXPECT_EQ(f.inclusive, total);
            EXPECT_LT(f.self, total / 10);
        }
    EXPECT_TRUE(mainSeen);
}

TEST(SimPmu, AnyBranchCarriesCyclesAndMispredicts)
{
    SimPmuConfig cfg;
    cfg.capture = SimCapture::LbrAny;
    auto sim = SimPmu::create(cfg);
    ASSERT_TRUE(sim);
    Pipeline p;
    sim->addEventsTo(p.decoder);
    sim->registerSymbols(p.symbols);
    BranchGraph graph(BranchGraph::Mode::AnyBranch);
    sim->run(10'000'000);
    drain(*sim, p, [&](const Sample& s) {
        EXPECT_LE(s.branches.size(), 32u);
        graph.add(s);
    });
    auto r = graph.report(p.symbols);
    auto loop = edge(r, "tokenize", "tokenize");
    ASSERT_NE(loop, nullptr);
    EXPECT_FALSE(loop->call());
    EXPECT_GT(loop->stats.mispredictRate(), 0.05); // tokenize mispredicts 12% of its back-edges
    EXPECT_LT(loop->stats.mispredictRate(), 0.25);
    EXPECT_GT(loop->stats.averageCycles(), 0.0);
    auto call = edge(r, "lookup_user", "hash_key");
    ASSERT_NE(call, nullptr);
    EXPECT_TRUE(call->call());
    EXPECT_EQ(call->stats.mispredicts, 0u);
    auto ret = edge(r, "hash_key", "lookup_user");
    ASSERT_NE(ret, nullptr) << "returns are branches too";
    EXPECT_TRUE(ret->ret());
    EXPECT_FALSE(ret->call());
}

TEST(SimPmu, LoadLatencySourcesFollowTheCacheModel)
{
    SimPmuConfig cfg;
    cfg.capture = SimCapture::LoadLatency;
    cfg.loadPeriod = 3;
    auto sim = SimPmu::create(cfg);
    ASSERT_TRUE(sim);
    EXPECT_EQ(sim->samplingAttr().config, 0x1cdu);
    EXPECT_EQ(sim->samplingAttr().config1, 30u);
    EXPECT_EQ(sim->recipe().events.size(), 2u) << "SPR-class: mem-loads-aux leads";
    Pipeline p;
    sim->addEventsTo(p.decoder);
    sim->registerSymbols(p.symbols);
    LoadLatency agg;
    std::uint64_t below = 0;
    for (int round = 0; round < 4; ++round) {
        sim->run(5'000'000);
        drain(*sim, p, [&](const Sample& s) {
            below += s.latency() < 30 ? 1u : 0u;
            EXPECT_TRUE(s.exactIp());
            agg.add(s);
        });
    }
    EXPECT_EQ(below, 0u) << "ldlat=30 filters L1/L2 hits";
    auto r = agg.report(p.symbols);
    ASSERT_GT(r.total.count, 200u);
    auto fn = [&](const std::string& name) -> const LatencyRow* {
        for (const auto& row : r.functions)
            if (row.key == name) return &row;
        return nullptr;
    };
    ASSERT_NE(fn("walk_collisions"), nullptr);
    EXPECT_EQ(fn("walk_collisions")->stats.dominantLevel(), MemLevel::RemoteDram); // its region is remote memory
    EXPECT_GT(fn("walk_collisions")->stats.remote, 0u);
    ASSERT_NE(fn("probe_table"), nullptr);
    EXPECT_EQ(fn("probe_table")->stats.dominantLevel(), MemLevel::LocalDram);
    EXPECT_EQ(fn("probe_table")->stats.remote, 0u);
    ASSERT_NE(fn("update_counters"), nullptr);
    EXPECT_GT(fn("update_counters")->stats.hitm, 0u); // the other core writes those counters
    EXPECT_GT(fn("walk_collisions")->stats.percentile(0.5), fn("update_counters")->stats.percentile(0.5));
    std::uint64_t dram = 0;
    for (std::size_t b = 0; b < LoadLatencyReport::kBuckets; ++b)
        dram += r.histogram[b][static_cast<std::size_t>(MemLevel::LocalDram)];
    EXPECT_EQ(dram, r.total.byLevel[static_cast<std::size_t>(MemLevel::LocalDram)]);
}

TEST(SimPmu, TmaBackendBoundGrowsWithMisses)
{
    auto breakdown = [](double scale) {
        SimPmuConfig cfg;
        cfg.capture = SimCapture::Tma;
        cfg.memoryScale = scale;
        auto sim = SimPmu::create(cfg);
        EXPECT_TRUE(sim);
        auto before = parseReadFormat(sim->readGroup(), sim->recipe().events[0].attr.readFormat);
        sim->run(20'000'000);
        auto after = parseReadFormat(sim->readGroup(), sim->recipe().events[0].attr.readFormat);
        EXPECT_TRUE(before && after);
        return tmaFromGroupRead(sim->recipe(), deltaRead(*after, *before));
    };
    const auto small = breakdown(0.001); // every region fits in the caches
    const auto big = breakdown(4.0); // 256 MiB table: misses everywhere
    ASSERT_TRUE(small.valid) << small.note;
    ASSERT_TRUE(big.valid) << big.note;
    for (const auto* b : { &small, &big }) {
        EXPECT_NEAR(b->level1.retiring + b->level1.badSpeculation + b->level1.frontendBound + b->level1.backendBound,
            1.0, 1e-9);
        EXPECT_TRUE(b->level2.present);
        EXPECT_NEAR(b->level2.memoryBound + b->level2.coreBound, b->level1.backendBound, 1e-9);
    }
    EXPECT_GT(big.level1.backendBound, small.level1.backendBound + 0.1);
    EXPECT_GT(big.level2.memoryBound, small.level2.memoryBound);
    EXPECT_LT(big.level1.retiring, small.level1.retiring);
}

// The simulated PMU of a Skylake-SP machine counts TMA with the pre-Ice Lake formula (generic counters, level 1
// only) and reports the same level 1 as the slots-based Sapphire Rapids PMU on the same program: both read the
// same simulated cycles.
TEST(SimPmu, TmaOfEachGenerationUsesItsOwnEventsAndAgreesOnLevelOne)
{
    auto breakdown = [](const SimPmuModel& model, Recipe* recipe) {
        SimPmuConfig cfg;
        cfg.capture = SimCapture::Tma;
        cfg.model = model;
        auto sim = SimPmu::create(cfg);
        EXPECT_TRUE(sim) << (sim ? "" : sim.error().toString());
        if (!sim) return TmaBreakdown {};
        *recipe = sim->recipe();
        auto before = parseReadFormat(sim->readGroup(), sim->recipe().events[0].attr.readFormat);
        sim->run(20'000'000);
        auto after = parseReadFormat(sim->readGroup(), sim->recipe().events[0].attr.readFormat);
        EXPECT_TRUE(before && after);
        return tmaFromGroupRead(sim->recipe(), deltaRead(*after, *before));
    };
    Recipe sprRecipe, skxRecipe;
    const auto spr = breakdown({ "spr", "Sapphire Rapids" }, &sprRecipe);
    const auto skx = breakdown({ "skx", "Skylake-SP" }, &skxRecipe);
    ASSERT_TRUE(spr.valid) << spr.note;
    ASSERT_TRUE(skx.valid) << skx.note;
    EXPECT_EQ(sprRecipe.tma, TmaModel::SapphireRapids);
    EXPECT_EQ(skxRecipe.tma, TmaModel::PreIcelake);
    bool usesSlots = false;
    for (const auto& e : skxRecipe.events)
        usesSlots = usesSlots || e.role == EventRole::Slots;
    EXPECT_FALSE(usesSlots) << "Skylake-SP has no topdown slots event";
    EXPECT_TRUE(spr.level2.present);
    EXPECT_TRUE(skx.level2.present) << "Skylake level 2 from the generic counters (SkylakeTmaCounts::level2)";
    bool stallsMemAny = false;
    for (const auto& e : skxRecipe.events)
        stallsMemAny = stallsMemAny || e.role == EventRole::StallsMemAny;
    EXPECT_TRUE(stallsMemAny) << "the Skylake group counts CYCLE_ACTIVITY.STALLS_MEM_ANY";
    EXPECT_NEAR(skx.level1.retiring, spr.level1.retiring, 0.005);
    EXPECT_NEAR(skx.level1.badSpeculation, spr.level1.badSpeculation, 0.005);
    EXPECT_NEAR(skx.level1.frontendBound, spr.level1.frontendBound, 0.005);
    EXPECT_NEAR(skx.level1.backendBound, spr.level1.backendBound, 0.005);
    // Both generations split level 1 from the same simulated stalls, so level 2 agrees too (the SPR model caps
    // memory bound at backend bound, the Skylake formula scales backend bound by the memory share of the stalls).
    EXPECT_NEAR(skx.level2.fetchLatency, spr.level2.fetchLatency, 0.01);
    EXPECT_NEAR(skx.level2.branchMispredicts, spr.level2.branchMispredicts, 0.01);
    EXPECT_NEAR(skx.level2.heavyOperations, spr.level2.heavyOperations, 0.01);
    EXPECT_NEAR(skx.level2.memoryBound + skx.level2.coreBound, skx.level1.backendBound, 1e-9);
    EXPECT_GT(skx.level2.memoryBound, 0.0);
}

TEST(SimPmu, ThePmuGenerationFollowsTheSimulatedCpu)
{
    auto modelOf = [](const std::string& preset) {
        auto cpuid = rdt::sim::presetCpuid(preset);
        EXPECT_TRUE(cpuid) << preset;
        auto table = cpuid->table();
        return simulatedPmuModel(rdt::decodeCpuFeatures(table)).pfmName;
    };
    EXPECT_EQ(modelOf("skx-6154"), "skx");
    EXPECT_EQ(modelOf("bdw-6850k"), "bdw_ep");
    EXPECT_EQ(modelOf("icx-8351n"), "icx");
    EXPECT_EQ(modelOf("hsw-2699v3"), "hsw_ep");
    rdt::CpuFeatures amd;
    amd.identity.vendor = "AuthenticAMD";
    EXPECT_EQ(simulatedPmuModel(amd).pfmName, "spr") << "not Intel: the PMU's own default";
    rdt::CpuFeatures unknownIntel;
    unknownIntel.identity.vendor = "GenuineIntel";
    unknownIntel.identity.family = 6;
    unknownIntel.identity.model = 0xAD; // not in the table: decided by the slots event
    unknownIntel.perfmon.eventVectorLength = 8;
    EXPECT_EQ(simulatedPmuModel(unknownIntel).pfmName, "icx");
    unknownIntel.perfmon.eventsUnavailable = 1u << 7;
    EXPECT_EQ(simulatedPmuModel(unknownIntel).pfmName, "skx");
}

TEST(SimPmu, FullRingDropsAreReportedAsLost)
{
    SimPmuConfig cfg;
    cfg.capture = SimCapture::LbrAny;
    cfg.ringBytes = 64 * 1024; // ~80 samples of 32 entries
    auto sim = SimPmu::create(cfg);
    ASSERT_TRUE(sim);
    Pipeline p;
    sim->addEventsTo(p.decoder);
    sim->run(20'000'000); // ~1000 samples, no draining in between
    ASSERT_GT(sim->truth().samplesDropped, 0u);
    sim->run(50'000); // nothing fits... so drain, then write once more to emit the LOST record
    auto st1 = drain(*sim, p, [](const Sample&) {});
    sim->run(100'000);
    auto st2 = drain(*sim, p, [](const Sample&) {});
    EXPECT_EQ(st1.lostEvents + st2.lostEvents, sim->truth().samplesDropped);
    EXPECT_EQ(p.samples, sim->truth().samplesWritten);
}

#include "sim/SimMachine.h"
#include "simpmu/SimMachineMemory.h"

namespace {
/// The synthetic program's load-latency samples, served by the default simulated Xeon's caches through
/// SimMachineMemory (what `pmu mem --machine` runs), for `ns` of simulated time.
void runOnMachine(std::uint64_t ns, SimTruth& truth, LoadLatencyReport& report)
{
    auto cpuid = rdt::sim::presetCpuid(rdt::sim::defaultPresetId());
    ASSERT_TRUE(cpuid) << cpuid.error().toString();
    auto machine = rdt::sim::SimMachine::create(*cpuid);
    ASSERT_TRUE(machine) << machine.error().toString();
    SimPmuConfig cfg;
    cfg.capture = SimCapture::LoadLatency;
    cfg.loadPeriod = 1;
    auto sim = SimPmu::create(cfg, std::make_unique<SimMachineMemory>(**machine, std::vector<unsigned> { 0, 1 }));
    ASSERT_TRUE(sim) << sim.error().toString();
    Pipeline p;
    sim->addEventsTo(p.decoder);
    sim->registerSymbols(p.symbols);
    LoadLatency agg;
    sim->run(ns);
    drain(*sim, p, [&](const Sample& s) { agg.add(s); });
    truth = sim->truth();
    report = agg.report(p.symbols);
}
} // namespace

TEST(SimPmu, RunsOnTheSimulatedMachinesCacheModel)
{
    SimTruth t;
    LoadLatencyReport r;
    ASSERT_NO_FATAL_FAILURE(runOnMachine(3'000'000, t, r));
    EXPECT_GT(t.loads, 1000u);
    // The 64 MiB probe table misses the simulated L3; the 16 KiB parse buffer stays in L1.
    EXPECT_GT(t.loadsByLevel[static_cast<std::size_t>(MemLevel::LocalDram)]
            + t.loadsByLevel[static_cast<std::size_t>(MemLevel::RemoteDram)],
        0u);
    EXPECT_GT(t.loadsByLevel[static_cast<std::size_t>(MemLevel::L1)], 0u);
    ASSERT_GT(r.total.count, 100u);
    bool probe = false;
    for (const auto& row : r.functions)
        probe = probe || row.key == "probe_table";
    EXPECT_TRUE(probe);
}

// HITM through the machine adapter: a line another core stored is snooped Modified once, then it is Shared; a
// core's own stores never HITM; a line the owner has long since evicted (as many newer stores as its L2 has lines)
// does not HITM either; SMT siblings share L1/L2, so they never snoop each other.
TEST(SimMachineMemory, HitmFollowsTheOwnerOfAModifiedLine)
{
    auto cpuid = rdt::sim::presetCpuid(rdt::sim::defaultPresetId());
    ASSERT_TRUE(cpuid) << cpuid.error().toString();
    rdt::sim::SimOptions o;
    o.topology.threadsPerCore = 2; // CPUs 0,1 are siblings; CPU 2 is another core
    auto machine = rdt::sim::SimMachine::create(*cpuid, o);
    ASSERT_TRUE(machine) << machine.error().toString();
    SimMachineMemory mem(**machine, { 0, 2, 1 });
    EXPECT_EQ(mem.privateLines(), 1024u * 1024 / 64) << "skx-class L2: 1 MiB (CPUID.04H)";
    const std::uint64_t a = 0x10000, b = 0x20000;
    EXPECT_FALSE(mem.access(a, true, 1).hitm);
    auto snooped = mem.access(a, false, 0);
    EXPECT_TRUE(snooped.hitm);
    EXPECT_EQ(snooped.level, MemLevel::L3);
    EXPECT_EQ(snooped.latency,
        static_cast<std::uint32_t>((*machine)->options().timing.l3Cycles) + SimMachineMemory::kSnoopCycles);
    EXPECT_FALSE(mem.access(a, false, 0).hitm) << "written back by the snoop: now Shared";
    EXPECT_FALSE(mem.access(a, false, 1).hitm);
    mem.access(b, true, 0);
    EXPECT_FALSE(mem.access(b, false, 0).hitm) << "own store";
    EXPECT_FALSE(mem.access(b, false, 2).hitm) << "SMT sibling of core 0 shares its L1/L2";
    EXPECT_TRUE(mem.access(b, false, 1).hitm);
    mem.access(a, true, 1);
    for (std::uint64_t i = 1; i <= mem.privateLines(); ++i)
        mem.access(0x4000'0000 + i * 64, true, 1);
    EXPECT_FALSE(mem.access(a, false, 0).hitm) << "evicted from core 1's private caches long ago";
}

TEST(SimPmu, MachineModelReportsHitmForTheSharedCounters)
{
    SimTruth t;
    LoadLatencyReport r;
    ASSERT_NO_FATAL_FAILURE(runOnMachine(5'000'000, t, r));
    const LatencyRow* counters = nullptr;
    for (const auto& row : r.functions)
        if (row.key == "update_counters") counters = &row;
    ASSERT_NE(counters, nullptr);
    EXPECT_GT(counters->stats.hitm, 0u) << "the other core writes those counters";
    EXPECT_LE(counters->stats.hitm, counters->stats.count);
    for (const auto& row : r.functions) {
        if (row.key != "probe_table") continue;
        EXPECT_EQ(row.stats.hitm, 0u) << "nobody writes the probe table";
    }
}
