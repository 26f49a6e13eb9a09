// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestTree.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Sampler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace rdt;
using rdt::test::TempTree;

namespace {
const RdtSample* find(const RdtSampleBatch& b, const std::string& group, int domain)
{
    for (const auto& s : b.samples)
        if (s.group == group && s.domain == domain) return &s;
    return nullptr;
}
}

TEST(Sampler, BandwidthFromDeltasAndRemote)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b.ok());
    Sampler sampler(**b, SamplerConfig { 10.0, 16, { "" }, 2e12 });
    t.write("mon_data/mon_L3_00/mbm_total_bytes", "1000\n");
    t.write("mon_data/mon_L3_00/mbm_local_bytes", "400\n");
    t.write("mon_data/mon_L3_00/llc_occupancy", "65536\n");
    auto first = sampler.pollOnce(1'000'000'000);
    ASSERT_TRUE(first.ok());
    const auto* s0 = find(*first, "", 0);
    ASSERT_NE(s0, nullptr);
    EXPECT_TRUE(s0->flags & SampleFirst);
    EXPECT_EQ(s0->mbmTotalBps, 0.0);
    EXPECT_EQ(s0->occupancyBytes, 65536u);
    t.write("mon_data/mon_L3_00/mbm_total_bytes", "201000\n");
    t.write("mon_data/mon_L3_00/mbm_local_bytes", "50400\n");
    auto second = sampler.pollOnce(1'100'000'000); // 100 ms later
    ASSERT_TRUE(second.ok());
    const auto* s1 = find(*second, "", 0);
    ASSERT_NE(s1, nullptr);
    EXPECT_EQ(s1->flags, 0u);
    EXPECT_DOUBLE_EQ(s1->mbmTotalBps, 2'000'000.0);
    EXPECT_DOUBLE_EQ(s1->mbmLocalBps, 500'000.0);
    EXPECT_DOUBLE_EQ(s1->mbmRemoteBps(), 1'500'000.0);
    EXPECT_EQ(s1->mbmTotalBytes, 201000u);
    // Both batches went into the queue.
    EXPECT_TRUE(sampler.queue().pop().has_value());
    EXPECT_TRUE(sampler.queue().pop().has_value());
    EXPECT_FALSE(sampler.queue().pop().has_value());
}

TEST(Sampler, ResetAndFlagsAreCarried)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig { 10.0, 16, { "" }, 2e12 });
    t.write("mon_data/mon_L3_01/mbm_total_bytes", "5000000\n");
    ASSERT_TRUE(sampler.pollOnce(1'000'000'000).ok());
    t.write("mon_data/mon_L3_01/mbm_total_bytes", "1000\n"); // group re-created: counter restarted
    t.write("mon_data/mon_L3_02/llc_occupancy", "Unavailable\n");
    t.write("mon_data/mon_L3_03/mbm_local_bytes", "Error\n");
    auto r = sampler.pollOnce(1'100'000'000);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(find(*r, "", 1)->flags & SampleCounterReset);
    EXPECT_DOUBLE_EQ(find(*r, "", 1)->mbmTotalBps, 10'000.0);
    EXPECT_TRUE(find(*r, "", 2)->flags & SampleOccupancyUnavailable);
    EXPECT_TRUE(find(*r, "", 3)->flags & SampleMbmLocalError);
    EXPECT_FALSE(find(*r, "", 3)->flags & kMbmTotalUnread); // the total read fine
}

// One counter file unreadable (here "Unavailable"; a missing one is the CLI test's case) leaves the other counter's
// rate known (resctrl.rst "Monitoring": each event is its own file); the bad counter's history is kept, so its next
// good read spans the gap.
TEST(Sampler, OneBadCounterLeavesTheOtherKnown)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b.ok());
    Sampler sampler(**b, SamplerConfig { 10.0, 16, { "" }, 2e12 });
    t.write("mon_data/mon_L3_00/mbm_total_bytes", "1000\n");
    t.write("mon_data/mon_L3_00/mbm_local_bytes", "400\n");
    ASSERT_TRUE(sampler.pollOnce(1'000'000'000).ok());
    t.write("mon_data/mon_L3_00/mbm_total_bytes", "201000\n");
    t.write("mon_data/mon_L3_00/mbm_local_bytes", "Unavailable\n");
    auto second = sampler.pollOnce(1'100'000'000);
    ASSERT_TRUE(second.ok());
    const auto* s1 = find(*second, "", 0);
    ASSERT_NE(s1, nullptr);
    EXPECT_EQ(s1->flags, std::uint32_t(SampleMbmLocalUnavailable));
    EXPECT_DOUBLE_EQ(s1->mbmTotalBps, 2'000'000.0);
    EXPECT_FALSE(s1->flags & kMbmTotalRateUnknown);
    EXPECT_TRUE(s1->flags & kMbmLocalRateUnknown);
    EXPECT_TRUE(s1->flags & kMbmRemoteRateUnknown);
    // The local counter comes back: its rate spans both intervals, from its last good read.
    t.write("mon_data/mon_L3_00/mbm_total_bytes", "401000\n");
    t.write("mon_data/mon_L3_00/mbm_local_bytes", "100400\n");
    auto third = sampler.pollOnce(1'200'000'000);
    ASSERT_TRUE(third.ok());
    const auto* s2 = find(*third, "", 0);
    EXPECT_EQ(s2->flags, 0u);
    EXPECT_DOUBLE_EQ(s2->mbmTotalBps, 2'000'000.0);
    EXPECT_DOUBLE_EQ(s2->mbmLocalBps, 500'000.0); // 100000 bytes over 200 ms
    EXPECT_EQ(s2->mbmLocalBytes, 100400u);
}

TEST(Sampler, QueueDropsAreCounted)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig { 10.0, 2, { "" }, 2e12 });
    for (int i = 1; i <= 5; ++i)
        ASSERT_TRUE(sampler.pollOnce(static_cast<std::uint64_t>(i) * 100'000'000).ok());
    EXPECT_EQ(sampler.queue().dropped(), 3u);
}

TEST(Sampler, SlowRateIsRaisedForNarrowCounters)
{
    // resctrl returns kernel-extended 64-bit counters: any rate is allowed.
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler slow(**b, SamplerConfig { 0.2, 4, {}, 0 });
    EXPECT_EQ(slow.intervalNs(), 5'000'000'000u);
    EXPECT_TRUE(slow.rateNote().empty());
    Sampler def(**b, SamplerConfig {});
    EXPECT_EQ(def.intervalNs(), 100'000'000u);
}

TEST(Sampler, PollErrorsAreCountedNotFatal)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig { 10.0, 4, { "no-such-group" }, 0 });
    auto r = sampler.pollOnce(1);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(sampler.pollErrors(), 1u);
    EXPECT_FALSE(sampler.lastError().empty());
}

// The thread: runs at a high rate, publishes to the queue that this (consumer) thread drains, stops promptly.
// Run under the tsan preset too.
TEST(Sampler, ThreadPublishesAndStops)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig { 200.0, 64, {}, 0 });
    std::atomic<int> callbacks { 0 };
    sampler.setCallback([&](const RdtSampleBatch& batch) {
        if (!batch.samples.empty()) callbacks.fetch_add(1);
    });
    ASSERT_TRUE(sampler.start().ok());
    EXPECT_FALSE(sampler.start().ok());
    EXPECT_FALSE(sampler.pollOnce(1).ok());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (callbacks.load() < 10 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto t0 = std::chrono::steady_clock::now();
    sampler.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
    EXPECT_FALSE(sampler.running());
    EXPECT_GE(callbacks.load(), 10);
    // One path: with a callback the batches are not queued as well (nobody would read them).
    EXPECT_FALSE(sampler.queue().pop().has_value());
    EXPECT_EQ(sampler.queue().dropped(), 0u);
    EXPECT_EQ(sampler.pollErrors(), 0u);
}

TEST(Sampler, StartWithoutMonitoringFails)
{
    TempTree t("resctrl.l2");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    Sampler sampler(**b, SamplerConfig {});
    auto r = sampler.start();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ENOENT);
}

namespace {

/// The fixture tree with 16 L3 domains and `groups` monitor groups mon_groups/gNNNN that exist only here: their
/// counter files are the root group's real files (so every read and every kept-open descriptor is a real open,
/// and runs out when the process has no descriptors left), which hold a value per domain and event.
class ManyGroupsFs final : public Fs {
public:
    ManyGroupsFs(std::string root, int groups)
        : m_root(std::move(root))
        , m_inner(std::make_shared<PosixFs>(m_root))
        , m_groups(groups)
    { }
    static std::uint64_t value(int domain, int event) { return (static_cast<std::uint64_t>(domain * 3 + event)) << 16; }
    Result<std::string> read(const std::string& p) override
    {
        const auto real = rootFile(p);
        if (real.empty()) return m_inner->read(p);
        UniqueFd fd(::open(real.c_str(), O_RDONLY | O_CLOEXEC));
        if (!fd) return errnoError(errno, "cannot open " + p);
        char buf[64];
        const ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n < 0) return errnoError(errno, "cannot read " + p);
        return std::string(buf, static_cast<std::size_t>(n));
    }
    Result<UniqueFd> openForPolling(const std::string& p) override
    {
        const auto real = rootFile(p);
        if (real.empty()) return m_inner->openForPolling(p);
        UniqueFd fd(::open(real.c_str(), O_RDONLY | O_CLOEXEC));
        if (!fd) return errnoError(errno, "cannot open " + p);
        return fd;
    }
    bool isDirectory(const std::string& p) override { return isGroup(p) || m_inner->isDirectory(p); }
    Status write(const std::string& p, const std::string& d) override { return m_inner->write(p, d); }
    Status mkdir(const std::string& p) override { return m_inner->mkdir(p); }
    Status rmdir(const std::string& p) override { return m_inner->rmdir(p); }
    Result<std::vector<std::string>> list(const std::string& p) override { return m_inner->list(p); }
    bool exists(const std::string& p) override { return isGroup(p) || m_inner->exists(p); }
    bool taskExists(unsigned pid) override { return m_inner->taskExists(pid); }
    Status lock(bool exclusive) override { return m_inner->lock(exclusive); }
    void unlock() override { m_inner->unlock(); }
    std::string describe() const override { return m_inner->describe(); }

private:
    bool isGroup(const std::string& p) const
    {
        if (p.rfind("mon_groups/g", 0) != 0 || p.find('/', 11) != std::string::npos) return false;
        const int n = std::atoi(p.c_str() + 12);
        return n >= 0 && n < m_groups;
    }
    /// "mon_groups/g0012/mon_data/mon_L3_03/llc_occupancy" -> ROOT/mon_data/mon_L3_03/llc_occupancy
    std::string rootFile(const std::string& p) const
    {
        const auto cut = p.find("/mon_data/");
        if (cut == std::string::npos || !isGroup(p.substr(0, cut))) return {};
        return m_root + p.substr(cut);
    }
    std::string m_root;
    std::shared_ptr<PosixFs> m_inner;
    int m_groups;
};

} // namespace

TEST(Sampler, RaisesTheSoftDescriptorLimit)
{
    rlimit before {};
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &before), 0);
    if (before.rlim_max <= 256) GTEST_SKIP() << "the hard descriptor limit is too low to lower the soft one";
    rlimit lowered = before;
    lowered.rlim_cur = 256;
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &lowered), 0);
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b.ok());
    {
        Sampler sampler(**b, SamplerConfig {});
        rlimit now {};
        ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &now), 0);
        EXPECT_EQ(now.rlim_cur, before.rlim_max);
    }
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &before), 0);
}

TEST(Sampler, FourThousandGroupsOnSixteenDomainsWithADescriptorLimitOf1024)
{
    // 4,000 groups x 16 domains x 3 events = 192,000 counter files; the process may hold 1,024 descriptors (soft
    // and hard, so the sampler cannot raise it). Every group's rows arrive, with their values, in every poll.
    constexpr int kGroups = 4000, kDomains = 16;
    TempTree t("resctrl.full");
    const char* events[3] = { "llc_occupancy", "mbm_total_bytes", "mbm_local_bytes" };
    for (int d = 0; d < kDomains; ++d)
        for (int e = 0; e < 3; ++e) {
            char dir[32];
            std::snprintf(dir, sizeof dir, "mon_data/mon_L3_%02d/", d);
            t.write(dir + std::string(events[e]), std::to_string(ManyGroupsFs::value(d, e)) + "\n");
        }
    std::vector<std::string> groups { "" };
    for (int g = 0; g < kGroups; ++g) {
        char name[32];
        std::snprintf(name, sizeof name, "mon_groups/g%04d", g);
        groups.emplace_back(name);
    }
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // No gtest assertions in the child: it says what failed on stderr and in its exit code.
        const rlimit limit { 1024, 1024 };
        if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) ::_exit(10);
        auto fs = std::make_shared<ManyGroupsFs>(t.root(), kGroups);
        auto backend = ResctrlBackend::open(fs);
        if (!backend) ::_exit(11);
        Sampler sampler(**backend, SamplerConfig { 10.0, 4, groups, 2e12 });
        for (int poll = 1; poll <= 3; ++poll) {
            auto batch = sampler.pollOnce(static_cast<std::uint64_t>(poll) * 100'000'000);
            if (!batch) {
                std::fprintf(stderr, "poll %d failed: %s\n", poll, batch.error().toString().c_str());
                ::_exit(12);
            }
            if (batch->samples.size() != groups.size() * kDomains) {
                std::fprintf(stderr, "poll %d: %zu rows, expected %zu (last error: %s)\n", poll, batch->samples.size(),
                    groups.size() * kDomains, sampler.lastError().c_str());
                ::_exit(13);
            }
            for (const auto& s : batch->samples) {
                if ((s.flags & ~SampleFirst) != 0 || s.occupancyBytes != ManyGroupsFs::value(s.domain, 0)
                    || s.mbmTotalBytes != ManyGroupsFs::value(s.domain, 1)) {
                    std::fprintf(stderr, "poll %d: group '%s' domain %d: flags %#x occupancy %llu\n", poll,
                        s.group.c_str(), s.domain, s.flags, static_cast<unsigned long long>(s.occupancyBytes));
                    ::_exit(14);
                }
            }
            while (sampler.queue().pop()) { }
        }
        if (sampler.pollErrors() != 0) ::_exit(15);
        // Bounded: a quarter of the limit kept open (ResctrlCounterReader.cpp), whatever the number of groups.
        std::size_t open = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd"))
            ++open;
        if (open > 1024 / 4 + 32) {
            std::fprintf(stderr, "%zu descriptors open\n", open);
            ::_exit(16);
        }
        ::_exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

// A group that cannot be read in a poll (removed meanwhile) is named in the batch with its error, so a consumer can
// say its rows are missing (monitor then exits non-zero) instead of showing fewer groups without a word.
TEST(Sampler, AGroupThatCannotBeReadIsNamedInTheBatch)
{
    TempTree t("resctrl.nomb");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b.ok());
    Sampler sampler(**b, SamplerConfig { 10.0, 16, { "", "gone" }, 2e12 });
    auto r = sampler.pollOnce(1'000'000'000);
    ASSERT_TRUE(r.ok());
    EXPECT_NE(find(*r, "", 0), nullptr);
    ASSERT_EQ(r->unread.size(), 1u);
    EXPECT_EQ(r->unread[0].group, "gone");
    EXPECT_NE(r->unread[0].error.find("no group 'gone'"), std::string::npos) << r->unread[0].error;
}
