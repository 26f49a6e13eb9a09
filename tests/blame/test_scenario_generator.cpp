// SPDX-License-Identifier: GPL-3.0-or-later
// The generator of scenarios with a known answer (capture/blame/ScenarioGenerator.h): the same seed gives the same
// machine, every scenario opens on the simulator with 4-8 other groups and 1-3 culprits, and blame finds a culprit
// of one of them with a causal verdict.
#include "blame/Blame.h"
#include "blame/ScenarioGenerator.h"
#include "engine/CaptureService.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace rdt;
using namespace rdt::blame;

namespace {

struct TempDir {
    std::string path;
    TempDir()
    {
        char tmpl[] = "/tmp/rdtscope-blame-gen-XXXXXX";
        path = ::mkdtemp(tmpl) ? tmpl : "";
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

std::unique_ptr<engine::CaptureService> open(const GeneratedScenario& g, const std::string& dir)
{
    const std::string file = dir + "/" + g.name + ".scn";
    std::ofstream(file) << g.text;
    engine::ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = file;
    auto s = engine::CaptureService::open(o);
    EXPECT_TRUE(s) << (s ? "" : s.error().toString()) << "\n" << g.text;
    return s ? std::move(*s) : nullptr;
}

} // namespace

TEST(ScenarioGenerator, TheSameSeedGivesTheSameScenarios)
{
    ScenarioGenerator a(7), b(7), c(8);
    for (int i = 0; i < 5; ++i) {
        const auto x = a.next(), y = b.next(), z = c.next();
        EXPECT_EQ(x.text, y.text);
        EXPECT_NE(x.text, z.text);
    }
}

TEST(ScenarioGenerator, EveryScenarioOpensWithItsKnownAnswer)
{
    TempDir dir;
    ScenarioGenerator gen(48);
    bool defaultCulprit = false, fenced = false, remote = false, several = false;
    for (int i = 0; i < 30; ++i) {
        const auto g = gen.next();
        SCOPED_TRACE(g.name);
        auto svc = open(g, dir.path);
        ASSERT_TRUE(svc);
        const auto snap = svc->snapshot();
        unsigned controlGroups = 0;
        for (const auto& s : snap.groups)
            if (s.info.isControl && s.info.path != "victim") {
                ++controlGroups;
                EXPECT_TRUE(g.knows(s.info.path)) << s.info.path;
            }
        EXPECT_EQ(controlGroups, g.groups.size());
        unsigned culprits = 0;
        for (const auto& gg : g.groups) {
            culprits += gg.culprit;
            defaultCulprit = defaultCulprit || (gg.group.empty() && gg.culprit);
            fenced = fenced || gg.kind == "fenced streamer";
            remote = remote || gg.kind.rfind("remote", 0) == 0;
        }
        several = several || culprits > 1;
        EXPECT_GE(culprits, 1u);
        EXPECT_LE(culprits, 3u);
        const std::size_t others = g.groups.size() - (g.isCulprit("") ? 0 : 1); // the default group's background
        EXPECT_GE(others, 4u);
        EXPECT_LE(others, 8u);
    }
    // The kinds the issue lists all occur within 30 scenarios.
    EXPECT_TRUE(defaultCulprit);
    EXPECT_TRUE(fenced);
    EXPECT_TRUE(remote);
    EXPECT_TRUE(several);
}

TEST(ScenarioGenerator, BlameNamesAGeneratedCulpritAndRestores)
{
    TempDir dir;
    ScenarioGenerator gen(48);
    const auto g = gen.next();
    auto svc = open(g, dir.path);
    ASSERT_TRUE(svc);
    std::map<std::string, std::string> before;
    for (const auto& s : svc->snapshot().groups)
        before[s.info.path] = s.schemata.format();
    BlameSettings s;
    s.victim = "victim";
    s.durationNs = 4'000'000'000;
    s.windowNs = 1'000'000'000;
    s.probe = true;
    s.probeSettleNs = 500'000'000;
    s.probeMeasureNs = 1'000'000'000;
    auto r = runBlame(*svc, s);
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_FALSE(r->ranking.empty());
    EXPECT_TRUE(g.isCulprit(r->ranking[0].group)) << r->ranking[0].group << "\n" << g.text;
    ASSERT_TRUE(r->ranking[0].probe);
    EXPECT_EQ(r->ranking[0].probe->verdict, "culprit") << r->ranking[0].probe->sentence;
    for (const auto& x : r->ranking) {
        if (x.probe && x.probe->verdict == "culprit") {
            EXPECT_TRUE(g.isCulprit(x.group)) << x.group;
        }
    }
    std::map<std::string, std::string> after;
    for (const auto& x : svc->snapshot().groups)
        after[x.info.path] = x.schemata.format();
    EXPECT_EQ(after, before);
}
