// SPDX-License-Identifier: GPL-3.0-or-later
// Blame on the simulated noisy neighbour through a local engine: the streamer ranked and proven the culprit, every
// schemata back as it was after the probes (also when stopped mid-probe), --probe refused on a source that cannot
// be written, and a copied fixture tree, whose counters never move, said to give no evidence.
#include "../engine/SimService.h"
#include "blame/Blame.h"
#include "blame/Containment.h"
#include "blame/FencePlan.h"
#include "blame/SuspectRanking.h"
#include "blame/TaskSuspects.h"
#include "engine/CaptureService.h"
#include "engine/SourceAssembly.h"
#include "rdt/TestTree.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

using namespace rdt;
using namespace rdt::blame;

namespace {

std::unique_ptr<engine::CaptureService> openSim(const std::string& scenario = "noisy-neighbour")
{
    return test::openSim(scenario);
}

using test::schemataOf;

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

TEST(BlameContain, ABandwidthCulpritIsCappedInTheMachinesOwnUnit)
{
    api::BandwidthLayout mb;
    mb.resource = "MB";
    mb.domains = { 0 };
    // Intel: percent of peak in steps of bandwidth_gran; the cap withholds the culprit's share of the harm.
    mb.unit = api::BandwidthUnit::Percent;
    mb.minValue = 10;
    mb.maxValue = 100;
    mb.granularity = 10;
    EXPECT_EQ(bandwidthCap(mb, 20e9, 0.5)->first, 50u);
    EXPECT_EQ(bandwidthCap(mb, 20e9, 0.85)->first, 10u); // 15 % rounds down to the 10 % step
    EXPECT_EQ(bandwidthCap(mb, 20e9, 0.99)->first, 10u); // never below min_bandwidth
    // AMD: 1/8 GB/s steps of absolute bandwidth: 20 GB/s less 85 % is 3 GB/s, 24 steps.
    mb.unit = api::BandwidthUnit::EighthGBps;
    mb.minValue = 1;
    mb.maxValue = 2048;
    mb.granularity = 1;
    const auto amd = bandwidthCap(mb, 20e9, 0.85);
    ASSERT_TRUE(amd);
    EXPECT_EQ(amd->first, 24u);
    EXPECT_NE(amd->second.find("/8 GB/s"), std::string::npos) << amd->second;
    // mba_MBps: MiB/s.
    mb.unit = api::BandwidthUnit::MiBps;
    mb.minValue = 0;
    mb.maxValue = 4294967295u;
    EXPECT_EQ(bandwidthCap(mb, 20e9, 0.85)->first, 2861u); // 3e9 B/s / 1048576
    // A throttle level is not a cap.
    mb.unit = api::BandwidthUnit::ThrottleLevel;
    EXPECT_FALSE(bandwidthCap(mb, 20e9, 0.85));

    // The plan: the victim keeps its knee's ways, the culprit the rest and the cap.
    Capabilities caps;
    ResourceCaps l3;
    l3.name = "L3";
    l3.domains = { 0 };
    l3.cbmMask = 0x7ff;
    l3.cbmBits = 11;
    l3.minCbmBits = 1;
    caps.resources.push_back(l3);
    std::vector<engine::GroupState> groups(2);
    groups[0].info.path = "victim";
    groups[0].info.isControl = true;
    groups[0].schemata = *Schemata::parseStrict("L3:0=7ff\nMB:0=100\n");
    groups[1].info.path = "hog";
    groups[1].info.isControl = true;
    groups[1].schemata = *Schemata::parseStrict("L3:0=7ff\nMB:0=100\n");
    api::AllocationLayout layout;
    api::BandwidthLayout percent;
    percent.resource = "MB";
    percent.domains = { 0 };
    percent.minValue = 10;
    percent.granularity = 10;
    layout.bandwidths.push_back(percent);
    ContainmentNeed need;
    need.victimWays = 7;
    need.culpritBps = 20e9;
    need.effect = 0.6;
    const auto c = planContainment(caps, layout, groups, "hog", Resource::Bandwidth, need);
    ASSERT_TRUE(c) << c.error().toString();
    EXPECT_EQ(c->text, "L3:0=f MB:0=40");
    EXPECT_EQ(c->undoText, "L3:0=7ff MB:0=100");
    EXPECT_EQ(c->victimWays, 7u);
    EXPECT_NE(c->bandwidthText.find("MB capped at 40%"), std::string::npos) << c->bandwidthText;
    // Without MBA the bandwidth culprit is contained by ways, and the containment says so.
    const auto noMba = planContainment(caps, {}, groups, "hog", Resource::Bandwidth, need);
    ASSERT_TRUE(noMba);
    EXPECT_EQ(noMba->text, "L3:0=f");
    EXPECT_NE(noMba->bandwidthText.find("no MBA"), std::string::npos);
}

TEST(BlameTasks, TheDefaultGroupsTasksAreProbedOneByOneAndComeBack)
{
    // A streamer and a compute-bound thread share the default group with nobody watching them apart: the default
    // group is blamed, then each task is moved for a moment into a fenced group of its own.
    char tmpl[] = "/tmp/rdtscope-blame-tasks-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string path = std::string(tmpl) + "/tasks.scn";
    std::ofstream(path) << "name blame-default-tasks\ntitle Two tasks in the default group\n"
                           "machine preset=skx-6154 sockets=1 cores=6 sampling=256\n"
                           "mkdir victim\n"
                           "thread v0 group=victim cpu=0 pattern=random ws=12M compute=40\n"
                           "thread hog cpu=1 pattern=stream ws=512M compute=4\n"
                           "thread calm cpu=2 pattern=random ws=256K compute=80\n";
    auto svc = openSim(path);
    ASSERT_TRUE(svc);
    const auto tasksOf = [&](const std::string& group) {
        for (const auto& g : svc->snapshot(true).groups)
            if (g.info.path == group) return g.tasks;
        return std::vector<unsigned> {};
    };
    const auto before = schemataOf(*svc);
    const auto defaultTasks = tasksOf("");
    ASSERT_GE(defaultTasks.size(), 2u);
    auto r = runBlame(*svc, quick(true));
    ASSERT_TRUE(r) << r.error().toString();
    const Suspect* group = find(*r, "");
    ASSERT_TRUE(group && group->probe);
    EXPECT_EQ(group->probe->verdict, "culprit");
    std::vector<const Suspect*> tasks;
    for (const auto& s : r->ranking)
        if (s.task) tasks.push_back(&s);
    ASSERT_EQ(tasks.size(), std::min<std::size_t>(defaultTasks.size(), 3));
    unsigned culprits = 0, innocents = 0;
    for (const auto* t : tasks) {
        ASSERT_TRUE(t->probe) << suspectName(*t);
        EXPECT_TRUE(t->probe->restored) << suspectName(*t);
        EXPECT_EQ(suspectName(*t).rfind("default/" + std::to_string(*t->task), 0), 0u);
        EXPECT_NE(t->sentence.find("no passive evidence of its own"), std::string::npos) << t->sentence;
        EXPECT_NE(t->probe->fence.find("rdtscope-blame-task"), std::string::npos) << t->probe->fence;
        culprits += t->probe->verdict == "culprit";
        innocents += t->probe->verdict == "innocent";
    }
    EXPECT_EQ(culprits, 1u) << "the streamer, and only it";
    EXPECT_GE(innocents, 1u) << "the compute-bound thread";
    bool noted = false;
    for (const auto& n : r->notes)
        noted = noted || n.find("no per-task CPU time") != std::string::npos;
    EXPECT_TRUE(noted) << "a simulated source says why its tasks are not ordered by CPU time";
    // Every task is back in the default group, the probe's group is gone, and every allocation is as it was.
    EXPECT_TRUE(r->restored);
    EXPECT_EQ(tasksOf(""), defaultTasks);
    EXPECT_EQ(schemataOf(*svc), before);
    std::filesystem::remove_all(tmpl);
}

TEST(BlameTasks, BusiestTasksComeFromProcCpuTime)
{
    char tmpl[] = "/tmp/rdtscope-blame-proc-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string root = tmpl;
    const auto task = [&](unsigned pid, const std::string& comm, unsigned utime, unsigned stime) {
        std::filesystem::create_directories(root + "/" + std::to_string(pid));
        // A command name with a space and a parenthesis: the fields are counted after the last ')'.
        std::ofstream(root + "/" + std::to_string(pid) + "/stat")
            << pid << " (" << comm << ") S 1 1 1 0 -1 4194560 100 0 0 0 " << utime << " " << stime
            << " 0 0 20 0 1 0 100\n";
        std::ofstream(root + "/" + std::to_string(pid) + "/comm") << comm << "\n";
    };
    task(10, "idle one", 5, 5);
    task(11, "busy (x)", 100, 0);
    task(12, "half", 40, 10);
    const auto before = readTaskStats({ 10, 11, 12, 13 }, root);
    EXPECT_EQ(before.count(13), 0u) << "a task that is gone has nothing";
    ASSERT_TRUE(before.at(11).cpuTicks);
    EXPECT_EQ(*before.at(11).cpuTicks, 100u);
    EXPECT_EQ(before.at(11).comm, "busy (x)");
    task(11, "busy (x)", 300, 0); // 200 ticks in 2 s at 100 Hz: a whole CPU
    task(12, "half", 120, 30); // 100 ticks: half a CPU
    const auto after = readTaskStats({ 10, 11, 12 }, root);
    const auto busy = busiestTasks({ 10, 11, 12 }, before, after, 2.0, 100, 3);
    ASSERT_EQ(busy.size(), 2u) << "the task that used no CPU is left out";
    EXPECT_EQ(busy[0].pid, 11u);
    EXPECT_NEAR(*busy[0].cpuShare, 1.0, 1e-9);
    EXPECT_EQ(busy[1].pid, 12u);
    EXPECT_NEAR(*busy[1].cpuShare, 0.5, 1e-9);
    EXPECT_EQ(taskSuspectName(11, "busy (x)"), "default/11 busy (x)");
    // Without CPU times, the tasks as listed.
    const auto listed = busiestTasks({ 12, 10, 11 }, {}, {}, 2.0, 100, 2);
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[0].pid, 12u);
    EXPECT_FALSE(listed[0].cpuShare);
    std::filesystem::remove_all(tmpl);
}
