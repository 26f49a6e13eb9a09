// SPDX-License-Identifier: GPL-3.0-or-later
// TMA counted for a cgroup (PerfTarget::cgroupFd): the recipe's group opened once per CPU with the cgroup
// directory's fd as pid and PERF_FLAG_PID_CGROUP (perf_event_open(2) "cgroup monitoring"), attrs byte for byte the
// recipe's (leader disabled until start, no inherit), and the per-CPU group reads summed into one breakdown.
#include "pmu/EventEncoder.h"
#include "pmu/PerfSession.h"
#include "pmu/Recipes.h"
#include "pmu/RecordDecoder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/eventfd.h>
#include <unistd.h>

using namespace rdt;
using namespace rdt::pmu;

namespace {

struct Opened {
    EventAttr attr;
    pid_t pid = 0;
    int cpu = 0;
    int groupFd = 0;
    unsigned long flags = 0;
    int fd = -1;
};

/// Records every open; a read of a leader returns its group (PERF_FORMAT_GROUP|TOTAL_TIME_*|ID) with fixed counts
/// per member, in slots as the kernel reports Ice Lake's metric events (icl_get_metrics_event_value).
class FakeCgroupPerf final : public PerfSyscalls {
public:
    std::vector<Opened> opens;
    std::vector<std::uint64_t> perMember { 1000, 400, 100, 200, 300 }; ///< slots, retiring, bad spec, FE, BE

    Result<UniqueFd> open(const EventAttr& attr, pid_t pid, int cpu, int groupFd, unsigned long flags) override
    {
        UniqueFd fd(::eventfd(0, EFD_CLOEXEC));
        opens.push_back({ attr, pid, cpu, groupFd, flags, fd.get() });
        return fd;
    }
    Status ioctl(int, unsigned long, unsigned long) override { return {}; }
    Result<MappedRegion> mmap(int, std::size_t) override { return makeError("counting only"); }
    Result<std::size_t> read(int fd, std::span<std::byte> out) override
    {
        std::vector<std::uint64_t> words { perMember.size(), 5'000'000, 5'000'000 };
        for (std::size_t i = 0; i < perMember.size(); ++i) {
            words.push_back(perMember[i]);
            words.push_back(i + 1); // id
        }
        const std::size_t bytes = words.size() * 8;
        if (out.size() < bytes || opens.empty()) return errnoError(EBADF, "read");
        bool leader = false;
        for (const auto& o : opens)
            leader = leader || (o.fd == fd && o.groupFd == -1);
        if (!leader) return errnoError(EBADF, "read of a member");
        std::memcpy(out.data(), words.data(), bytes);
        return bytes;
    }
    PerfEnvironment environment() override
    {
        PerfEnvironment env;
        env.hasCpuPmu = true;
        env.isRoot = true;
        return env;
    }
};

} // namespace

TEST(CgroupTma, OneGroupPerCpuOnTheCgroupFdWithTheRecipesAttrs)
{
    auto enc = EventEncoder::forModel(modelForPfmName("icx"));
    auto recipe = tmaRecipe(enc);
    ASSERT_TRUE(recipe) << recipe.error().toString();
    ASSERT_EQ(recipe->events.size(), 5u); // Ice Lake-SP: slots and the four level-1 metric events
    EXPECT_EQ(recipe->events[0].attr.config, 0x400u); // slots (event 0, umask 4)

    const int cgroup = ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC); // any directory fd: the fake keeps it
    ASSERT_GE(cgroup, 0);
    FakeCgroupPerf sys;
    PerfTarget target;
    target.cgroupFd = cgroup;
    auto session = PerfSession::open(sys, *recipe, target);
    ASSERT_TRUE(session) << session.error().toString();

    const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
    ASSERT_EQ(sys.opens.size(), static_cast<std::size_t>(cpus) * recipe->events.size());
    for (std::size_t i = 0; i < sys.opens.size(); ++i) {
        const Opened& o = sys.opens[i];
        const std::size_t member = i % recipe->events.size();
        EXPECT_EQ(o.pid, cgroup);
        EXPECT_GE(o.cpu, 0);
        EXPECT_EQ(o.flags, static_cast<unsigned long>(PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC));
        EXPECT_EQ(o.groupFd, member == 0 ? -1 : sys.opens[i - member].fd);
        EXPECT_EQ(o.cpu, sys.opens[i - member].cpu) << "a group stays on one CPU";
        EventAttr expected = recipe->events[member].attr;
        expected.setFlag(EventAttr::FlagDisabled, member == 0);
        expected.setFlag(1, false); // no inherit on a per-CPU event
        EXPECT_EQ(serializeEventAttr(o.attr), serializeEventAttr(expected)) << "member " << member;
    }

    auto read = (*session)->readGroups();
    ASSERT_TRUE(read) << read.error().toString();
    const TmaBreakdown tma = tmaFromGroupRead(*recipe, *read);
    ASSERT_TRUE(tma.valid) << tma.note;
    EXPECT_DOUBLE_EQ(tma.slots, 1000.0 * static_cast<double>(cpus)); // summed over the CPUs
    EXPECT_DOUBLE_EQ(tma.level1.retiring, 0.4);
    EXPECT_DOUBLE_EQ(tma.level1.badSpeculation, 0.1);
    EXPECT_DOUBLE_EQ(tma.level1.frontendBound, 0.2);
    EXPECT_DOUBLE_EQ(tma.level1.backendBound, 0.3);
    ::close(cgroup);
}

TEST(CgroupTma, ACgroupIsOneTargetOnly)
{
    auto enc = EventEncoder::forModel(modelForPfmName("icx"));
    auto recipe = tmaRecipe(enc);
    ASSERT_TRUE(recipe);
    FakeCgroupPerf sys;
    PerfTarget target;
    target.cgroupFd = 3;
    target.systemWide = true;
    auto session = PerfSession::open(sys, *recipe, target);
    ASSERT_FALSE(session);
    EXPECT_NE(session.error().message.find("a cgroup"), std::string::npos) << session.error().message;
    EXPECT_TRUE(sys.opens.empty());
}
