// SPDX-License-Identifier: GPL-3.0-or-later
// A launched command shared by several recipes (perf's evlist__prepare_workload / evlist__start_workload): one
// fork, every session's events on the corked child with enable_on_exec, exec errors reported by errno, and no
// zombie left whatever happens. Through a fake PerfSyscalls (runs anywhere) and the real kernel with software
// events (task-clock, cpu-clock, page-faults, context-switches: no hardware PMU needed).
#include "pmu/PerfSession.h"
#include "pmu/Recipes.h"
#include "pmu/Workload.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <linux/perf_event.h>
#include <sstream>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace rdt::pmu;
using rdt::Result;
using rdt::Status;
using rdt::UniqueFd;

namespace {

constexpr std::uint64_t SwPageFaults = 2, SwContextSwitches = 3;

/// A counting group of software events (the leader first), user space only so it opens at paranoid 2.
Recipe softwareCounting(const std::string& name, std::vector<std::pair<const char*, std::uint64_t>> events)
{
    Recipe r;
    r.name = name;
    r.counting = true;
    for (const auto& [n, config] : events) {
        RecipeEvent e;
        e.name = n;
        e.attr.type = TypeSoftware;
        e.attr.config = config;
        e.attr.size = perf::AttrSizeVer8;
        e.attr.readFormat = perf::ReadGroup | perf::ReadTotalTimeEnabled | perf::ReadTotalTimeRunning | perf::ReadId;
        e.attr.setFlag(EventAttr::FlagExcludeKernel, true);
        e.attr.setFlag(EventAttr::FlagExcludeHv, true);
        r.events.push_back(std::move(e));
    }
    return r;
}

std::vector<Recipe> twoCountingRecipes()
{
    return { softwareCounting("task", { { "task-clock", SwTaskClock }, { "page-faults", SwPageFaults } }),
        softwareCounting("cpu", { { "cpu-clock", SwCpuClock }, { "context-switches", SwContextSwitches } }) };
}

/// Records what the sessions ask of the kernel; fds are eventfds so they are real and closable.
class FakePerf final : public PerfSyscalls {
public:
    struct Open {
        EventAttr attr;
        pid_t pid;
        int cpu;
        int group;
    };
    std::vector<Open> opens;
    std::vector<unsigned long> ioctls;
    std::uint64_t nextId = 100;

    Result<UniqueFd> open(const EventAttr& attr, pid_t pid, int cpu, int groupFd, unsigned long) override
    {
        opens.push_back({ attr, pid, cpu, groupFd });
        return UniqueFd(::eventfd(0, EFD_CLOEXEC));
    }
    Status ioctl(int, unsigned long request, unsigned long arg) override
    {
        ioctls.push_back(request);
        if (request == PERF_EVENT_IOC_ID) *reinterpret_cast<std::uint64_t*>(arg) = nextId++;
        return {};
    }
    Result<rdt::MappedRegion> mmap(int, std::size_t) override { return rdt::makeError("no rings in this fake"); }
    Result<std::size_t> read(int, std::span<std::byte>) override { return rdt::makeError("no reads in this fake"); }
    PerfEnvironment environment() override { return {}; }
};

struct TempDir {
    std::string path;
    TempDir()
    {
        char tmpl[] = "/tmp/rdtscope-workload-XXXXXX";
        path = ::mkdtemp(tmpl);
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

std::string slurp(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// True when `pid` is no child of ours any more (reaped: waitpid says ECHILD), i.e. no zombie was left.
bool reaped(pid_t pid)
{
    int st = 0;
    return ::waitpid(pid, &st, WNOHANG) == -1 && errno == ECHILD;
}

bool waitExit(PerfSession& s, int seconds = 20)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (!s.childExited() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return s.childExited();
}

} // namespace

TEST(Workload, SeveralRecipesShareOneCorkedChildWithEnableOnExec)
{
    TempDir dir;
    const std::string log = dir.path + "/runs";
    FakePerf sys;
    PerfTarget target;
    target.command = { "/bin/sh", "-c", "echo run >> " + log + "; exit 3" };
    auto sessions = openSessions(sys, twoCountingRecipes(), target, 8);
    ASSERT_TRUE(sessions) << sessions.error().toString();
    ASSERT_EQ(sessions->size(), 2u);
    const pid_t child = (*sessions)[0]->childPid();
    ASSERT_GT(child, 0);
    EXPECT_EQ((*sessions)[1]->childPid(), child) << "one fork for every recipe";
    EXPECT_EQ((*sessions)[0]->workload(), (*sessions)[1]->workload());
    ASSERT_EQ(sys.opens.size(), 4u);
    for (std::size_t i = 0; i < sys.opens.size(); ++i) {
        const auto& o = sys.opens[i];
        EXPECT_EQ(o.pid, child);
        EXPECT_EQ(o.cpu, -1) << "counting groups are per task";
        const bool leader = i % 2 == 0;
        EXPECT_EQ(o.group == -1, leader);
        EXPECT_EQ(o.attr.flag(EventAttr::FlagEnableOnExec), leader) << "the leader enables the group at exec";
        EXPECT_EQ(o.attr.flag(EventAttr::FlagDisabled), leader);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(slurp(log).empty()) << "the command must not run before start()";
    EXPECT_FALSE((*sessions)[0]->childExited());
    for (auto& s : *sessions)
        ASSERT_TRUE(s->start());
    for (unsigned long req : sys.ioctls)
        EXPECT_NE(req, static_cast<unsigned long>(PERF_EVENT_IOC_ENABLE)) << "enable_on_exec, not an ioctl";
    ASSERT_TRUE(waitExit(*(*sessions)[1]));
    EXPECT_TRUE((*sessions)[0]->childExited()) << "both sessions see the one child exit";
    const int st = (*sessions)[0]->childStatus();
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 3) << st;
    EXPECT_EQ(slurp(log), "run\n") << "the command ran exactly once";
    sessions->clear();
    EXPECT_TRUE(reaped(child));
}

TEST(Workload, MissingCommandReportsExecErrnoAndLeavesNoZombie)
{
    FakePerf sys;
    PerfTarget target;
    target.command = { "rdtscope-no-such-command-xyz", "--flag" };
    auto sessions = openSessions(sys, twoCountingRecipes(), target, 8);
    ASSERT_TRUE(sessions) << sessions.error().toString();
    const pid_t child = (*sessions)[0]->childPid();
    auto st = (*sessions)[0]->start();
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, ENOENT);
    const std::string text = st.error().toString();
    EXPECT_NE(text.find("cannot run 'rdtscope-no-such-command-xyz': No such file or directory"), std::string::npos)
        << text;
    EXPECT_NE(text.find("PATH"), std::string::npos) << text;
    auto again = (*sessions)[1]->start();
    ASSERT_FALSE(again) << "the second session sees the same failure";
    EXPECT_EQ(again.error().code, ENOENT);
    EXPECT_TRUE((*sessions)[0]->childExited());
    EXPECT_TRUE(reaped(child)) << "the failed child was reaped at once";
}

TEST(Workload, NotStartedChildNeverExecs)
{
    TempDir dir;
    const std::string marker = dir.path + "/ran";
    pid_t child = -1;
    {
        auto w = Workload::prepare({ "/usr/bin/touch", marker });
        ASSERT_TRUE(w) << w.error().toString();
        child = (*w)->pid();
        EXPECT_FALSE((*w)->exited());
    } // opening the events failed, say: dropping the workload releases the corked child without exec
    EXPECT_TRUE(reaped(child));
    EXPECT_TRUE(slurp(marker).empty());
    EXPECT_NE(::access(marker.c_str(), F_OK), 0) << "touch must not have run";
}

TEST(Workload, OpenFailureDropsTheCorkedChild)
{
    // A fake kernel that refuses the second recipe: openSessions fails, the child never runs and is reaped.
    class Refusing final : public PerfSyscalls {
    public:
        int calls = 0;
        pid_t pid = -1;
        Result<UniqueFd> open(const EventAttr&, pid_t p, int, int, unsigned long) override
        {
            pid = p;
            if (++calls > 2) return rdt::errnoError(EACCES, "perf_event_open");
            return UniqueFd(::eventfd(0, EFD_CLOEXEC));
        }
        Status ioctl(int, unsigned long, unsigned long) override { return {}; }
        Result<rdt::MappedRegion> mmap(int, std::size_t) override { return rdt::makeError("none"); }
        Result<std::size_t> read(int, std::span<std::byte>) override { return rdt::makeError("none"); }
        PerfEnvironment environment() override { return {}; }
    } sys;
    TempDir dir;
    const std::string marker = dir.path + "/ran";
    PerfTarget target;
    target.command = { "/usr/bin/touch", marker };
    auto sessions = openSessions(sys, twoCountingRecipes(), target, 8);
    ASSERT_FALSE(sessions);
    EXPECT_EQ(sessions.error().code, EACCES);
    ASSERT_GT(sys.pid, 0);
    EXPECT_TRUE(reaped(sys.pid));
    EXPECT_NE(::access(marker.c_str(), F_OK), 0);
}

TEST(Workload, StoppingTheRunEndsALongCommand)
{
    FakePerf sys;
    PerfTarget target;
    target.command = { "sleep", "30" };
    auto sessions = openSessions(sys, twoCountingRecipes(), target, 8);
    ASSERT_TRUE(sessions) << sessions.error().toString();
    for (auto& s : *sessions)
        ASSERT_TRUE(s->start());
    const std::shared_ptr<Workload> w = (*sessions)[0]->workload();
    const pid_t child = w->pid();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(w->exited());
    const auto t0 = std::chrono::steady_clock::now();
    sessions->clear();
    EXPECT_FALSE(w->exited()) << "the test still holds the workload";
    w->stop();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    EXPECT_TRUE(w->exited());
    EXPECT_TRUE(WIFSIGNALED(w->status()) && WTERMSIG(w->status()) == SIGTERM) << w->status();
    EXPECT_TRUE(reaped(child));
}

TEST(Workload, ACommandIgnoringSigtermIsKilled)
{
    auto w = Workload::prepare({ "/bin/sh", "-c", "trap '' TERM; while :; do :; done" });
    ASSERT_TRUE(w) << w.error().toString();
    ASSERT_TRUE((*w)->start());
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // let the shell install its trap
    (*w)->stop(200);
    EXPECT_TRUE((*w)->exited());
    EXPECT_TRUE(WIFSIGNALED((*w)->status()) && WTERMSIG((*w)->status()) == SIGKILL) << (*w)->status();
    EXPECT_TRUE(reaped((*w)->pid()));
}

TEST(Workload, AChildThatDiedBeforeStartIsAnErrorNotASigpipe)
{
    auto w = Workload::prepare({ "/bin/true" });
    ASSERT_TRUE(w) << w.error().toString();
    const pid_t child = (*w)->pid();
    ASSERT_EQ(::kill(child, SIGKILL), 0); // e.g. the OOM killer, or a user's kill, while the events were opening
    // Wait until it is a zombie (not reaped: the Workload must do that), so its end of the cork is closed.
    const std::string statPath = "/proc/" + std::to_string(child) + "/stat";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        const std::string stat = slurp(statPath);
        const auto paren = stat.rfind(')');
        if (paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z') break;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    auto st = (*w)->start(); // writing to a dead child's pipe would raise SIGPIPE and end this test program
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, EPIPE) << st.error().toString();
    EXPECT_NE(st.error().message.find("exited before exec"), std::string::npos) << st.error().toString();
    EXPECT_TRUE((*w)->exited());
    EXPECT_TRUE(WIFSIGNALED((*w)->status()) && WTERMSIG((*w)->status()) == SIGKILL);
    EXPECT_TRUE(reaped(child));
}

TEST(Workload, APidTargetLaunchesNothingAndEnablesByIoctl)
{
    FakePerf sys;
    PerfTarget target;
    target.pids = { ::getpid() };
    auto sessions = openSessions(sys, twoCountingRecipes(), target, 8);
    ASSERT_TRUE(sessions) << sessions.error().toString();
    for (auto& s : *sessions) {
        EXPECT_EQ(s->childPid(), -1);
        EXPECT_EQ(s->workload(), nullptr);
        EXPECT_FALSE(s->childExited()) << "nothing of ours to wait for";
        ASSERT_TRUE(s->start());
    }
    ASSERT_FALSE(sys.opens.empty());
    for (const auto& o : sys.opens)
        EXPECT_FALSE(o.attr.flag(EventAttr::FlagEnableOnExec)) << "a running process does not exec again";
    std::size_t enables = 0;
    for (unsigned long req : sys.ioctls)
        enables += req == static_cast<unsigned long>(PERF_EVENT_IOC_ENABLE) ? 1u : 0u;
    EXPECT_EQ(enables, sys.opens.size() / 2) << "one ENABLE per group leader";
}

TEST(Workload, SessionsRefuseAnAlreadyStartedWorkload)
{
    auto w = Workload::prepare({ "/bin/true" });
    ASSERT_TRUE(w);
    ASSERT_TRUE((*w)->start());
    FakePerf sys;
    PerfTarget target;
    target.workload = *w;
    auto s = PerfSession::open(sys, twoCountingRecipes()[0], target, 8);
    ASSERT_FALSE(s) << "enable_on_exec would never fire";
    EXPECT_NE(s.error().message.find("already started"), std::string::npos) << s.error().toString();
    target.pids = { ::getpid() };
    EXPECT_FALSE(PerfSession::open(sys, twoCountingRecipes()[0], target, 8)) << "a PID and a command at once";
    EXPECT_TRUE(sys.opens.empty());
}

TEST(LivePerf, OneLaunchedCommandCountedByEveryRecipe)
{
    LinuxPerfSyscalls sys;
    const PerfEnvironment env = sys.environment();
    {
        EventAttr probe = softwareCounting("probe", { { "task-clock", SwTaskClock } }).events[0].attr;
        auto fd = sys.open(probe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (!fd)
            GTEST_SKIP() << "perf_event_open(task-clock) refused here (perf_event_paranoid=" << env.paranoid
                         << "): " << openAdvice(fd.error().code, probe, "task-clock", env, false).toString();
    }
    TempDir dir;
    const std::string log = dir.path + "/runs";
    std::vector<Recipe> recipes = twoCountingRecipes();
    RecipeOptions opt;
    opt.frequency = 4000;
    recipes.push_back(cpuClockRecipe(opt)); // a sampling recipe too: per-CPU rings on the same child
    PerfTarget target;
    target.command
        = { "/bin/sh", "-c", "echo run >> " + log + "; i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done; exit 3" };
    auto sessions = openSessions(sys, recipes, target, 16);
    ASSERT_TRUE(sessions) << sessions.error().toString();
    const pid_t child = (*sessions)[0]->childPid();
    for (auto& s : *sessions) {
        EXPECT_EQ(s->childPid(), child);
        ASSERT_TRUE(s->start()) << "start";
    }
    std::uint64_t samples = 0;
    auto consume = [&](const DecodedRecord& r) {
        if (r.kind == RecordKind::Sample && static_cast<pid_t>(r.sample.pid) == child) ++samples;
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!(*sessions)[2]->childExited() && std::chrono::steady_clock::now() < deadline) {
        (*sessions)[2]->drain(consume);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE((*sessions)[0]->childExited());
    (*sessions)[2]->drain(consume);
    const int st = (*sessions)[0]->childStatus();
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 3) << st;
    EXPECT_EQ(slurp(log), "run\n") << "one child for three recipes";
    auto task = (*sessions)[0]->readGroups();
    auto cpu = (*sessions)[1]->readGroups();
    ASSERT_TRUE(task) << task.error().toString();
    ASSERT_TRUE(cpu) << cpu.error().toString();
    ASSERT_EQ(task->values.size(), 2u);
    EXPECT_GT(task->values[0].value, 0u) << "task-clock ns";
    EXPECT_GT(task->values[1].value, 0u) << "page-faults of exec and the shell";
    EXPECT_GT(task->timeEnabled, 0u);
    ASSERT_EQ(cpu->values.size(), 2u);
    EXPECT_GT(cpu->values[0].value, 0u) << "cpu-clock ns";
    EXPECT_GT(samples, 0u) << "cpu-clock samples of the child";
    sessions->clear();
    EXPECT_TRUE(reaped(child));
}
