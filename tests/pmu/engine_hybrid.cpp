// SPDX-License-Identifier: GPL-3.0-or-later
// Hybrid Intel parts (Alder Lake / Raptor Lake): one recipe per core PMU, cpu_core with the P-core events and
// cpu_atom with the Gracemont ones, each opened with its PMU's type and, per CPU, only on its CPUs; TMA per PMU;
// samples of both PMUs reaching the same aggregators. Through a fake PerfSyscalls with a fake hybrid environment:
// cpu_core type 4 (the kernel registers the big-core PMU as PERF_TYPE_RAW: arch/x86/events/core.c
// init_hw_perf_events, `(hybrid_pmu->cpu_type == hybrid_big) ? PERF_TYPE_RAW : -1`) and cpu_atom type 7 (dynamic;
// 7 is what the quipper perf.data.hybrid_topology fixture of an i7-1365U shows: generic cycles with config
// 0x400000000 and 0x700000000, docs/PMU.md "Hybrid parts").
#include "FakeRingPerf.h"
#include "HybridEnv.h"
#include "pmu/CorePmus.h"
#include "pmu/LoadLatency.h"
#include "pmu/PerfSession.h"
#include "pmu/Recipes.h"
#include "simpmu/RecordWriter.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <linux/perf_event.h>
#include <map>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace rdt::pmu;
using rdt::Result;
using rdt::Status;
using rdt::UniqueFd;

using rdt::pmu::test::FakeRingPerf;
using rdt::pmu::test::hybridEnv;
using rdt::pmu::test::kAtomType;
using rdt::pmu::test::kCoreType;

namespace {

const CorePmuPart& partNamed(const std::vector<CorePmuPart>& parts, const std::string& name)
{
    for (const auto& p : parts)
        if (p.pmuName == name) return p;
    throw std::runtime_error("no part " + name);
}

const Recipe& recipeFor(const PartRecipes& r, const std::string& pmu)
{
    for (const auto& x : r.recipes)
        if (x.pmuName == pmu) return x;
    throw std::runtime_error("no recipe for " + pmu);
}

std::vector<std::uint64_t> configs(const Recipe& r)
{
    std::vector<std::uint64_t> out;
    for (const auto& e : r.events)
        out.push_back(e.attr.config);
    return out;
}

} // namespace

TEST(Hybrid, SysfsPmuDirectoriesGiveTypesAndCpus)
{
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / ("rdtscope-hybrid-" + std::to_string(::getpid()));
    fs::create_directories(root / "cpu_core");
    fs::create_directories(root / "cpu_atom");
    std::ofstream(root / "cpu_core" / "type") << "4\n";
    std::ofstream(root / "cpu_core" / "cpus") << "0-11\n";
    std::ofstream(root / "cpu_atom" / "type") << "10\n";
    std::ofstream(root / "cpu_atom" / "cpus") << "12-19\n";
    PerfEnvironment env;
    readHybridPmus(root.string(), env);
    EXPECT_TRUE(env.hasCpuCorePmu);
    EXPECT_TRUE(env.hasCpuAtomPmu);
    EXPECT_EQ(env.cpuCoreType, 4u);
    EXPECT_EQ(env.cpuAtomType, 10u);
    EXPECT_EQ(env.cpuCoreCpus.size(), 12u);
    EXPECT_EQ(env.cpuAtomCpus, (std::vector<int> { 12, 13, 14, 15, 16, 17, 18, 19 }));
    fs::remove_all(root / "cpu_atom");
    PerfEnvironment coreOnly;
    readHybridPmus(root.string(), coreOnly);
    EXPECT_TRUE(coreOnly.hasCpuCorePmu);
    EXPECT_FALSE(coreOnly.hasCpuAtomPmu);
    EXPECT_TRUE(coreOnly.cpuAtomCpus.empty());
    fs::remove_all(root);
}

TEST(Hybrid, TwoPartsWithEachPmusTypeAndCpus)
{
    const PerfEnvironment env = hybridEnv();
    ASSERT_EQ(env.hybridPmus().size(), 2u);
    EXPECT_EQ(env.hybridPmus()[0].name, "cpu_core");
    const auto parts = hybridParts(env);
    ASSERT_EQ(parts.size(), 2u);
    const auto& core = partNamed(parts, "cpu_core");
    const auto& atom = partNamed(parts, "cpu_atom");
    EXPECT_EQ(core.label, "P-cores (cpu_core)");
    EXPECT_EQ(atom.label, "E-cores (cpu_atom)");
    EXPECT_EQ(core.encoder.model().rawType, kCoreType);
    EXPECT_EQ(atom.encoder.model().rawType, kAtomType);
    EXPECT_EQ(core.encoder.model().tma, TmaModel::SapphireRapids) << "ADL P-core: 8 topdown events";
    EXPECT_TRUE(core.encoder.model().memLoadsAux);
    EXPECT_FALSE(core.encoder.model().atom);
    EXPECT_TRUE(atom.encoder.model().atom);
    EXPECT_EQ(atom.encoder.model().tma, TmaModel::Gracemont);
    EXPECT_FALSE(atom.encoder.model().memLoadsAux) << "mem-loads-aux is hybrid_big only";
    EXPECT_EQ(atom.cpus, std::vector<int> { 1 });
    EXPECT_EQ(describeParts(parts).find("cpu_core (type 4, CPUs 0"), 0u) << describeParts(parts);
    EXPECT_NE(describeParts(parts).find("cpu_atom (type 7, CPUs 1"), std::string::npos);
    PerfEnvironment single;
    single.hasCpuPmu = true;
    EXPECT_TRUE(single.hybridPmus().empty());
    EXPECT_TRUE(hybridParts(single).empty());
}

// Each value below is the cpu_atom entry of linux tools/perf/pmu-events/arch/x86/alderlake/pipeline.json
// (EventCode, UMask absent = 0) or the kernel's mem_ld_adl alias (event=0xd0,umask=0x5).
TEST(Hybrid, GracemontEncodingsFromPerfJsonAndKernel)
{
    const auto parts = hybridParts(hybridEnv());
    const EventEncoder& atom = partNamed(parts, "cpu_atom").encoder;
    const std::pair<const char*, std::uint64_t> expected[] = {
        { "TOPDOWN_RETIRING.ALL", 0xc2 },
        { "TOPDOWN_BAD_SPECULATION.ALL", 0x73 },
        { "TOPDOWN_FE_BOUND.ALL", 0x71 },
        { "TOPDOWN_BE_BOUND.ALL", 0x74 },
        { "CPU_CLK_UNHALTED.CORE_P", 0x3c },
        { "MEM_UOPS_RETIRED.LOAD_LATENCY", 0x5d0 },
    };
    for (const auto& [name, config] : expected) {
        auto e = atom.encode(name);
        ASSERT_TRUE(e) << name << ": " << e.error().toString();
        EXPECT_EQ(e->attr.config, config) << name;
        EXPECT_EQ(e->attr.type, kAtomType) << name;
        EXPECT_TRUE(e->attr.excludeKernel());
    }
    EXPECT_FALSE(atom.encode("slots")) << "P-core metric events do not exist on the E-core PMU";
    EXPECT_FALSE(atom.encode("mem-loads-aux"));
    const EventEncoder& core = partNamed(parts, "cpu_core").encoder;
    auto wrong = core.encode("TOPDOWN_RETIRING.ALL");
    ASSERT_FALSE(wrong);
    EXPECT_NE(wrong.error().message.find("E-core"), std::string::npos);
    auto slots = core.encode("slots");
    ASSERT_TRUE(slots);
    EXPECT_EQ(slots->attr.type, kCoreType);
    EXPECT_EQ(slots->attr.config, 0x400u);
}

TEST(Hybrid, RecipesPerPmuWithOwnTypes)
{
    const auto parts = hybridParts(hybridEnv());
    RecipeOptions opt;
    auto tma = recipesForParts(parts, RecipeKind::Tma, opt);
    ASSERT_TRUE(tma) << tma.error().toString();
    ASSERT_EQ(tma->recipes.size(), 2u);
    EXPECT_TRUE(tma->notes.empty());
    const Recipe& pt = recipeFor(*tma, "cpu_core");
    const Recipe& et = recipeFor(*tma, "cpu_atom");
    EXPECT_EQ(pt.pmuLabel, "P-cores (cpu_core)");
    EXPECT_EQ(et.pmuLabel, "E-cores (cpu_atom)");
    EXPECT_EQ(configs(pt),
        (std::vector<std::uint64_t> { 0x400, 0x8000, 0x8100, 0x8200, 0x8300, 0x8400, 0x8500, 0x8600, 0x8700 }));
    EXPECT_EQ(configs(et), (std::vector<std::uint64_t> { 0x3c, 0xc2, 0x71, 0x74 }));
    EXPECT_EQ(et.tma, TmaModel::Gracemont);
    EXPECT_EQ(et.slotsPerCycle, 5u);
    for (const auto& e : pt.events)
        EXPECT_EQ(e.attr.type, kCoreType);
    for (const auto& e : et.events) {
        EXPECT_EQ(e.attr.type, kAtomType);
        EXPECT_EQ(e.attr.samplePeriod, 0u);
        EXPECT_TRUE(e.attr.readFormat & perf::ReadGroup);
    }

    auto lbr = recipesForParts(parts, RecipeKind::LbrAny, opt);
    ASSERT_TRUE(lbr);
    ASSERT_EQ(lbr->recipes.size(), 2u);
    // Generic cycles carry the PMU type in config bits 32-63, cpu_core's type 4 too [uapi PERF_PMU_TYPE_SHIFT].
    EXPECT_EQ(recipeFor(*lbr, "cpu_core").events[0].attr.type, TypeHardware);
    EXPECT_EQ(recipeFor(*lbr, "cpu_core").events[0].attr.config, 0x400000000u);
    EXPECT_EQ(recipeFor(*lbr, "cpu_atom").events[0].attr.config, 0x700000000u);

    opt.ldlat = 64;
    auto mem = recipesForParts(parts, RecipeKind::LoadLatency, opt);
    ASSERT_TRUE(mem);
    const Recipe& pm = recipeFor(*mem, "cpu_core");
    const Recipe& em = recipeFor(*mem, "cpu_atom");
    EXPECT_EQ(configs(pm), (std::vector<std::uint64_t> { 0x8203, 0x1cd })) << "P-core: mem-loads-aux leader";
    ASSERT_EQ(em.events.size(), 1u) << "E-core: no auxiliary leader";
    EXPECT_EQ(em.events[0].attr.config, 0x5d0u);
    EXPECT_EQ(em.events[0].attr.config1, 64u) << "ldlat in config1 bits 0-15";
    EXPECT_EQ(em.events[0].attr.type, kAtomType);
    EXPECT_EQ(em.events[0].attr.preciseIp(), 2u);
    EXPECT_EQ(em.events[0].minPreciseIp, 1u);
    EXPECT_TRUE(em.events[0].attr.sampleType & perf::SampleDataSrc);
    EXPECT_EQ(em.events[0].name, "MEM_UOPS_RETIRED:LOAD_LATENCY:ldlat=64:precise=2");
}

TEST(Hybrid, UnverifiedECoreModelLeavesTmaOutWithReason)
{
    const auto parts = hybridParts(hybridEnv(0xC6)); // ARROWLAKE: Skymont E-cores, not verified here
    auto tma = recipesForParts(parts, RecipeKind::Tma, {});
    ASSERT_TRUE(tma);
    ASSERT_EQ(tma->recipes.size(), 1u);
    EXPECT_EQ(tma->recipes[0].pmuName, "cpu_core");
    ASSERT_EQ(tma->notes.size(), 1u);
    EXPECT_NE(tma->notes[0].find("E-cores (cpu_atom) left out: TMA is not available on E-cores"), std::string::npos)
        << tma->notes[0];
    EXPECT_NE(tma->notes[0].find("model 198"), std::string::npos) << tma->notes[0];
    auto mem = recipesForParts(parts, RecipeKind::LoadLatency, {});
    ASSERT_TRUE(mem);
    EXPECT_EQ(mem->recipes.size(), 2u) << "load latency and LBR need no model-specific E-core event list";
}

TEST(Hybrid, GracemontTmaFromHandComputedCounts)
{
    const auto parts = hybridParts(hybridEnv());
    auto tma = recipesForParts(parts, RecipeKind::Tma, {});
    ASSERT_TRUE(tma);
    const Recipe& et = recipeFor(*tma, "cpu_atom");
    // Recipe order: CPU_CLK_UNHALTED.CORE_P, TOPDOWN_RETIRING.ALL, TOPDOWN_FE_BOUND.ALL, TOPDOWN_BE_BOUND.ALL.
    // slots = 5 * 1000 = 5000: retiring 2000/5000, fe 1000/5000, be 1500/5000, bad = (5000 - 4500)/5000.
    ReadData d;
    d.timeEnabled = d.timeRunning = 1'000'000;
    for (std::uint64_t v : { 1000u, 2000u, 1000u, 1500u })
        d.values.push_back(ReadValue { v, 0, 0 });
    const TmaBreakdown b = tmaFromGroupRead(et, d);
    ASSERT_TRUE(b.valid) << b.note;
    EXPECT_DOUBLE_EQ(b.slots, 5000.0);
    EXPECT_DOUBLE_EQ(b.level1.retiring, 0.4);
    EXPECT_DOUBLE_EQ(b.level1.frontendBound, 0.2);
    EXPECT_DOUBLE_EQ(b.level1.backendBound, 0.3);
    EXPECT_NEAR(b.level1.badSpeculation, 0.1, 1e-12);
    EXPECT_FALSE(b.level2.present);
    // Running half the enabled time is the task being on P-cores the other half, not multiplexing: the slots are
    // not extrapolated (a single-PMU recipe would double them).
    d.timeEnabled = 2'000'000;
    EXPECT_DOUBLE_EQ(tmaFromGroupRead(et, d).slots, 5000.0);
    EXPECT_DOUBLE_EQ(tmaFromGroupRead(et, d).level1.retiring, 0.4);
    Recipe single = et;
    single.pmuName.clear();
    EXPECT_DOUBLE_EQ(tmaFromGroupRead(single, d).slots, 10000.0);
    d.timeRunning = 0;
    const TmaBreakdown idle = tmaFromGroupRead(et, d);
    EXPECT_FALSE(idle.valid);
    EXPECT_NE(idle.note.find("E-cores (cpu_atom) group did not run"), std::string::npos) << idle.note;
    // The same counts in the P-core recipe mean something else entirely: per-PMU breakdowns stay separate.
    const TmaBreakdown none = tmaFromAtom({ 0, 0, 0, 0, 5 });
    EXPECT_FALSE(none.valid);
    EXPECT_NE(none.note.find("E-core"), std::string::npos);
    const TmaBreakdown over = tmaFromAtom({ 3000, 2000, 1000, 1000, 5 }); // 6000 > 5000 slots
    EXPECT_TRUE(over.valid);
    EXPECT_DOUBLE_EQ(over.level1.badSpeculation, 0.0);
    EXPECT_NE(over.note.find("clamped"), std::string::npos);
}

TEST(Hybrid, SystemWideOpensEachPmuOnlyOnItsCpus)
{
    if (::sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs two online CPUs (one per fake PMU)";
    FakeRingPerf sys;
    auto lbr = recipesForParts(hybridParts(hybridEnv()), RecipeKind::LbrAny, {});
    ASSERT_TRUE(lbr);
    PerfTarget target;
    target.systemWide = true;
    auto sessions = openSessions(sys, lbr->recipes, target, 8);
    ASSERT_TRUE(sessions) << sessions.error().toString();
    ASSERT_EQ(sessions->size(), 2u);
    ASSERT_EQ(sys.opens.size(), 2u) << "one cycles event per PMU, each on its one CPU";
    for (const auto& o : sys.opens) {
        EXPECT_EQ(o.pid, -1);
        const std::uint64_t type = o.attr.config >> 32;
        EXPECT_EQ(o.cpu, type == kCoreType ? 0 : 1) << "type " << type;
        EXPECT_TRUE(type == kCoreType || type == kAtomType);
    }
    EXPECT_NE(sys.opens[0].attr.config >> 32, sys.opens[1].attr.config >> 32);

    // Counting TMA per task: cpu -1 for both PMUs (the kernel counts each only while the task is on its CPUs).
    FakeRingPerf sys2;
    auto tma = recipesForParts(hybridParts(hybridEnv()), RecipeKind::Tma, {});
    ASSERT_TRUE(tma);
    PerfTarget self;
    self.pids = { ::getpid() };
    auto counting = openSessions(sys2, tma->recipes, self, 8);
    ASSERT_TRUE(counting) << counting.error().toString();
    std::size_t coreOpens = 0, atomOpens = 0;
    for (const auto& o : sys2.opens) {
        EXPECT_EQ(o.cpu, -1);
        (o.attr.type == kCoreType ? coreOpens : atomOpens)++;
    }
    EXPECT_EQ(coreOpens % 9, 0u);
    EXPECT_EQ(atomOpens % 4, 0u);
    EXPECT_GT(atomOpens, 0u);
    EXPECT_EQ(coreOpens / 9, atomOpens / 4) << "every thread gets both PMUs' groups";
}

TEST(Hybrid, LoadSamplesFromBothPmusReachOneAggregator)
{
    if (::sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs two online CPUs (one per fake PMU)";
    FakeRingPerf sys;
    auto mem = recipesForParts(hybridParts(hybridEnv()), RecipeKind::LoadLatency, {});
    ASSERT_TRUE(mem);
    PerfTarget target;
    target.systemWide = true;
    auto sessions = openSessions(sys, mem->recipes, target, 8);
    ASSERT_TRUE(sessions) << sessions.error().toString();
    ASSERT_EQ(sys.rings.size(), 2u) << "one ring per group leader, one group per PMU";
    // Write what each PMU's sampling event would: P-core samples carry the sampler's id (IDENTIFIER, grouped with
    // mem-loads-aux), E-core samples come from the lone MEM_UOPS_RETIRED.LOAD_LATENCY event.
    auto writeSamples = [&](std::uint64_t config, int count, std::uint32_t latency) {
        const FakeRingPerf::Open* sampler = nullptr;
        const FakeRingPerf::Open* leader = nullptr;
        for (const auto& o : sys.opens)
            if (o.attr.config == config) sampler = &o;
        ASSERT_NE(sampler, nullptr);
        leader = sampler;
        for (const auto& o : sys.opens)
            if (o.fd == sampler->group) leader = &o;
        std::vector<std::byte> bytes;
        for (int i = 0; i < count; ++i) {
            Sample s;
            s.identifier = s.id = sampler->id;
            s.ip = 0x401000 + static_cast<std::uint64_t>(i);
            s.pid = s.tid = 42;
            s.addr = 0x7f0000001000;
            s.cpu = static_cast<std::uint32_t>(sampler->cpu);
            s.period = 1000;
            s.weight.var1 = latency;
            s.weight.full = latency;
            s.dataSrc = 0x10268100142; // L1 hit (docs/PMU.md "PEBS load latency", worked example)
            ASSERT_TRUE(RecordWriter::sample(sampler->attr, s, bytes));
        }
        sys.writeRing(leader->fd, bytes);
    };
    writeSamples(0x1cd, 3, 40);
    writeSamples(0x5d0, 2, 90);
    LoadLatency agg;
    std::uint64_t fromCore = 0, fromAtom = 0;
    for (auto& s : *sessions)
        s->drain([&](const DecodedRecord& r) {
            if (r.kind != RecordKind::Sample) return;
            agg.add(r.sample);
            (r.sample.cpu == 0 ? fromCore : fromAtom)++;
        });
    EXPECT_EQ(fromCore, 3u);
    EXPECT_EQ(fromAtom, 2u);
    EXPECT_EQ(agg.samples(), 5u);
    for (auto& s : *sessions)
        EXPECT_EQ(s->decodeErrors(), 0u);
}

// Meteor Lake: Crestmont E-cores, from perf's meteorlake pipeline.json (cpu_atom TOPDOWN_*.ALL_P: 0x72, 0x73, 0x71,
// 0x74) and mtl-metrics.json (each over 6 * CPU_CLK_UNHALTED.CORE); the P-core PMU has no mem-loads-aux there.
TEST(Hybrid, MeteorLakeCrestmontEventsAndTma)
{
    const auto parts = hybridParts(hybridEnv(0xAC)); // METEORLAKE
    const auto& atom = partNamed(parts, "cpu_atom");
    EXPECT_EQ(atom.encoder.model().tma, TmaModel::Crestmont);
    EXPECT_FALSE(partNamed(parts, "cpu_core").encoder.model().memLoadsAux);
    auto retiring = atom.encoder.encode("TOPDOWN_RETIRING.ALL_P");
    ASSERT_TRUE(retiring);
    EXPECT_EQ(retiring->attr.config, 0x72u) << "not Gracemont's 0xc2";
    EXPECT_FALSE(atom.encoder.encode("TOPDOWN_RETIRING.ALL")) << "Gracemont's code must not be used on Crestmont";
    EXPECT_FALSE(partNamed(hybridParts(hybridEnv()), "cpu_atom").encoder.encode("TOPDOWN_RETIRING.ALL_P"));

    auto tma = recipesForParts(parts, RecipeKind::Tma, {});
    ASSERT_TRUE(tma);
    ASSERT_EQ(tma->recipes.size(), 2u);
    const Recipe& et = recipeFor(*tma, "cpu_atom");
    EXPECT_EQ(configs(et), (std::vector<std::uint64_t> { 0x3c, 0x72, 0x73, 0x71, 0x74 }));
    EXPECT_EQ(et.slotsPerCycle, 6u);
    // slots = 6 * 1000: retiring 2400, bad speculation 600 (measured), fe 1200, be 1800.
    ReadData d;
    d.timeEnabled = d.timeRunning = 1000;
    for (std::uint64_t v : { 1000u, 2400u, 600u, 1200u, 1800u })
        d.values.push_back(ReadValue { v, 0, 0 });
    const TmaBreakdown b = tmaFromGroupRead(et, d);
    ASSERT_TRUE(b.valid) << b.note;
    EXPECT_DOUBLE_EQ(b.slots, 6000.0);
    EXPECT_DOUBLE_EQ(b.level1.retiring, 0.4);
    EXPECT_DOUBLE_EQ(b.level1.badSpeculation, 0.1);
    EXPECT_DOUBLE_EQ(b.level1.frontendBound, 0.2);
    EXPECT_DOUBLE_EQ(b.level1.backendBound, 0.3);
    d.values[2].value = 0; // measured, not the remainder: a zero count gives zero
    EXPECT_DOUBLE_EQ(tmaFromGroupRead(et, d).level1.badSpeculation, 0.0);

    auto mem = recipesForParts(parts, RecipeKind::LoadLatency, {});
    ASSERT_TRUE(mem);
    EXPECT_EQ(configs(recipeFor(*mem, "cpu_core")), std::vector<std::uint64_t> { 0x1cd });
    EXPECT_EQ(configs(recipeFor(*mem, "cpu_atom")), std::vector<std::uint64_t> { 0x5d0 });
}
