// SPDX-License-Identifier: GPL-3.0-or-later
// The one recorder of an engine's stream (engine/EngineRecorder.h) and the event taps it reads through: every event
// drainEvents() returns reaches a tap once, on the thread that queued it; a recording holds the engine's interval,
// the groups' state at its start, every sample batch, the engine's own allocation changes, a scenario write no event
// reported, and the scenario's markers; and a synchronous poll after background sampling is one batch, not two.
#include "engine/CaptureService.h"
#include "engine/EngineRecorder.h"
#include "session/SessionReader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

using namespace rdt;
using namespace rdt::engine;

namespace {

std::unique_ptr<CaptureService> openSim(const std::string& scenario)
{
    ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.scenario = scenario;
    o.who = "test";
    auto s = CaptureService::open(o);
    EXPECT_TRUE(s.ok()) << s.error().toString();
    return s.ok() ? std::move(*s) : nullptr;
}

std::size_t batchesIn(const std::vector<EngineEvent>& events)
{
    std::size_t n = 0;
    for (const auto& e : events)
        n += std::holds_alternative<RdtSampleBatch>(e) ? 1u : 0u;
    return n;
}

struct TempFile {
    std::string path = (std::filesystem::temp_directory_path()
        / ("rdtscope-recorder-" + std::to_string(::getpid()) + "-"
            + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".rdts"))
                           .string();
    ~TempFile()
    {
        std::error_code ec;
        for (const char* suffix : { "", "-wal", "-shm", "-journal" })
            std::filesystem::remove(path + suffix, ec);
    }
};

} // namespace

TEST(EventTaps, SeeWhatTheDrainReturnsOnce)
{
    auto svc = openSim("noisy-neighbour");
    ASSERT_TRUE(svc);
    std::mutex m;
    std::vector<std::size_t> seen; // event kinds, in the order the tap saw them
    // The scenario's set-up lines were queued when the service opened: a new tap sees them too.
    const auto id = svc->addEventTap([&](const EngineEvent& e) {
        std::lock_guard lock(m);
        seen.push_back(e.index());
    });
    ASSERT_TRUE(svc->pollRdt().ok);
    svc->advanceTo(svc->nowNs() + 100'000'000);
    ASSERT_TRUE(svc->pollRdt().ok);
    const auto events = svc->drainEvents();
    std::vector<std::size_t> drained;
    for (const auto& e : events)
        drained.push_back(e.index());
    EXPECT_EQ(seen, drained);
    EXPECT_EQ(batchesIn(events), 2u);
    svc->removeEventTap(id);
    ASSERT_TRUE(svc->pollRdt().ok);
    EXPECT_EQ(batchesIn(svc->drainEvents()), 1u);
    EXPECT_EQ(seen.size(), drained.size()) << "a removed tap is not called again";
}

TEST(EventTaps, SynchronousPollAfterSamplingIsOneBatch)
{
    auto svc = openSim("noisy-neighbour");
    ASSERT_TRUE(svc);
    ASSERT_TRUE(svc->setSamplingInterval(100'000'000).ok);
    ASSERT_TRUE(svc->startSampling().ok);
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    svc->stopSampling();
    (void)svc->drainEvents();
    ASSERT_TRUE(svc->pollRdt().ok);
    EXPECT_EQ(batchesIn(svc->drainEvents()), 1u) << "one path from the sampler: the batch is queued once";
}

TEST(EngineRecorder, RecordsTheEnginesStream)
{
    auto svc = openSim("occupancy-lag");
    ASSERT_TRUE(svc);
    ASSERT_TRUE(svc->setSamplingInterval(250'000'000).ok);
    TempFile file;
    RecordingOptions options;
    options.path = file.path;
    options.origin = { "test", "test 1" };
    auto started = EngineRecorder::start(*svc, options);
    ASSERT_TRUE(started.ok()) << started.error().toString();
    EngineRecorder& rec = **started;
    EXPECT_EQ(rec.intervalNs(), 250'000'000u) << "the engine's interval, not a front end's";
    const auto t0 = rec.startNs();
    for (int k = 0; k <= 24; ++k) { // 6 s: past the scenario's write at 5 s
        svc->advanceTo(t0 + static_cast<std::uint64_t>(k) * 250'000'000);
        ASSERT_TRUE(svc->pollRdt().ok);
        (void)svc->drainEvents(); // the front end's drain takes nothing from the recorder
        rec.observe();
    }
    const auto applied = svc->applyAllocation("cache", Schemata::parseStrict("L3:0=7f0").value());
    ASSERT_TRUE(applied.result.ok) << applied.result.toString();
    (void)svc->drainEvents();
    rec.observe();
    ASSERT_TRUE(rec.stop("done").ok());

    auto reader = session::SessionReader::open(file.path);
    ASSERT_TRUE(reader.ok()) << reader.error().toString();
    const auto& meta = reader.value()->meta();
    EXPECT_EQ(meta.intervalNs, 250'000'000u);
    EXPECT_EQ(meta.source, "sim:occupancy-lag");
    EXPECT_TRUE(meta.simulated && meta.timeIsSimulated);
    EXPECT_EQ(meta.startMonoNs, t0);
    EXPECT_EQ(reader.value()->machine().description, svc->source().simulation);
    bool initial = false, scripted = false, ours = false;
    std::size_t oursCount = 0;
    for (const auto& a : reader.value()->allocations()) {
        initial |= a.who == "initial" && a.group == "scan" && a.resource == "L3";
        scripted |= a.who == "observed" && a.group == "scan" && a.newValue == "3";
        if (a.group == "cache" && a.newValue == "7f0") {
            ours |= a.who == "test";
            ++oursCount;
        }
    }
    EXPECT_TRUE(initial) << "the state at the start";
    EXPECT_TRUE(scripted) << "the scenario's write at 5 s, which no event reports as an allocation";
    EXPECT_TRUE(ours) << "the engine's own change, as its event";
    EXPECT_EQ(oursCount, 1u) << "an acknowledged change is not observed again";
    bool mark = false;
    for (const auto& mk : reader.value()->markers())
        mark |= mk.kind == "scenario" && mk.timeNs == 5'000'000'000 && mk.text.find("L3:0=003") != std::string::npos;
    EXPECT_TRUE(mark);
    EXPECT_GT(reader.value()->meta().intervalNs, 0u);
}
