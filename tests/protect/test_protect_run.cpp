// SPDX-License-Identifier: GPL-3.0-or-later
// The protect loop on the simulated load-steps scenario through a local engine: the model policy holds the target
// after the load step and leaves every best-effort schemata as it found it; a stop mid-run (the CLI's SIGINT) and a
// lost external signal write the start allocation back; the floors and the write-rate limit hold; the lab runs.
#include "../engine/SimService.h"
#include "engine/CaptureService.h"
#include "protect/Lab.h"
#include "protect/Protect.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace rdt;
using namespace rdt::protect;

namespace {

std::unique_ptr<engine::CaptureService> openSim(const std::string& scenario = "load-steps")
{
    return test::openSim(scenario);
}

using test::schemataOf;

ProtectSettings settings(const std::string& policy, std::uint64_t seconds)
{
    ProtectSettings s;
    s.lcGroup = "svc";
    s.target = *parseTarget("ipc>=0.8", false);
    s.policy = policy;
    s.durationNs = seconds * 1'000'000'000ull;
    return s;
}

bool hasDecision(const ProtectResult& r, const std::string& action)
{
    return std::any_of(r.decisions.begin(), r.decisions.end(), [&](const Decision& d) { return d.action == action; });
}

} // namespace

TEST(ProtectRun, ModelHoldsTheTargetAfterTheLoadStepAndRestoresEveryGroup)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    const auto before = schemataOf(*svc);
    auto r = runProtect(*svc, settings("model", 16));
    ASSERT_TRUE(r) << r.error().toString();
    EXPECT_EQ(r->beGroups, (std::vector<std::string> { "batch", "crunch", "thrash" }));
    ASSERT_EQ(r->loadStepsNs.size(), 1u); // the 12 s step
    EXPECT_TRUE(r->simulated);
    EXPECT_GT(r->writes, 0u);
    EXPECT_TRUE(hasDecision(*r, "write"));
    // The step broke the target (the streamers took the service's ways) and the model got it back within 2 s.
    const auto f = figuresOf(*r);
    ASSERT_EQ(f.convergenceS.size(), 1u);
    ASSERT_TRUE(f.convergenceS[0]);
    EXPECT_LT(*f.convergenceS[0], 2.0);
    for (const auto& i : r->intervals)
        if (i.offsetNs >= 14'000'000'000ull) {
            ASSERT_TRUE(i.slack);
            EXPECT_GE(*i.slack, 0) << i.offsetNs;
        }
    // Every write was a transaction on the best-effort groups: the protected group was never written, and all of
    // them read back as at the start.
    EXPECT_TRUE(r->restored);
    EXPECT_EQ(schemataOf(*svc), before);
    EXPECT_EQ(r->decisions.back().action, "restore");
}

TEST(ProtectRun, AStopMidRunWritesTheStartAllocationBack)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    const auto before = schemataOf(*svc);
    ProtectHooks hooks;
    std::map<std::string, std::string> during;
    bool written = false;
    hooks.onDecision = [&](const Decision& d, std::uint64_t) { written = written || d.action == "write"; };
    hooks.stopRequested = [&] {
        if (svc->nowNs() < 13'000'000'000ull) return false;
        if (during.empty()) during = schemataOf(*svc);
        return true;
    };
    auto s = settings("model", 0); // until stopped
    s.restoreAtEnd = false; // a stop restores all the same
    auto r = runProtect(*svc, s, hooks);
    ASSERT_TRUE(r) << r.error().toString();
    EXPECT_TRUE(r->stopped);
    ASSERT_TRUE(written);
    EXPECT_NE(during, before); // the controller had moved the best-effort groups
    EXPECT_TRUE(r->restored);
    EXPECT_EQ(schemataOf(*svc), before);
}

TEST(ProtectRun, ALostSignalRevertsToTheStartAllocation)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    const auto before = schemataOf(*svc);
    auto s = settings("static", 2);
    s.target = *parseTarget("p99<=2000", true);
    s.signalCommand = "exit 3"; // prints nothing, fails: every interval unread
    std::map<std::string, std::string> afterRevert;
    ProtectHooks hooks;
    hooks.onDecision = [&](const Decision& d, std::uint64_t) {
        if (d.action == "revert") afterRevert = schemataOf(*svc);
    };
    auto r = runProtect(*svc, s, hooks);
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_TRUE(hasDecision(*r, "write")); // static's class range
    ASSERT_TRUE(hasDecision(*r, "revert"));
    EXPECT_EQ(afterRevert, before);
    for (const auto& i : r->intervals)
        EXPECT_FALSE(i.signal); // never read as 0
    const auto revert = std::find_if(
        r->decisions.begin(), r->decisions.end(), [](const Decision& d) { return d.action == "revert"; });
    EXPECT_NE(revert->reason.find("signal lost for 3 intervals"), std::string::npos) << revert->reason;
    EXPECT_NE(revert->reason.find("exit status 3"), std::string::npos) << revert->reason;
}

TEST(ProtectRun, AnExternalSignalIsReadEachInterval)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    auto s = settings("model", 1);
    s.target = *parseTarget("p99<=2000", true);
    s.signalCommand = "echo p99 1500";
    auto r = runProtect(*svc, s);
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_EQ(r->intervals.size(), 10u);
    for (const auto& i : r->intervals) {
        ASSERT_TRUE(i.signal);
        EXPECT_DOUBLE_EQ(*i.signal, 1500);
        EXPECT_NEAR(*i.slack, 0.25, 1e-12);
    }
    EXPECT_EQ(r->writes, 0u); // nothing to do: no write, and nothing to restore but the unchanged lines
}

TEST(ProtectRun, FloorsAndTheWriteRateLimitHold)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    auto s = settings("slack", 15);
    s.minBeWays = 3;
    s.mbaFloor = 40;
    s.maxWritesPerSecond = 3; // one decision (three groups) per second
    std::vector<std::uint64_t> writeTimes;
    ProtectHooks hooks;
    hooks.onDecision = [&](const Decision& d, std::uint64_t t) {
        if (d.action == "write")
            for (unsigned i = 0; i < d.writes; ++i)
                writeTimes.push_back(t);
    };
    auto r = runProtect(*svc, s, hooks);
    ASSERT_TRUE(r) << r.error().toString();
    EXPECT_EQ(r->limits.minBeWays, 3u);
    EXPECT_EQ(r->limits.mbaMin, 40u);
    for (const auto& i : r->intervals) {
        EXPECT_GE(i.knobs.beWays, 3u);
        ASSERT_TRUE(i.knobs.beMba);
        EXPECT_GE(*i.knobs.beMba, 40u);
    }
    ASSERT_FALSE(writeTimes.empty());
    for (std::size_t i = 0; i < writeTimes.size(); ++i) {
        std::size_t inSecond = 0;
        for (std::size_t j = i; j < writeTimes.size() && writeTimes[j] < writeTimes[i] + 1'000'000'000ull; ++j)
            ++inSecond;
        EXPECT_LE(inSecond, 3u);
    }
    EXPECT_TRUE(r->restored);
}

TEST(ProtectRun, RefusesWhatItCannotDo)
{
    auto svc = openSim();
    ASSERT_TRUE(svc);
    auto s = settings("model", 1);
    s.lcGroup = "nosuch";
    auto r = runProtect(*svc, s);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().toString().find("nosuch"), std::string::npos);
    s = settings("lottery", 1);
    EXPECT_FALSE(runProtect(*svc, s));
    s = settings("model", 1);
    s.beGroups = { "svc" };
    EXPECT_FALSE(runProtect(*svc, s));
    s = settings("model", 1);
    s.maxWritesPerSecond = 2; // three best-effort groups: no decision could ever be written
    EXPECT_FALSE(runProtect(*svc, s));
    s = settings("model", 1);
    s.target = *parseTarget("p99<=1", true); // no command
    EXPECT_FALSE(runProtect(*svc, s));
    EXPECT_EQ(svc->nowNs(), 0u); // nothing ran
}

TEST(ProtectLab, RunsEachPolicyOnItsOwnMachineOfTheSameSeededScenario)
{
    LabSettings s;
    s.policies = { "static", "model" };
    s.durationNs = 14'000'000'000ull;
    auto lab = runLab(s);
    ASSERT_TRUE(lab) << lab.error().toString();
    EXPECT_EQ(lab->group, "svc");
    EXPECT_EQ(lab->target, "ipc>=0.8");
    ASSERT_EQ(lab->figures.size(), 2u);
    EXPECT_EQ(lab->figures[0].policy, "static");
    EXPECT_EQ(lab->figures[1].policy, "model");
    for (const auto& f : lab->figures) {
        EXPECT_TRUE(f.violationShare1s);
        EXPECT_TRUE(f.beThroughput);
        EXPECT_EQ(f.convergenceS.size(), 1u);
        EXPECT_TRUE(f.restored);
        EXPECT_GT(f.writes, 0u);
    }
    s.policies = { "static", "coinflip" };
    EXPECT_FALSE(runLab(s)); // refused before anything runs
}
