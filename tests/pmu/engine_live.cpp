// SPDX-License-Identifier: GPL-3.0-or-later
// Live on this machine: sample a child we launch with a software event (cpu-clock, which works without a hardware
// PMU) and user callchains, through the real perf_event_open, mmap ring, RingReader, RecordDecoder and Symbolizer
// (MMAP2 records + libdwfl), and find the child's own function names. Also the "no hardware PMU" advice.
#include "core/Time.h"
#include "pmu/EventEncoder.h"
#include "pmu/PerfSession.h"
#include "pmu/Recipes.h"
#include "pmu/Symbolizer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace rdt::pmu;

TEST(LivePerf, CpuClockCallchainsSymbolizeChildFunctions)
{
    LinuxPerfSyscalls sys;
    const PerfEnvironment env = sys.environment();
    if (env.paranoidKnown && env.paranoid > 2 && !env.isRoot)
        GTEST_SKIP() << "perf_event_paranoid=" << env.paranoid << " forbids unprivileged perf here";
    RecipeOptions opt;
    opt.frequency = 2000;
    const Recipe recipe = cpuClockRecipe(opt);
    EXPECT_TRUE(recipe.events[0].attr.useClockid());
    PerfTarget target;
    target.command = { PMU_LIVE_TARGET, "0.8" };
    const std::uint64_t before = rdt::monotonicNs();
    auto session = PerfSession::open(sys, recipe, target, 64);
    ASSERT_TRUE(session) << session.error().toString();
    ASSERT_TRUE((*session)->start());
    Symbolizer symbols;
    std::uint64_t outsideWindow = 0, firstTime = 0;
    std::set<std::string> leafNames, chainNames;
    std::uint64_t samples = 0, childSamples = 0;
    std::string innerSource;
    const pid_t child = (*session)->childPid();
    auto consume = [&](const DecodedRecord& r) {
        symbols.onRecord(r);
        if (r.kind != RecordKind::Sample) return;
        ++samples;
        if (static_cast<pid_t>(r.sample.pid) != child) return;
        ++childSamples;
        // use_clockid = CLOCK_MONOTONIC: sample times lie on the clock the RDT timelines use.
        if (r.sample.time < before || r.sample.time > rdt::monotonicNs()) ++outsideWindow;
        if (!firstTime) firstTime = r.sample.time;
        const SymbolInfo& leaf = symbols.resolve(r.sample.pid, r.sample.ip);
        leafNames.insert(leaf.function);
        if (leaf.function == "rdtscope_live_inner")
            innerSource = leaf.sourceFile + ":" + std::to_string(leaf.line); // DWARF line table via libdwfl
        for (auto ip : r.sample.callchain)
            if (!perf::isContextMarker(ip)) chainNames.insert(symbols.resolve(r.sample.pid, ip).function);
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!(*session)->childExited() && std::chrono::steady_clock::now() < deadline) {
        (*session)->drain(consume);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    (*session)->drain(consume);
    ASSERT_TRUE((*session)->childExited());
    EXPECT_TRUE(WIFEXITED((*session)->childStatus()) && WEXITSTATUS((*session)->childStatus()) == 0);
    EXPECT_EQ((*session)->decodeErrors(), 0u);
    EXPECT_EQ(symbols.comm(static_cast<std::uint32_t>(child)), "pmu_live_target");
    EXPECT_GT(childSamples, 50u) << "0.8 s of CPU at 2 kHz";
    EXPECT_EQ(outsideWindow, 0u) << "first sample time " << firstTime << ", CLOCK_MONOTONIC at open " << before;
    std::string seen;
    for (const auto& n : leafNames)
        seen += n + "; ";
    EXPECT_TRUE(leafNames.count("rdtscope_live_inner")) << "leaf functions seen: " << seen;
    std::string chain;
    for (const auto& n : chainNames)
        chain += n + "; ";
    EXPECT_TRUE(chainNames.count("rdtscope_live_outer")) << "callchain functions seen: " << chain;
    EXPECT_TRUE(chainNames.count("main"));
    EXPECT_NE(innerSource.find("pmu_live_target.c:"), std::string::npos) << innerSource;
}

TEST(LivePerf, AttachToRunningProcessByPidWithProcMaps)
{
    LinuxPerfSyscalls sys;
    const PerfEnvironment env = sys.environment();
    if (env.paranoidKnown && env.paranoid > 2 && !env.isRoot) GTEST_SKIP() << "perf_event_paranoid=" << env.paranoid;
    const pid_t child = ::fork();
    if (child == 0) {
        ::execl(PMU_LIVE_TARGET, PMU_LIVE_TARGET, "1.5", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ASSERT_GT(child, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(150)); // let it exec and start spinning
    Symbolizer symbols;
    ASSERT_TRUE(symbols.loadProcMaps(static_cast<std::uint32_t>(child))); // attached late: no MMAP2 records
    RecipeOptions opt;
    opt.frequency = 2000;
    PerfTarget target;
    target.pids = { child };
    auto session = PerfSession::open(sys, cpuClockRecipe(opt), target, 16);
    ASSERT_TRUE(session) << session.error().toString();
    ASSERT_TRUE((*session)->start());
    std::set<std::string> names;
    std::uint64_t samples = 0;
    auto consume = [&](const DecodedRecord& r) {
        if (r.kind != RecordKind::Sample || static_cast<pid_t>(r.sample.pid) != child) return;
        ++samples;
        names.insert(symbols.resolve(r.sample.pid, r.sample.ip).function);
    };
    for (int i = 0; i < 25; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        (*session)->drain(consume);
    }
    (void)(*session)->stop();
    (*session)->drain(consume);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_EQ(symbols.comm(static_cast<std::uint32_t>(child)), "pmu_live_target");
    EXPECT_GT(samples, 20u);
    EXPECT_TRUE(names.count("rdtscope_live_inner"));
}

TEST(LivePerf, LaunchingAMissingCommandFails)
{
    LinuxPerfSyscalls sys;
    PerfTarget target;
    target.command = { "/nonexistent/rdtscope-no-such-command" };
    auto session = PerfSession::open(sys, cpuClockRecipe(), target, 8);
    if (!session) GTEST_SKIP() << session.error().toString();
    auto st = (*session)->start();
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, ENOENT);
}

TEST(LivePerf, NoHardwarePmuAdviceOnThisMachine)
{
    LinuxPerfSyscalls sys;
    const PerfEnvironment env = sys.environment();
    if (env.hasCpuPmu || env.hasCpuCorePmu) GTEST_SKIP() << "this machine has a core PMU";
    // What the kernel says to a raw Intel event here, turned into advice.
    EventAttr attr;
    attr.type = TypeRaw;
    attr.config = 0x0400; // slots
    attr.size = perf::AttrSizeVer8;
    attr.setFlag(EventAttr::FlagExcludeKernel, true);
    attr.setFlag(EventAttr::FlagDisabled, true);
    auto fd = sys.open(attr, 0, -1, -1, 0);
    ASSERT_FALSE(fd) << "a raw PMU event opened although /sys/bus/event_source/devices/cpu is missing";
    const rdt::Error e = openAdvice(fd.error().code, attr, "slots", env, false);
    EXPECT_NE(e.advice.find("no hardware PMU"), std::string::npos) << e.toString();
    EXPECT_NE(e.advice.find("/sys/bus/event_source/devices/cpu"), std::string::npos);
    if (env.hypervisor) {
        EXPECT_NE(e.advice.find("virtual machine"), std::string::npos) << e.toString();
    }
}

TEST(PerfAdvice, ParanoidAndUnsupportedEvents)
{
    PerfEnvironment env;
    env.hasCpuPmu = true;
    env.paranoid = 2;
    env.paranoidKnown = true;
    EventAttr attr;
    attr.type = TypeRaw;
    auto sys = openAdvice(EACCES, attr, "slots", env, true);
    EXPECT_NE(sys.advice.find("perf_event_paranoid is 2"), std::string::npos);
    EXPECT_NE(sys.advice.find("CAP_PERFMON"), std::string::npos);
    auto kernel = openAdvice(EACCES, attr, "slots", env, false);
    EXPECT_NE(kernel.advice.find("<= 1"), std::string::npos) << kernel.advice;
    auto unsupported = openAdvice(ENOENT, attr, "TOPDOWN.SLOTS", env, false);
    EXPECT_NE(unsupported.advice.find("not supported on this CPU model"), std::string::npos);
    attr.sampleType = perf::SampleBranchStack;
    auto lbr = openAdvice(EOPNOTSUPP, attr, "cycles", env, false);
    EXPECT_NE(lbr.advice.find("LBR"), std::string::npos);
    // Software events never blame the missing core PMU.
    env.hasCpuPmu = false;
    EventAttr sw;
    sw.type = TypeSoftware;
    auto e = openAdvice(EINVAL, sw, "cpu-clock", env, false);
    EXPECT_EQ(e.advice.find("no hardware PMU"), std::string::npos);
}
