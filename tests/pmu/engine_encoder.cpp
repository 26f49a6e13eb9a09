// SPDX-License-Identifier: GPL-3.0-or-later
// libpfm4 4.13 encodings under LIBPFM_FORCE_PMU against the values in docs/PMU.md "Verified encodings" and the
// kernel's own tables, plus our own table where 4.13 lacks or mis-encodes events.
#include "EngineChild.h"
#include "core/Text.h"
#include "pmu/EventEncoder.h"
#include "pmu/PerfSyscalls.h"
#include "pmu/PmuCpuid.h"
#include "pmu/Recipes.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

using namespace rdt::pmu;
using rdt::pmu::test::runInChild;

namespace {

struct Encoded {
    bool ok = false;
    std::uint32_t type = 0;
    std::uint64_t config = 0, config1 = 0;
    unsigned precise = 0;
    bool own = false;
    std::string error;
};

// Encodes `events` in a child with LIBPFM_FORCE_PMU=pmu; returns model name + one result per event.
std::pair<std::string, std::map<std::string, Encoded>> encodeAll(
    const char* pmu, const std::vector<std::string>& events)
{
    const std::string text = runInChild(pmu, [&] {
        std::ostringstream out;
        auto enc = EventEncoder::create();
        if (!enc) return std::string("MODEL ERROR\n");
        out << "MODEL " << enc->model().pfmName << ' ' << static_cast<int>(enc->model().tma) << '\n';
        for (const auto& e : events) {
            auto r = enc->encode(e, true, true);
            if (r)
                out << "EV " << e << ' ' << r->attr.type << ' ' << r->attr.config << ' ' << r->attr.config1 << ' '
                    << r->attr.preciseIp() << ' ' << r->ownTable << '\n';
            else
                out << "ERR " << e << ' ' << r.error().message << '\n';
        }
        return out.str();
    });
    std::pair<std::string, std::map<std::string, Encoded>> res;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream l(line);
        std::string tag, name;
        l >> tag;
        if (tag == "MODEL") {
            l >> res.first;
            continue;
        }
        l >> name;
        Encoded e;
        if (tag == "EV") {
            e.ok = true;
            l >> e.type >> e.config >> e.config1 >> e.precise >> e.own;
        } else {
            std::getline(l, e.error);
        }
        res.second[name] = e;
    }
    return res;
}

void expectRaw(
    const std::map<std::string, Encoded>& m, const std::string& name, std::uint64_t config, std::uint64_t config1 = 0)
{
    auto it = m.find(name);
    ASSERT_NE(it, m.end()) << name;
    ASSERT_TRUE(it->second.ok) << name << ": " << it->second.error;
    EXPECT_EQ(it->second.type, 4u) << name;
    EXPECT_EQ(rdt::hexDigits(it->second.config), rdt::hexDigits(config)) << name;
    EXPECT_EQ(rdt::hexDigits(it->second.config1), rdt::hexDigits(config1)) << name;
}

void expectFails(const std::map<std::string, Encoded>& m, const std::string& name)
{
    auto it = m.find(name);
    ASSERT_NE(it, m.end()) << name;
    EXPECT_FALSE(it->second.ok) << name << " encoded as 0x" << rdt::hexDigits(it->second.config);
}

const std::vector<std::string> kEvents = { "UOPS_ISSUED:ANY", "UOPS_ISSUED.ANY", "UOPS_RETIRED:RETIRE_SLOTS",
    "IDQ_UOPS_NOT_DELIVERED:CORE", "INT_MISC:RECOVERY_CYCLES", "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30:precise=2",
    "MEM_INST_RETIRED:ALL_LOADS", "BR_INST_RETIRED:NEAR_TAKEN", "TOPDOWN:SLOTS", "slots", "topdown-retiring",
    "topdown-be-bound", "topdown-heavy-ops", "topdown-mem-bound", "TOPDOWN.BACKEND_BOUND_SLOTS",
    "TOPDOWN:BR_MISPREDICT_SLOTS", "mem-loads-aux", "NO_SUCH_EVENT:FOO" };

} // namespace

TEST(EventEncoder, SkylakeXUsesLibpfmAndRejectsMetricEvents)
{
    auto [model, m] = encodeAll("skx", kEvents);
    EXPECT_EQ(model, "skx");
    expectRaw(m, "UOPS_ISSUED:ANY", 0x10e);
    expectRaw(m, "UOPS_ISSUED.ANY", 0x10e); // Intel's dotted spelling
    expectRaw(m, "UOPS_RETIRED:RETIRE_SLOTS", 0x2c2);
    expectRaw(m, "IDQ_UOPS_NOT_DELIVERED:CORE", 0x19c);
    expectRaw(m, "INT_MISC:RECOVERY_CYCLES", 0x10d);
    expectRaw(m, "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30:precise=2", 0x1cd, 0x1e);
    EXPECT_EQ(m["MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30:precise=2"].precise, 2u);
    expectRaw(m, "MEM_INST_RETIRED:ALL_LOADS", 0x81d0);
    expectRaw(m, "BR_INST_RETIRED:NEAR_TAKEN", 0x20c4);
    expectFails(m, "TOPDOWN:SLOTS"); // no slots before Ice Lake
    expectFails(m, "topdown-retiring");
    expectFails(m, "TOPDOWN.BACKEND_BOUND_SLOTS");
    expectFails(m, "mem-loads-aux");
    expectFails(m, "NO_SUCH_EVENT:FOO");
}

TEST(EventEncoder, IcelakeXMetricEventsFromOwnTable)
{
    auto [model, m] = encodeAll("icx", kEvents);
    EXPECT_EQ(model, "icx");
    expectRaw(m, "TOPDOWN:SLOTS", 0x0400);
    expectRaw(m, "slots", 0x0400);
    expectRaw(m, "topdown-retiring", 0x8000);
    expectRaw(m, "topdown-be-bound", 0x8300);
    EXPECT_TRUE(m["topdown-retiring"].own);
    expectFails(m, "topdown-heavy-ops"); // num_topdown_events = 4 on ICL
    expectFails(m, "topdown-mem-bound");
    // libpfm 4.13 says 0x200 / 0x800; perf's pipeline.json says event 0xa4 umask 0x2 / 0x8.
    expectRaw(m, "TOPDOWN.BACKEND_BOUND_SLOTS", 0x02a4);
    expectRaw(m, "TOPDOWN:BR_MISPREDICT_SLOTS", 0x08a4);
    expectRaw(m, "UOPS_ISSUED:ANY", 0x10e);
    expectRaw(m, "INT_MISC:RECOVERY_CYCLES", 0x10d);
    expectFails(m, "UOPS_RETIRED:RETIRE_SLOTS"); // gone on ICL ("invalid event attribute")
    expectRaw(m, "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30:precise=2", 0x1cd, 0x1e);
    expectFails(m, "mem-loads-aux"); // ICX has no aux requirement
}

TEST(EventEncoder, SapphireRapidsLevelTwoAndAuxLeader)
{
    auto [model, m] = encodeAll("spr", kEvents);
    EXPECT_EQ(model, "spr");
    expectRaw(m, "slots", 0x0400);
    expectRaw(m, "topdown-heavy-ops", 0x8400);
    expectRaw(m, "topdown-mem-bound", 0x8700);
    expectRaw(m, "mem-loads-aux", 0x8203);
    // The qualified spr:: lookup finds SPR's own codes, not skx's (LIBPFM_ENCODE_INACTIVE keeps other models on).
    expectRaw(m, "UOPS_ISSUED:ANY", 0x1ae);
    expectRaw(m, "INT_MISC:RECOVERY_CYCLES", 0x1ad);
    expectRaw(m, "TOPDOWN.BACKEND_BOUND_SLOTS", 0x02a4);
    expectRaw(m, "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30:precise=2", 0x1cd, 0x1e);
}

TEST(EventEncoder, ModelClassification)
{
    EXPECT_EQ(modelForPfmName("skl").tma, TmaModel::PreIcelake);
    EXPECT_EQ(modelForPfmName("clx").tma, TmaModel::PreIcelake);
    EXPECT_EQ(modelForPfmName("icl").tma, TmaModel::Icelake);
    EXPECT_EQ(modelForPfmName("spr").tma, TmaModel::SapphireRapids);
    EXPECT_TRUE(modelForPfmName("spr").memLoadsAux);
    EXPECT_FALSE(modelForPfmName("icx").memLoadsAux);
    EXPECT_TRUE(modelForPfmName("adl_glc").memLoadsAux);
    auto amd = modelForPfmName("amd64_fam19h_zen3");
    EXPECT_EQ(amd.tma, TmaModel::None);
    EXPECT_FALSE(amd.lbr);
}

TEST(EventEncoder, HybridRawTypeFromSysfs)
{
    PmuModel m = modelForPfmName("adl_glc");
    m.rawType = 8; // /sys/bus/event_source/devices/cpu_core/type on a hybrid part
    auto enc = EventEncoder::forModel(m);
    auto slots = enc.encode("slots");
    ASSERT_TRUE(slots) << slots.error().toString();
    EXPECT_EQ(slots->attr.type, 8u);
    EXPECT_EQ(slots->attr.config, 0x400u);
    EXPECT_TRUE(slots->attr.excludeKernel());
    EXPECT_FALSE(slots->attr.excludeUser());
}

TEST(Recipes, SapphireRapidsTmaGroupAndLoadLatency)
{
    const std::string text = runInChild("spr", [] {
        std::ostringstream out;
        auto enc = EventEncoder::create();
        auto tma = tmaRecipe(*enc);
        if (!tma) return "TMAERR " + tma.error().message;
        out << "TMA " << tma->events.size();
        for (const auto& e : tma->events)
            out << ' ' << e.attr.config << ':' << e.attr.samplePeriod << ':' << e.attr.readFormat << ':'
                << e.attr.disabled();
        auto ll = loadLatencyRecipe(*enc);
        if (!ll) return "LLERR " + ll.error().message;
        out << "\nLL " << ll->events.size() << ' ' << ll->events[0].attr.config << ' ' << ll->events[1].attr.config
            << ' ' << ll->events[1].attr.config1 << ' ' << ll->events[1].attr.preciseIp() << ' '
            << ll->events[1].attr.sampleType << ' ' << ll->events[0].attr.samplePeriod << ' '
            << ll->events[1].attr.samplePeriod;
        auto cs = lbrRecipe(*enc, LbrMode::CallStack);
        out << "\nCS " << cs->events[0].attr.branchSampleType << ' ' << cs->events[0].attr.sampleType;
        auto any = lbrRecipe(*enc, LbrMode::AnyBranch);
        out << "\nANY " << any->events[0].attr.branchSampleType << '\n';
        return out.str();
    });
    std::istringstream in(text);
    std::string tag;
    in >> tag;
    ASSERT_EQ(tag, "TMA") << text;
    std::size_t n = 0;
    in >> n;
    ASSERT_EQ(n, 9u); // slots + 4 level-1 + 4 level-2 metrics
    const std::uint64_t want[] = { 0x400, 0x8000, 0x8100, 0x8200, 0x8300, 0x8400, 0x8500, 0x8600, 0x8700 };
    for (std::size_t i = 0; i < n; ++i) {
        std::string field;
        in >> field;
        std::istringstream f(field);
        std::uint64_t config, period, fmt;
        int disabled;
        char c;
        f >> config >> c >> period >> c >> fmt >> c >> disabled;
        EXPECT_EQ(config, want[i]);
        EXPECT_EQ(period, 0u) << "metric events and their slots leader never sample";
        EXPECT_EQ(fmt, 0xfu) << "GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID";
        EXPECT_EQ(disabled, i == 0 ? 1 : 0) << "only the leader starts disabled";
    }
    std::uint64_t llN, aux, ev, c1, prec, st, auxPeriod, period;
    in >> tag >> llN >> aux >> ev >> c1 >> prec >> st >> auxPeriod >> period;
    ASSERT_EQ(tag, "LL");
    EXPECT_EQ(llN, 2u);
    EXPECT_EQ(aux, 0x8203u);
    EXPECT_EQ(ev, 0x1cdu);
    EXPECT_EQ(c1, 30u);
    EXPECT_EQ(prec, 2u);
    // IP|TID|TIME|ADDR|CPU|PERIOD|DATA_SRC|WEIGHT_STRUCT|IDENTIFIER
    EXPECT_EQ(st, 0x1u | 0x2u | 0x4u | 0x8u | 0x80u | 0x100u | 0x8000u | 0x1000000u | 0x10000u);
    EXPECT_EQ(auxPeriod, 0u);
    EXPECT_EQ(period, 1000u);
    std::uint64_t bst, cst;
    in >> tag >> bst >> cst;
    ASSERT_EQ(tag, "CS");
    EXPECT_EQ(bst, 0x1u | 0x800u | 0x4000u | 0x8000u | 0x20000u); // USER|CALL_STACK|NO_FLAGS|NO_CYCLES|HW_INDEX
    EXPECT_NE(cst & 0x800u, 0u); // BRANCH_STACK
    EXPECT_NE(cst & 0x20u, 0u); // CALLCHAIN
    in >> tag >> bst;
    ASSERT_EQ(tag, "ANY");
    EXPECT_EQ(bst, 0x1u | 0x8u | 0x10000u); // USER|ANY|TYPE_SAVE
}

TEST(Recipes, SkylakeTmaUsesGenericEvents)
{
    const std::string text = runInChild("skx", [] {
        std::ostringstream out;
        auto enc = EventEncoder::create();
        auto tma = tmaRecipe(*enc);
        if (!tma) return "ERR " + tma.error().message;
        for (const auto& e : tma->events)
            out << e.attr.type << ':' << e.attr.config << ' ';
        return out.str();
    });
    EXPECT_EQ(text, "0:0 4:270 4:706 4:412 4:269 "); // cycles, 0x10e, 0x2c2, 0x19c, 0x10d
}

// SMT on, pre-Ice Lake: cycles and recovery cycles count the whole core (AnyThread, bit 21; SDM 22.2.3.1) when the
// kernel allows it, else the SMT-off events with a description that says the breakdown is approximate.
TEST(Recipes, SkylakeTmaWithSmtCountsTheCoreWithAnyThread)
{
    const std::string text = runInChild("skx", [] {
        std::ostringstream out;
        auto enc = EventEncoder::create();
        RecipeOptions allowed;
        allowed.smtActive = true;
        allowed.anyThreadAllowed = true;
        RecipeOptions refused = allowed;
        refused.anyThreadAllowed = false;
        for (const auto& opt : { allowed, refused }) {
            auto tma = tmaRecipe(*enc, opt);
            if (!tma) return "ERR " + tma.error().message;
            out << tma->anyThread << ' ';
            for (const auto& e : tma->events)
                out << e.attr.type << ':' << e.attr.config << ' ';
            out << (tma->description.find("AnyThread") != std::string::npos) << '|';
        }
        return out.str();
    });
    // 0x20003c = CPU_CLK_UNHALTED.THREAD_P with AnyThread, 0x20010d = INT_MISC.RECOVERY_CYCLES_ANY.
    EXPECT_EQ(text, "1 4:2097212 4:270 4:706 4:412 4:2097421 1|0 0:0 4:270 4:706 4:412 4:269 1|");
}

TEST(Recipes, HostOptionsAllowAnyThreadOnlyWhereTheKernelDoes)
{
    PerfEnvironment env;
    PmuCpuid cpuid;
    cpuid.slotsPerCycle = 6;
    cpuid.lbrDepth = 32;
    env.smtActive = true;
    env.paranoidKnown = true;
    env.paranoid = 2;
    RecipeOptions ro = hostRecipeOptions(env, cpuid);
    EXPECT_FALSE(ro.kernel);
    EXPECT_EQ(ro.slotsPerCycle, 6u);
    EXPECT_EQ(ro.lbrDepth, 32u);
    EXPECT_TRUE(ro.smtActive);
    EXPECT_FALSE(ro.anyThreadAllowed) << "paranoid 2 without root: the kernel returns EACCES";
    env.paranoid = 0;
    EXPECT_TRUE(hostRecipeOptions(env, cpuid).anyThreadAllowed);
    env.paranoid = 2;
    env.isRoot = true;
    EXPECT_TRUE(hostRecipeOptions(env, cpuid).anyThreadAllowed);
    env.isRoot = false;
    env.paranoidKnown = false;
    env.paranoid = -1;
    EXPECT_FALSE(hostRecipeOptions(env, cpuid).anyThreadAllowed) << "unknown paranoid: assume the default";
}

TEST(Tma, SkylakeAnyThreadHalvesCoreCycles)
{
    // One thread of a busy SMT core: 1000 core cycles (500 this thread's share), 4 slots per cycle.
    SkylakeTmaCounts c;
    c.uopsIssuedAny = 1000;
    c.uopsRetiredSlots = 800;
    c.idqUopsNotDelivered = 200;
    c.recoveryCycles = 40; // whole core
    c.clkUnhalted = 1000; // whole core
    c.anyThread = true;
    const TmaBreakdown b = tmaFromSkylake(c);
    ASSERT_TRUE(b.valid) << b.note;
    EXPECT_DOUBLE_EQ(b.slots, 2000.0);
    EXPECT_DOUBLE_EQ(b.level1.frontendBound, 0.1);
    EXPECT_DOUBLE_EQ(b.level1.retiring, 0.4);
    EXPECT_DOUBLE_EQ(b.level1.badSpeculation, (1000.0 - 800.0 + 4 * 20.0) / 2000.0);
    EXPECT_DOUBLE_EQ(b.level1.backendBound, 1.0 - 0.1 - (1000.0 + 80.0) / 2000.0);
    c.anyThread = false; // the same counts read as one thread's own cycles: twice the slots
    EXPECT_DOUBLE_EQ(tmaFromSkylake(c).slots, 4000.0);
}

TEST(Recipes, LbrDepthFromCpuid1C)
{
    EXPECT_EQ(lbrDepthFromCpuid(0), 0u);
    EXPECT_EQ(lbrDepthFromCpuid(0x1), 8u);
    EXPECT_EQ(lbrDepthFromCpuid(0x7), 24u);
    EXPECT_EQ(lbrDepthFromCpuid(0x8000000f), 32u); // bit 31 (LIP) is not part of the depth bitmap
    EXPECT_EQ(lbrDepthFromCpuid(0x80), 64u);
}

TEST(Recipes, NoTmaWithoutIntelPmu)
{
    auto enc = EventEncoder::forModel(modelForPfmName("amd64_fam19h_zen3"));
    auto r = tmaRecipe(enc);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().advice.find("--source sim"), std::string::npos);
    EXPECT_FALSE(lbrRecipe(enc, LbrMode::AnyBranch));
    EXPECT_FALSE(loadLatencyRecipe(enc));
    auto clock = cpuClockRecipe();
    EXPECT_EQ(clock.events.size(), 1u);
    EXPECT_EQ(clock.events[0].attr.type, 1u);
}

TEST(EventEncoder, OfflineTablesMatchLibpfm)
{
    // Every raw event the offline encoder knows for Skylake-SP and Ice Lake-SP (TMA level 1 and 2, the memory-bound
    // share) must encode as libpfm4 itself encodes it under LIBPFM_FORCE_PMU: a hand-written table cannot drift.
    const std::vector<std::string> names
        = { "uops_issued:any", "uops_retired:retire_slots", "idq_uops_not_delivered:core", "int_misc:recovery_cycles",
              "idq_uops_not_delivered:cycles_0_uops_deliv_core", "br_misp_retired:all_branches", "machine_clears:count",
              "idq:ms_uops", "cycle_activity:stalls_mem_any", "cycle_activity:stalls_total",
              "exe_activity:bound_on_stores", "exe_activity:1_ports_util", "exe_activity:2_ports_util" };
    std::size_t compared = 0;
    for (const char* pmu : { "skx", "icx" }) {
        auto [model, lib] = encodeAll(pmu, names);
        ASSERT_EQ(model, pmu);
        const auto offline = EventEncoder::forModel(modelForPfmName(pmu));
        for (const auto& name : names) {
            auto mine = offline.encode(name);
            if (!mine) continue; // not in this model's offline table
            ASSERT_TRUE(lib[name].ok) << pmu << " " << name << ": " << lib[name].error;
            EXPECT_FALSE(lib[name].own) << pmu << " " << name << " came from the offline table, not libpfm4";
            EXPECT_EQ(rdt::hexDigits(mine->attr.config), rdt::hexDigits(lib[name].config)) << pmu << " " << name;
            ++compared;
        }
    }
    EXPECT_GE(compared, 17u); // skx: 4 level-1 + 4 level-2 + 5 memory events; icx: the 5 memory events
}
