// SPDX-License-Identifier: GPL-3.0-or-later
// Blame on the simulated noisy neighbour through a local engine: the streamer ranked and proven the culprit, every
// schemata back as it was after the probes (also when stopped mid-probe), --probe refused on a source that cannot
// be written, and a copied fixture tree, whose counters never move, said to give no evidence.
#include "blame/Blame.h"
#include "blame/Containment.h"
#include "blame/FencePlan.h"
#include "blame/SuspectRanking.h"
#include "engine/CaptureService.h"
#include "engine/SourceAssembly.h"
#include "rdt/TestTree.h"

#include <gtest/gtest.h>

#include <map>

using namespace rdt;
using namespace rdt::blame;

namespace {

std::unique_ptr<engine::CaptureService> openSim(const std::string& scenario = "noisy-neighbour")
{
    engine::ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = scenario;
    auto s = engine::CaptureService::open(o);
    EXPECT_TRUE(s) << (s ? "" : s.error().toString());
    return s ? std::move(*s) : nullptr;
}

std::map<std::string, std::string> schemataOf(engine::Engine& e)
{
    std::map<std::string, std::string> out;
    for (const auto& g : e.snapshot().groups)
        if (g.info.isControl) out[g.info.path] = g.schemata.format();
    return out;
}

BlameSettings quick(bool probe)
{
    BlameSettings s;
    s.victim = "victim";
    s.durationNs = 6'000'000'000;
    s.windowNs = 1'000'000'000;
    s.probe = probe;
    s.probeSettleNs = 500'000'000;
    s.probeMeasureNs = 1'000'000'000;
    return s;
}

const Suspect* find(const BlameResult& r, const std::string& group)
{
    for (const auto& s : r.ranking)
        if (s.group == group) return &s;
    return nullptr;
}

} // namespace

TEST(Blame, PassiveRankingNamesTheStreamerWithItsEvidence)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    const auto before = schemataOf(*svc);
    auto r = runBlame(*svc, quick(false));
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_EQ(r->ranking.size(), 2u); // streamer and the default group
    EXPECT_EQ(r->ranking[0].group, "streamer");
    EXPECT_EQ(r->ranking[0].resource, Resource::Cache);
    EXPECT_GT(r->ranking[0].effect, 0.5);
    EXPECT_GT(r->ranking[0].windows, 3u);
    EXPECT_LT(r->ranking[0].uncertainty, 0.1);
    EXPECT_TRUE(passivelyBlamed(r->ranking[0]));
    EXPECT_EQ(r->ranking[1].group, "");
    EXPECT_LT(r->ranking[1].effect, 0.05);
    EXPECT_FALSE(passivelyBlamed(r->ranking[1]));
    EXPECT_NE(r->ranking[0].sentence.find("each fill can evict"), std::string::npos) << r->ranking[0].sentence;
    EXPECT_FALSE(r->ranking[0].probe);
    // The victim's harm: its one domain, its mask's capacity (11 ways of 2.25 MiB), the simulated PMU's figures.
    ASSERT_EQ(r->harm.domains.size(), 1u);
    ASSERT_TRUE(r->harm.domains[0].capacityBytes);
    EXPECT_DOUBLE_EQ(*r->harm.domains[0].capacityBytes, 11 * 2.25 * 1024 * 1024);
    EXPECT_LT(r->harm.domains[0].occupancyBytes, 8.0 * 1024 * 1024); // the streamer keeps it far below its 16 MiB
    ASSERT_TRUE(r->harm.ipc);
    ASSERT_TRUE(r->harm.memoryBound);
    EXPECT_NE(r->harm.pmu.find("simulated"), std::string::npos);
    EXPECT_FALSE(r->probed);
    EXPECT_EQ(r->probeWrites, 0u);
    EXPECT_EQ(schemataOf(*svc), before);
}

TEST(Blame, ProbeProvesTheStreamerAndRestoresEverySchemata)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    const auto before = schemataOf(*svc);
    std::vector<ProbeResult> seen;
    BlameHooks hooks;
    hooks.onProbe = [&](const ProbeResult& p, std::uint64_t) { seen.push_back(p); };
    auto r = runBlame(*svc, quick(true), hooks);
    ASSERT_TRUE(r) << r.error().toString();
    EXPECT_TRUE(r->probed);
    ASSERT_FALSE(r->ranking.empty());
    const auto& top = r->ranking[0];
    EXPECT_EQ(top.group, "streamer");
    ASSERT_TRUE(top.probe);
    EXPECT_EQ(top.probe->verdict, "culprit") << top.probe->sentence;
    EXPECT_EQ(top.probe->fence, "L3:0=1"); // min_cbm_bits = 1 way; the victim holds all 11, so the lowest
    EXPECT_GT(top.probe->occupancyRecovered, 0.3) << top.probe->sentence;
    EXPECT_GT(top.probe->victimOccupancyDuring, top.probe->victimOccupancyBefore);
    ASSERT_TRUE(top.probe->ipcGain);
    EXPECT_GT(*top.probe->ipcGain, 0.1);
    EXPECT_TRUE(top.probe->restored);
    EXPECT_EQ(top.probe->writes, 2u);
    EXPECT_NE(top.probe->sentence.find("gave victim back"), std::string::npos) << top.probe->sentence;
    // The default group reads almost nothing from memory: not worth a write.
    const auto* def = find(*r, "");
    ASSERT_TRUE(def);
    EXPECT_FALSE(def->probe);
    EXPECT_EQ(r->probeWrites, 2u);
    EXPECT_EQ(seen.size(), 1u);
    EXPECT_TRUE(r->restored);
    EXPECT_GT(r->verdictNs, r->passiveNs);
    EXPECT_EQ(schemataOf(*svc), before);
    // The scenario's fence at 20 s was held through the run (6 s + one probe), then released: it runs later.
    EXPECT_NE(r->notes.front().find("held"), std::string::npos);
    svc->advanceTo(21'000'000'000);
    EXPECT_EQ(schemataOf(*svc)["streamer"].find("L3:0=3\n"), 0u) << schemataOf(*svc)["streamer"];
}

TEST(Blame, AStopDuringAProbeRestoresTheFencedGroup)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    const auto before = schemataOf(*svc);
    bool fenced = false;
    int pollsSinceFence = 0;
    BlameHooks hooks;
    hooks.onPhase = [&](const std::string& text, std::uint64_t) { fenced = fenced || text.find("fencing") == 7; };
    hooks.stopRequested = [&] {
        if (fenced) ++pollsSinceFence;
        return pollsSinceFence > 3;
    };
    auto r = runBlame(*svc, quick(true), hooks);
    ASSERT_TRUE(r) << r.error().toString();
    EXPECT_TRUE(fenced);
    EXPECT_TRUE(r->stopped);
    EXPECT_TRUE(r->restored);
    ASSERT_TRUE(r->ranking[0].probe);
    EXPECT_TRUE(r->ranking[0].probe->restored);
    EXPECT_TRUE(r->ranking[0].probe->verdict.empty()); // stopped before it could judge: no verdict
    EXPECT_EQ(schemataOf(*svc), before);
}

TEST(Blame, VictimByPidAndUnknownVictims)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    auto g = groupOfPid(*svc, 1003); // scan-0
    ASSERT_TRUE(g) << g.error().toString();
    EXPECT_EQ(*g, "streamer");
    EXPECT_FALSE(groupOfPid(*svc, 4000000));
    auto settings = quick(false);
    settings.victim = "nosuch";
    const auto r = runBlame(*svc, settings);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().toString().find("no group 'nosuch'"), std::string::npos) << r.error().toString();
}

TEST(Blame, ProbeIsRefusedWhereTheSourceCannotBeWritten)
{
    test::TempTree tree("resctrl.full");
    RdtSourceOptions ro;
    ro.spec = "resctrl:" + tree.root();
    auto src = openRdtSource(ro);
    ASSERT_TRUE(src) << src.error().toString();
    src->writeTarget = "/nonexistent/schemata"; // as a tree this user may read but not write
    auto svc = engine::CaptureService::openWith(std::move(*src), {});
    ASSERT_TRUE(svc) << svc.error().toString();
    ASSERT_FALSE((*svc)->source().writability.writable);
    auto settings = quick(true);
    settings.victim = "Guaranteed";
    const auto r = runBlame(**svc, settings);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, EROFS);
    EXPECT_NE(r.error().toString().find("--probe needs to write allocations"), std::string::npos);
    EXPECT_NE(r.error().toString().find("/nonexistent/schemata"), std::string::npos) << r.error().toString();
}

TEST(Blame, AStaticTreeSaysItHasNoEvidence)
{
    test::TempTree tree("resctrl.full");
    engine::ServiceOptions o;
    o.rdt.spec = "resctrl:" + tree.root();
    auto svc = engine::CaptureService::open(o);
    ASSERT_TRUE(svc) << svc.error().toString();
    auto settings = quick(false);
    settings.victim = "Guaranteed";
    settings.durationNs = 1'000'000'000;
    settings.pollNs = 100'000'000;
    auto r = runBlame(**svc, settings);
    ASSERT_TRUE(r) << r.error().toString();
    bool said = false;
    for (const auto& n : r->notes)
        said = said || n.find("no memory traffic moved") != std::string::npos;
    EXPECT_TRUE(said);
    for (const auto& s : r->ranking)
        EXPECT_FALSE(passivelyBlamed(s)) << s.group;
}

TEST(BlameFence, WaysAvoidTheVictimsAndBandwidthFallsBackWithoutMba)
{
    Capabilities caps;
    ResourceCaps l3;
    l3.name = "L3";
    l3.domains = { 0, 1 };
    l3.cbmMask = 0x7ff;
    l3.cbmBits = 11;
    l3.minCbmBits = 2;
    caps.resources.push_back(l3);
    std::vector<engine::GroupState> groups(2);
    groups[0].info.path = "victim";
    groups[0].schemata = *Schemata::parseStrict("L3:0=7f0;1=7ff\n");
    groups[1].info.path = "noisy";
    groups[1].schemata = *Schemata::parseStrict("L3:0=7ff;1=7ff\n");
    auto f = planFence(caps, groups, "noisy", "victim", Resource::Cache);
    ASSERT_TRUE(f) << f.error().toString();
    EXPECT_EQ(f->text, "L3:0=3;1=3"); // domain 0: outside 7f0; domain 1: no free ways, the lowest run
    EXPECT_EQ(f->original.format(), "L3:0=7ff;1=7ff\n");
    auto bw = planFence(caps, groups, "noisy", "victim", Resource::Bandwidth);
    ASSERT_TRUE(bw);
    EXPECT_EQ(bw->resource, Resource::Cache);
    EXPECT_NE(bw->note.find("no MBA"), std::string::npos);
    EXPECT_FALSE(planFence(caps, groups, "absent", "victim", Resource::Cache));
}

TEST(BlameContain, TheCulpritIsContainedTheVictimRecoversAndUndoRestores)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    const auto before = schemataOf(*svc);
    auto settings = quick(true);
    settings.contain = true;
    auto r = runBlame(*svc, settings);
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_TRUE(r->containment);
    const auto& c = *r->containment;
    ASSERT_TRUE(c.applied) << c.error;
    EXPECT_EQ(c.group, "streamer");
    // The victim's misses, swept over its ways with the streamer isolated, stop falling at 7 ways (its knee): those
    // are left to it, the other four to the streamer at the low end.
    EXPECT_EQ(c.victimWays, 7u);
    EXPECT_NE(c.waysText.find("victim's knee: 7 way(s)"), std::string::npos) << c.waysText;
    EXPECT_EQ(c.text, "L3:0=f");
    EXPECT_TRUE(c.bandwidthText.empty()) << "a cache culprit gets no MB cap";
    EXPECT_EQ(c.undoText, "L3:0=7ff");
    EXPECT_GT(c.victimOccupancyAfter, 3 * c.victimOccupancyBefore);
    EXPECT_LT(c.victimMissBpsAfter, 0.1 * c.victimMissBpsBefore);
    EXPECT_GT(c.occupancyRecovered, 0.4);
    auto now = schemataOf(*svc);
    EXPECT_EQ(now["streamer"].rfind("L3:0=f\n", 0), 0u) << now["streamer"];
    EXPECT_EQ(now["victim"], before.at("victim"));
    const auto undone = undoContainment(*svc, c);
    ASSERT_TRUE(undone.ok) << undone.toString();
    EXPECT_EQ(schemataOf(*svc), before);
}

TEST(BlameContain, RefusedWhereTheSourceCannotBeWritten)
{
    test::TempTree tree("resctrl.full");
    RdtSourceOptions ro;
    ro.spec = "resctrl:" + tree.root();
    auto src = openRdtSource(ro);
    ASSERT_TRUE(src) << src.error().toString();
    src->writeTarget = "/nonexistent/schemata";
    auto svc = engine::CaptureService::openWith(std::move(*src), {});
    ASSERT_TRUE(svc) << svc.error().toString();
    auto settings = quick(false);
    settings.victim = "Guaranteed";
    settings.contain = true;
    const auto r = runBlame(**svc, settings);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().toString().find("--contain needs to write allocations"), std::string::npos)
        << r.error().toString();
}

TEST(Blame, TheLoudestNeighbourIsNotBlamedWhenItsWaysAreItsOwn)
{
    // hidden-thrasher (the find-the-noisy-neighbour lesson): the loader reads about six times the indexer's traffic
    // but is fenced into ways 0-1, which the victim (7fc) never uses.
    auto svc = openSim("hidden-thrasher");
    ASSERT_TRUE(svc);
    auto r = runBlame(*svc, quick(true));
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_EQ(r->passiveOrder.size(), 3u);
    EXPECT_EQ(r->passiveOrder[0], "indexer");
    const auto* loader = find(*r, "loader");
    const auto* indexer = find(*r, "indexer");
    ASSERT_TRUE(loader && indexer);
    EXPECT_GT(loader->fillBps, 3 * indexer->fillBps);
    ASSERT_TRUE(loader->overlap);
    EXPECT_EQ(*loader->overlap, 0.0);
    EXPECT_LT(loader->effect, 0.01);
    EXPECT_FALSE(loader->probe); // nothing of it reaches the victim's ways: not worth a write
    EXPECT_NE(loader->sentence.find("its ways do not overlap the victim's"), std::string::npos) << loader->sentence;
    ASSERT_TRUE(indexer->probe);
    EXPECT_EQ(indexer->probe->verdict, "culprit") << indexer->probe->sentence;
    EXPECT_EQ(r->ranking[0].group, "indexer");
}
