// SPDX-License-Identifier: GPL-3.0-or-later
// --metrics-tma on a real source: a pod's cgroup from a task's /proc/PID/cgroup, and its TMA slots counted on that
// cgroup through a fake perf kernel (the cgroup tree is a temporary directory).
#include "metrics/CgroupTma.h"
#include "metrics/PodTma.h"
#include "pmu/EventEncoder.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/eventfd.h>
#include <unistd.h>

using namespace rdt;

namespace {

/// Every leader read returns the Ice Lake group (slots, retiring, bad spec, FE, BE, in slots) times `scale`.
class FakePerf final : public pmu::PerfSyscalls {
public:
    std::vector<pid_t> pids;
    std::vector<int> leaders;
    std::uint64_t scale = 1;

    Result<UniqueFd> open(const pmu::EventAttr&, pid_t pid, int, int groupFd, unsigned long) override
    {
        UniqueFd fd(::eventfd(0, EFD_CLOEXEC));
        pids.push_back(pid);
        if (groupFd == -1) leaders.push_back(fd.get());
        return fd;
    }
    Status ioctl(int, unsigned long, unsigned long) override { return {}; }
    Result<MappedRegion> mmap(int, std::size_t) override { return makeError("counting only"); }
    Result<std::size_t> read(int fd, std::span<std::byte> out) override
    {
        if (std::find(leaders.begin(), leaders.end(), fd) == leaders.end()) return errnoError(EBADF, "read");
        const std::uint64_t k = scale;
        std::vector<std::uint64_t> words { 5, 1000, 1000 };
        std::uint64_t id = 1;
        for (std::uint64_t v : { 1000u, 400u, 100u, 200u, 300u }) {
            words.push_back(v * k);
            words.push_back(id++);
        }
        if (out.size() < words.size() * 8) return errnoError(EINVAL, "read");
        std::memcpy(out.data(), words.data(), words.size() * 8);
        return words.size() * 8;
    }
    pmu::PerfEnvironment environment() override
    {
        pmu::PerfEnvironment env;
        env.hasCpuPmu = true;
        env.isRoot = true;
        return env;
    }
};

} // namespace

TEST(MetricsCgroupTma, PodCgroupDirFromProcPidCgroup)
{
    EXPECT_EQ(metrics::podCgroupDir("0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod9a8b7c6d_"
                                    "5e4f_4a3b_8c9d_0e1f2a3b4c5d.slice/cri-containerd-"
                                    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope\n"),
        "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod9a8b7c6d_5e4f_4a3b_8c9d_0e1f2a3b4c5d.slice");
    EXPECT_EQ(metrics::podCgroupDir("12:cpuset:/x\n0::/kubepods/burstable/pod0f1e2d3c-4b5a-6978-8a9b-"
                                    "0c1d2e3f4a5b/abcdef0123456789\n"),
        "/kubepods/burstable/pod0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b");
    EXPECT_FALSE(metrics::podCgroupDir("0::/system.slice/sshd.service\n"));
    // cgroup v1 (cgroupfs driver) and hybrid (systemd driver): perf_event's own hierarchy is where perf counts.
    EXPECT_EQ(metrics::podCgroupDir("11:memory:/kubepods/pod0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b/x\n"
                                    "4:perf_event:/kubepods/pod0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b/x\n"),
        "/perf_event/kubepods/pod0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b");
    EXPECT_EQ(metrics::podCgroupDir("7:perf_event:/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-"
                                    "pod9a8b7c6d_5e4f_4a3b_8c9d_0e1f2a3b4c5d.slice/cri-containerd-0123.scope\n"
                                    "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-"
                                    "pod9a8b7c6d_5e4f_4a3b_8c9d_0e1f2a3b4c5d.slice/cri-containerd-0123.scope\n"),
        "/perf_event/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod9a8b7c6d_5e4f_4a3b_8c9d_"
        "0e1f2a3b4c5d.slice");
    // perf_event bound to v1 with the task outside any pod there: the v2 directory cannot be counted either.
    EXPECT_FALSE(metrics::podCgroupDir("12:perf_event:/x\n0::/kubepods/burstable/pod0f1e2d3c-4b5a-6978-8a9b-"
                                       "0c1d2e3f4a5b/abcdef0123456789\n"));
    EXPECT_FALSE(metrics::podCgroupDir("4:perf_event,net_cls:/system.slice/x\n"));
    EXPECT_FALSE(metrics::podCgroupDir("garbage\n::\n"));
}

TEST(MetricsCgroupTma, CountsThePodsCgroupCumulatively)
{
    auto recipe = pmu::tmaRecipe(pmu::EventEncoder::forModel(pmu::modelForPfmName("icx")));
    ASSERT_TRUE(recipe) << recipe.error().toString();
    const std::string root = std::filesystem::temp_directory_path() / ("rdtscope-cgtma-" + std::to_string(::getpid()));
    const std::string pod = "/kubepods/pod0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b";
    std::filesystem::create_directories(root + pod);
    auto fake = std::make_unique<FakePerf>();
    FakePerf* sys = fake.get();
    metrics::CgroupTmaCounter counter(std::move(fake), *recipe, root);

    auto first = counter.count(pod);
    ASSERT_TRUE(first) << first.error().toString();
    const auto cpus = static_cast<double>(::sysconf(_SC_NPROCESSORS_ONLN));
    ASSERT_FALSE(sys->pids.empty());
    for (pid_t pid : sys->pids)
        EXPECT_GE(pid, 0) << "the cgroup directory's fd";
    EXPECT_DOUBLE_EQ(first->retiring, 400 * cpus);
    EXPECT_DOUBLE_EQ(first->badSpeculation, 100 * cpus);
    EXPECT_DOUBLE_EQ(first->frontendBound, 200 * cpus);
    EXPECT_DOUBLE_EQ(first->backendBound, 300 * cpus);
    const auto opens = sys->pids.size();
    sys->scale = 3; // the counters ran on
    auto second = counter.count(pod);
    ASSERT_TRUE(second);
    EXPECT_EQ(sys->pids.size(), opens) << "kept open between counts";
    EXPECT_DOUBLE_EQ(second->retiring, 3 * first->retiring);

    auto missing = counter.count("/kubepods/podnothere");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("cannot open the cgroup"), std::string::npos);
    std::filesystem::remove_all(root);
}

TEST(MetricsCgroupTma, OnlyPodGroupsAreCountedThroughTheirTasksPodCgroup)
{
    const std::string root = std::filesystem::temp_directory_path() / ("rdtscope-podtma-" + std::to_string(::getpid()));
    const std::string pod = "/kubepods.slice/kubepods-pod0f1e2d3c_4b5a_6978_8a9b_0c1d2e3f4a5b.slice";
    std::filesystem::create_directories(root + "/cgroup" + pod);
    std::filesystem::create_directories(root + "/proc/4242");
    std::filesystem::create_directories(root + "/proc/77");
    std::ofstream(root + "/proc/4242/cgroup") << "0::" << pod << "/cri-containerd-0123456789abcdef.scope\n";
    std::ofstream(root + "/proc/77/cgroup") << "0::/system.slice/sshd.service\n";
    FakePerf* sys = nullptr;
    std::vector<std::string> log;
    auto counter = metrics::podTmaCounter(
        root + "/proc", root + "/cgroup", 1234,
        [&] {
            auto fake = std::make_unique<FakePerf>();
            sys = fake.get();
            return fake;
        },
        [&](const std::string& line) { log.push_back(line); },
        [] { return pmu::tmaRecipe(pmu::EventEncoder::forModel(pmu::modelForPfmName("icx"))); });

    const auto slots = counter.count("rdtscope-agent.1234.pod-0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b", { 77, 4242 });
    ASSERT_TRUE(slots) << (log.empty() ? "" : log.back());
    ASSERT_NE(sys, nullptr);
    EXPECT_GT(slots->retiring, 0);
    EXPECT_TRUE(log.empty()) << log.front();

    EXPECT_FALSE(counter.count("p0", { 4242 }));
    EXPECT_FALSE(counter.count("p0", { 4242 }));
    EXPECT_FALSE(counter.count("p0/mon_groups/rdtscope-agent.999.pod-x", { 4242 })) << "another agent's pod group";
    EXPECT_FALSE(counter.count("rdtscope-agent.1234.pod-other", { 77 })) << "no task in a pod";
    ASSERT_EQ(log.size(), 3u);
    EXPECT_NE(log[0].find("group p0 is not counted: only --monitor-pods groups"), std::string::npos) << log[0];
    EXPECT_NE(log[2].find("no task of it is in a pod's cgroup"), std::string::npos) << log[2];

    // A round without the pod closes its counters; asked again later, it is opened anew (nothing leaks meanwhile).
    const std::string podGroup = "rdtscope-agent.1234.pod-0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b";
    counter.endRound(); // this round asked for the pod: kept
    const auto opened = sys->pids.size();
    ASSERT_TRUE(counter.count(podGroup, { 4242 }));
    EXPECT_EQ(sys->pids.size(), opened) << "a pod still counted keeps its counters";
    counter.endRound();
    counter.endRound(); // a round in which the pod was not asked for: its counters close
    ASSERT_TRUE(counter.count(podGroup, { 4242 }));
    EXPECT_EQ(sys->pids.size(), 2 * opened) << "the pod's counters were closed and opened again";
    std::filesystem::remove_all(root);
}

// A cgroup v1 node (cgroupfs driver): the pod's directory in the perf_event hierarchy is the one counted.
TEST(MetricsCgroupTma, OnCgroupV1ThePodsPerfEventDirectoryIsCounted)
{
    const std::string root
        = std::filesystem::temp_directory_path() / ("rdtscope-podtma-v1-" + std::to_string(::getpid()));
    const std::string pod = "/kubepods/burstable/pod0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b";
    std::filesystem::create_directories(root + "/cgroup/perf_event" + pod);
    std::filesystem::create_directories(root + "/proc/4242");
    std::ofstream(root + "/proc/4242/cgroup")
        << "12:memory:" << pod << "/abcdef\n4:perf_event:" << pod << "/abcdef\n1:name=systemd:" << pod << "/abcdef\n";
    std::vector<std::string> log;
    auto counter = metrics::podTmaCounter(
        root + "/proc", root + "/cgroup", 1234, [] { return std::make_unique<FakePerf>(); },
        [&](const std::string& line) { log.push_back(line); },
        [] { return pmu::tmaRecipe(pmu::EventEncoder::forModel(pmu::modelForPfmName("icx"))); });
    const auto slots = counter.count("rdtscope-agent.1234.pod-0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b", { 4242 });
    ASSERT_TRUE(slots) << (log.empty() ? "" : log.back());
    EXPECT_GT(slots->retiring, 0);
    EXPECT_TRUE(log.empty()) << log.front();

    // Without the perf_event hierarchy's directory the error names the path it tried.
    std::filesystem::remove_all(root + "/cgroup/perf_event");
    counter.endRound();
    counter.endRound();
    EXPECT_FALSE(counter.count("rdtscope-agent.1234.pod-0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b", { 4242 }));
    ASSERT_FALSE(log.empty());
    EXPECT_NE(log.back().find("/cgroup/perf_event/kubepods/burstable/pod0f1e2d3c"), std::string::npos) << log.back();
    std::filesystem::remove_all(root);
}
