// SPDX-License-Identifier: GPL-3.0-or-later
#include "Synthetic.h"

#include "session/ReplaySource.h"

using namespace rdt;
using namespace rdt::session;
using namespace rdt::session::testing;

namespace {

constexpr std::uint64_t kSec = 1'000'000'000;
constexpr std::uint64_t kStart = 10 * kSec;

/// 5 s at 10 Hz, 2 groups x 2 domains; allocations change at +1 s and +3 s, membership at +0 and +2 s.
std::shared_ptr<SessionReader> makeReplaySession(const TempDir& dir)
{
    const auto path = dir.file("replay.rdts");
    auto w = SessionWriter::create(path, syntheticMeta(kStart), syntheticMachine());
    EXPECT_TRUE(w.ok());
    auto& s = *w.value();
    EXPECT_TRUE(s.addAllocation({ kStart, "initial", "g1", "L3", 0, "", "7ff", true, "" }).ok());
    EXPECT_TRUE(s.addAllocation({ kStart, "initial", "g1", "MB", 0, "", "100", true, "" }).ok());
    EXPECT_TRUE(s.addMembership({ kStart, "g1", "100", "0-1" }).ok());
    for (int i = 0; i < 50; ++i) {
        const std::uint64_t t = kStart + static_cast<std::uint64_t>(i) * kSec / 10;
        if (i == 10) {
            EXPECT_TRUE(s.addAllocation({ t, "gui", "g1", "L3", 0, "7ff", "3", true, "" }).ok());
        }
        if (i == 20) {
            EXPECT_TRUE(s.addMembership({ t, "g1", "100 101", "0-3" }).ok());
        }
        if (i == 30) {
            EXPECT_TRUE(s.addAllocation({ t, "gui", "g1", "L3", 0, "3", "1", false, "min_cbm_bits is 2" }).ok());
            EXPECT_TRUE(s.addAllocation({ t, "gui", "g1", "MB", 0, "100", "30", true, "" }).ok());
            EXPECT_TRUE(s.addMarker({ t, "note", "throttled" }).ok());
        }
        EXPECT_TRUE(s.addSamples(syntheticBatch(t, 2, 2)).ok());
    }
    EXPECT_TRUE(s.close().ok());
    auto r = SessionReader::open(path);
    EXPECT_TRUE(r.ok());
    return std::shared_ptr<SessionReader>(std::move(r.value()));
}

struct FakeClock {
    std::uint64_t now = 5000;
    ReplaySource::Clock fn()
    {
        return [this] { return now; };
    }
};

std::size_t countSamples(const ReplayUpdate& u)
{
    std::size_t n = 0;
    for (const auto& b : u.batches)
        n += b.samples.size();
    return n;
}

} // namespace

TEST(ReplaySource, SeekRestoresTheAllocationsAndMembershipInForce)
{
    TempDir dir;
    ReplaySource replay(makeReplaySession(dir));
    EXPECT_EQ(replay.startNs(), kStart);
    EXPECT_EQ(replay.endNs(), kStart + 49 * kSec / 10);

    replay.seek(kStart + 2500ull * 1'000'000);
    auto st = replay.allocationStateAt(kStart + 2500ull * 1'000'000);
    EXPECT_EQ((st[{ "g1", "L3", 0 }]), "3");
    EXPECT_EQ((st[{ "g1", "MB", 0 }]), "100");
    auto mem = replay.membershipAt(kStart + 2500ull * 1'000'000);
    EXPECT_EQ(mem["g1"].tasks, "100 101");
    EXPECT_EQ(mem["g1"].cpus, "0-3");

    // After +3 s: the rejected L3 change does not count, the MB change does.
    auto late = replay.allocationStateAt(kStart + 4 * kSec);
    EXPECT_EQ((late[{ "g1", "L3", 0 }]), "3");
    EXPECT_EQ((late[{ "g1", "MB", 0 }]), "30");
    // Before anything: the initial values.
    auto early = replay.allocationStateAt(kStart);
    EXPECT_EQ((early[{ "g1", "L3", 0 }]), "7ff");
    EXPECT_EQ(replay.membershipAt(kStart)["g1"].tasks, "100");

    // The first pull after a seek says so and starts at the seek time.
    auto u = replay.samplesUntil(kStart + 3 * kSec);
    EXPECT_TRUE(u.seeked);
    ASSERT_FALSE(u.batches.empty());
    EXPECT_EQ(u.batches.front().timeNs, kStart + 25 * kSec / 10);
    EXPECT_EQ(u.batches.back().timeNs, kStart + 3 * kSec);
    EXPECT_EQ(u.batches.size(), 6u);
    ASSERT_EQ(u.allocations.size(), 2u); // the two changes at exactly +3 s
    EXPECT_EQ(u.markers.size(), 1u);
    EXPECT_FALSE(replay.samplesUntil(kStart + 3 * kSec).seeked);
}

TEST(ReplaySource, PlaysAtTheChosenSpeedAndPauses)
{
    TempDir dir;
    FakeClock clock;
    ReplaySource replay(makeReplaySession(dir), clock.fn());
    replay.setSpeed(2.0);
    EXPECT_TRUE(replay.poll().batches.empty()); // not playing yet
    replay.play();
    auto first = replay.poll();
    ASSERT_EQ(first.batches.size(), 1u); // the batch at the start time
    EXPECT_EQ(first.allocations.size(), 2u);
    EXPECT_EQ(first.memberships.size(), 1u);
    clock.now += kSec / 2; // 0.5 s of wall time at 2x = 1 s of session
    auto u = replay.poll();
    EXPECT_EQ(u.batches.size(), 10u);
    EXPECT_EQ(u.batches.back().timeNs, kStart + kSec);
    EXPECT_EQ(countSamples(u), 40u);
    replay.pause();
    clock.now += 10 * kSec;
    EXPECT_TRUE(replay.poll().batches.empty());
    EXPECT_EQ(replay.position(), kStart + kSec);
    replay.setSpeed(1000); // clamped to 64x
    EXPECT_EQ(replay.speed(), ReplaySource::kMaxSpeed);
    replay.setSpeed(0.01);
    EXPECT_EQ(replay.speed(), ReplaySource::kMinSpeed);
    replay.play();
    clock.now += 4 * kSec; // 4 s at 0.25x = 1 s
    EXPECT_EQ(replay.poll().batches.size(), 10u);
    replay.setSpeed(64);
    clock.now += kSec;
    auto rest = replay.poll();
    EXPECT_EQ(rest.batches.size(), 29u);
    EXPECT_TRUE(rest.atEnd);
    EXPECT_EQ(replay.position(), replay.endNs());
}

TEST(ReplaySource, AsFastAsPossibleDeliversWholeBatchesInChunks)
{
    TempDir dir;
    FakeClock clock;
    ReplaySource replay(makeReplaySession(dir), clock.fn());
    replay.setSpeed(ReplaySource::kAsFastAsPossible);
    replay.play();
    std::size_t samples = 0, batches = 0;
    std::uint64_t lastT = 0;
    for (int i = 0; i < 1000 && !replay.atEnd(); ++i) {
        auto u = replay.poll(10); // 10 rows = 2.5 batches of 4: must come out as whole batches
        for (const auto& b : u.batches) {
            EXPECT_EQ(b.samples.size(), 4u);
            EXPECT_GT(b.timeNs, lastT);
            lastT = b.timeNs;
        }
        samples += countSamples(u);
        batches += u.batches.size();
    }
    EXPECT_TRUE(replay.atEnd());
    EXPECT_EQ(batches, 50u);
    EXPECT_EQ(samples, 200u);
}

TEST(ReplaySource, SeekBackwardsReplaysAgain)
{
    TempDir dir;
    ReplaySource replay(makeReplaySession(dir));
    auto all = replay.samplesUntil(replay.endNs());
    EXPECT_EQ(all.batches.size(), 50u);
    EXPECT_TRUE(replay.atEnd());
    replay.seek(kStart + 4 * kSec);
    EXPECT_FALSE(replay.atEnd());
    auto tail = replay.samplesUntil(replay.endNs());
    EXPECT_TRUE(tail.seeked);
    EXPECT_EQ(tail.batches.size(), 10u);
    replay.seek(0); // clamped to the start
    EXPECT_EQ(replay.position(), replay.startNs());
}

// One time stamp far in the future (a damaged or edited file: 9e18 ns) used to make paced playback wait for
// centuries; the gap is now skipped, said, and the sample behind it delivered.
TEST(ReplaySource, PacedPlaybackSkipsALongGapInsteadOfWaitingForIt)
{
    TempDir dir;
    const auto path = dir.file("gap.rdts");
    constexpr std::uint64_t kFar = 9'000'000'000'000'000'000ull;
    {
        auto w = SessionWriter::create(path, syntheticMeta(kStart), syntheticMachine());
        ASSERT_TRUE(w.ok());
        for (int i = 0; i < 10; ++i)
            ASSERT_TRUE(
                w.value()->addSamples(syntheticBatch(kStart + static_cast<std::uint64_t>(i) * kSec / 10, 2, 2)).ok());
        ASSERT_TRUE(w.value()->addSamples(syntheticBatch(kFar, 2, 2)).ok());
        ASSERT_TRUE(w.value()->close().ok());
    }
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok());
    bool named = false;
    for (const auto& i : r.value()->issues())
        named = named || i.find("span 285 years") != std::string::npos;
    EXPECT_TRUE(named) << "summary would show 285 years without a word";
    FakeClock clock;
    ReplaySource replay(std::shared_ptr<SessionReader>(std::move(r.value())), clock.fn());
    replay.setSpeed(64);
    replay.play();
    std::size_t delivered = 0;
    std::uint64_t skipped = 0;
    for (int frame = 0; frame < 1000 && !replay.atEnd(); ++frame) {
        clock.now += 20'000'000; // 20 ms frames
        auto u = replay.poll();
        delivered += countSamples(u);
        skipped += u.skippedNs;
    }
    EXPECT_TRUE(replay.atEnd()) << "still waiting after 1000 frames (20 s of wall time)";
    EXPECT_EQ(delivered, 11u * 4u);
    EXPECT_GT(skipped, kFar - kStart - 10 * kSec); // all but the few seconds played before the gap
    EXPECT_FALSE(replay.lastError().has_value()) << replay.lastError()->toString();
}

TEST(ReplaySource, ShortGapsArePlayedInTime)
{
    TempDir dir;
    FakeClock clock;
    ReplaySource replay(makeReplaySession(dir), clock.fn());
    replay.setSpeed(1);
    replay.play();
    std::uint64_t skipped = 0;
    for (int frame = 0; frame < 400 && !replay.atEnd(); ++frame) {
        clock.now += 20'000'000;
        skipped += replay.poll().skippedNs;
    }
    EXPECT_TRUE(replay.atEnd());
    EXPECT_EQ(skipped, 0u) << "100 ms between samples is no gap to skip";
}
