// SPDX-License-Identifier: GPL-3.0-or-later
// engine::ReplayEngine: a written session answers as an engine (groups and allocations in force at the position,
// events in time order, paced by a fake wall clock), seeks once, stops at --to, and refuses every write with the
// reason a replay is read-only.
#include "engine/ReplayEngine.h"
#include "session/SessionWriter.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <unistd.h>

using namespace rdt;

namespace {

constexpr std::uint64_t kOrigin = 1'000'000'000;
constexpr std::uint64_t kSecond = 1'000'000'000;

struct TempSession {
    std::string path;
    TempSession()
    {
        path = (std::filesystem::temp_directory_path() / ("replay-engine-" + std::to_string(::getpid()) + ".rdts"))
                   .string();
        std::filesystem::remove(path);
    }
    ~TempSession() { std::filesystem::remove(path); }
};

/// Five samples at 0..4 s; group "g" has L3 "f" from the start and "3" from 2.5 s; its CPUs 0-1, tasks 10 and 11.
void writeSession(const std::string& path)
{
    session::SessionMeta meta;
    meta.startMonoNs = kOrigin;
    meta.source = "test";
    meta.host = "recorder";
    meta.intervalNs = kSecond;
    session::MachineInfo machine;
    machine.topology = "L3: 16 CLOS, domains 0, cbm_mask 4 bits, min_cbm_bits 1, bytes_per_bit 1048576\n";
    auto w = session::SessionWriter::create(path, meta, machine);
    ASSERT_TRUE(w.ok()) << w.error().toString();
    const auto change = [&](std::uint64_t t, const std::string& value) {
        AllocationChanged c;
        c.timeNs = t;
        c.who = "test";
        c.group = "g";
        c.resource = "L3";
        c.newValue = value;
        c.ok = true;
        ASSERT_TRUE((*w)->addAllocation(c));
    };
    change(kOrigin, "f");
    change(kOrigin + 5 * kSecond / 2, "3");
    session::MembershipSnapshot m;
    m.timeNs = kOrigin;
    m.group = "g";
    m.tasks = "10\n11\n";
    m.cpus = "0-1";
    ASSERT_TRUE((*w)->addMembership(m));
    for (std::uint64_t i = 0; i < 5; ++i) {
        RdtSampleBatch b;
        b.timeNs = kOrigin + i * kSecond;
        RdtSample s;
        s.timeNs = b.timeNs;
        s.group = "g";
        b.samples.push_back(s);
        ASSERT_TRUE((*w)->addSamples(b));
    }
    ASSERT_TRUE((*w)->close());
}

std::vector<std::uint64_t> batchTimes(const std::vector<engine::EngineEvent>& events)
{
    std::vector<std::uint64_t> out;
    for (const auto& e : events)
        if (const auto* b = std::get_if<RdtSampleBatch>(&e)) out.push_back(b->timeNs - kOrigin);
    return out;
}

std::string l3Of(engine::ReplayEngine& replay, const std::string& group)
{
    for (const auto& g : replay.snapshot().groups)
        if (g.info.path == group) return g.schemata.value("L3", 0).value_or("none");
    return "no group";
}

} // namespace

TEST(ReplayEngine, AnswersWhatWasInForceAtThePosition)
{
    TempSession file;
    writeSession(file.path);
    auto opened = engine::ReplayEngine::open(file.path);
    ASSERT_TRUE(opened.ok()) << opened.error().toString();
    auto& replay = **opened;
    EXPECT_EQ(replay.source().kind, "replay");
    EXPECT_EQ(l3Of(replay, "g"), "f");
    const auto snapshot = replay.snapshot(/*withTasks=*/true);
    ASSERT_EQ(snapshot.groups.size(), 1u);
    EXPECT_TRUE(snapshot.groups[0].cpusKnown);
    EXPECT_EQ(snapshot.groups[0].cpus, (std::vector<unsigned> { 0, 1 }));
    EXPECT_EQ(snapshot.groups[0].tasks, (std::vector<unsigned> { 10, 11 }));
    replay.seek(kOrigin + 3 * kSecond);
    EXPECT_EQ(replay.nowNs(), kOrigin + 3 * kSecond);
    EXPECT_EQ(l3Of(replay, "g"), "3");
    // The layout is the engine's rule over the recorded topology: 4-bit masks of 1 MiB each.
    auto layout = replay.allocationLayout();
    ASSERT_TRUE(layout.ok());
    ASSERT_EQ(layout->caches.size(), 1u);
    EXPECT_EQ(layout->caches[0].cbmLength, 4u);
    EXPECT_EQ(layout->caches[0].cacheBytes, 4u << 20);
    EXPECT_EQ(layout->caches[0].ways, 0u); // no CPUID snapshot: unknown, never this host's
    // No CPUID snapshot: describing the machine is refused, not answered with this host.
    EXPECT_FALSE(replay.describeMachine().ok());
}

TEST(ReplayEngine, IsReadOnlyAndSaysWhy)
{
    TempSession file;
    writeSession(file.path);
    auto opened = engine::ReplayEngine::open(file.path);
    ASSERT_TRUE(opened.ok());
    auto& replay = **opened;
    EXPECT_FALSE(replay.source().writability.writable);
    EXPECT_NE(replay.source().writability.reason.find("replay"), std::string::npos);
    EXPECT_FALSE(replay.source().writability.fix.empty());
    Schemata change;
    change.set("L3", 0, "1");
    const auto applied = replay.applyAllocation("g", change);
    EXPECT_FALSE(applied.result.ok);
    EXPECT_EQ(applied.result.code, EROFS);
    EXPECT_EQ(applied.result.advice, replay.source().writability.fix);
    EXPECT_FALSE(replay.createGroup("x").ok);
    EXPECT_FALSE(replay.setCdp(true).ok);
    EXPECT_FALSE(replay.startPmu({}).result.ok);
    EXPECT_EQ(l3Of(replay, "g"), "f"); // nothing changed
}

TEST(ReplayEngine, DeliversInTimeOrderAsFastAsPossibleUpToTheStop)
{
    TempSession file;
    writeSession(file.path);
    auto opened = engine::ReplayEngine::open(file.path);
    ASSERT_TRUE(opened.ok());
    auto& replay = **opened;
    replay.setSpeed(engine::ReplayPlayback::kAsFastAsPossible);
    replay.stopAt(kOrigin + 3 * kSecond);
    replay.setPlaying(true);
    std::vector<engine::EngineEvent> all;
    for (int i = 0; i < 100 && !replay.finished(); ++i)
        for (auto& e : replay.drainEvents())
            all.push_back(std::move(e));
    EXPECT_TRUE(replay.finished());
    EXPECT_EQ(batchTimes(all), (std::vector<std::uint64_t> { 0, kSecond, 2 * kSecond, 3 * kSecond }));
    // The change at 2.5 s comes between the batches at 2 s and 3 s.
    std::vector<std::string> order;
    for (const auto& e : all) {
        if (const auto* b = std::get_if<RdtSampleBatch>(&e))
            order.push_back(std::to_string((b->timeNs - kOrigin) / kSecond));
        if (const auto* c = std::get_if<AllocationChanged>(&e)) order.push_back("L3=" + c->newValue);
    }
    EXPECT_EQ(order, (std::vector<std::string> { "L3=f", "0", "1", "2", "L3=3", "3" }));
}

TEST(ReplayEngine, PacedByTheClockAndSeeksOnce)
{
    TempSession file;
    writeSession(file.path);
    auto reader = session::SessionReader::open(file.path);
    ASSERT_TRUE(reader.ok());
    std::uint64_t wall = 0;
    engine::ReplayEngine replay(std::shared_ptr<session::SessionReader>(std::move(*reader)), [&wall] { return wall; });
    replay.setPlaying(true);
    EXPECT_EQ(batchTimes(replay.drainEvents()), (std::vector<std::uint64_t> { 0 }));
    wall += 2 * kSecond; // 1x: two more seconds are due
    EXPECT_EQ(batchTimes(replay.drainEvents()), (std::vector<std::uint64_t> { kSecond, 2 * kSecond }));
    EXPECT_FALSE(replay.takeSeek());
    replay.seek(kOrigin);
    EXPECT_TRUE(replay.takeSeek()); // once
    EXPECT_FALSE(replay.takeSeek());
    EXPECT_EQ(batchTimes(replay.drainEvents()), (std::vector<std::uint64_t> { 0 }));
    replay.setSpeed(2.0);
    wall += 2 * kSecond; // 2x: four seconds of session time
    EXPECT_EQ(batchTimes(replay.drainEvents()),
        (std::vector<std::uint64_t> { kSecond, 2 * kSecond, 3 * kSecond, 4 * kSecond }));
    replay.drainEvents();
    EXPECT_TRUE(replay.finished());
}
