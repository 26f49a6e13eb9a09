// SPDX-License-Identifier: GPL-3.0-or-later
// PERF_PKG_MON telemetry in sessions (table `telemetry_samples`, docs/SESSION-FORMAT.md): rows read back as written,
// travel in their poll's batch on replay, and a file written before the table existed still reads (no telemetry).
#include "Synthetic.h"

#include "session/ReplaySource.h"
#include "session/SessionReader.h"

using namespace rdt;
using namespace rdt::session;
using namespace rdt::session::testing;

namespace {
constexpr std::uint64_t kSec = 1'000'000'000;

RdtSampleBatch batchWithTelemetry(std::uint64_t t, double joules)
{
    RdtSampleBatch b = syntheticBatch(t, 2, 1);
    b.telemetry.push_back({ t, groupName(0), 0, "core_energy", joules, 25.0, 0 });
    b.telemetry.push_back({ t, groupName(0), 1, "activity", joules / 10, 2.5, SampleTelemetryUnavailable });
    b.telemetry.push_back({ t, groupName(1), 0, "uops_retired", 7000021.0, 1e6, SampleFirst });
    return b;
}
}

TEST(SessionTelemetry, RowsReadBackAsWrittenAndReplayInTheirBatch)
{
    TempDir dir;
    const auto path = dir.file("tel.rdts");
    {
        auto writer = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
        ASSERT_TRUE(writer.ok()) << writer.error().toString();
        for (std::uint64_t i = 0; i < 4; ++i)
            ASSERT_TRUE((*writer)->addSamples(batchWithTelemetry((1 + i) * kSec, 1234.5 + 25.0 * double(i))).ok());
        ASSERT_TRUE((*writer)->close("test done").ok());
    }
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().toString();
    EXPECT_TRUE((*reader)->issues().empty());
    auto rows = (*reader)->telemetry();
    ASSERT_TRUE(rows.ok());
    ASSERT_EQ(rows->size(), 12u);
    const auto& first = rows->front();
    EXPECT_EQ(first.timeNs, kSec);
    EXPECT_EQ(first.group, groupName(0));
    EXPECT_EQ(first.package, 0); // ordered by (time, group, package, event)
    EXPECT_EQ(first.event, "core_energy");
    EXPECT_DOUBLE_EQ(first.value, 1234.5);
    bool sawEnergy = false, sawFlags = false;
    for (const auto& r : *rows) {
        if (r.timeNs == 3 * kSec && r.event == "core_energy") {
            EXPECT_DOUBLE_EQ(r.value, 1284.5);
            EXPECT_DOUBLE_EQ(r.perSecond, 25.0);
            EXPECT_EQ(r.package, 0);
            sawEnergy = true;
        }
        if (r.event == "activity" && r.flags == SampleTelemetryUnavailable) sawFlags = true;
    }
    EXPECT_TRUE(sawEnergy);
    EXPECT_TRUE(sawFlags);
    auto window = (*reader)->telemetry(2 * kSec, 3 * kSec);
    ASSERT_TRUE(window.ok());
    EXPECT_EQ(window->size(), 3u);

    std::shared_ptr<SessionReader> shared(std::move(*reader));
    ReplaySource replay(shared);
    replay.setSpeed(ReplaySource::kAsFastAsPossible);
    replay.play();
    auto u = replay.samplesUntil(replay.endNs());
    ASSERT_EQ(u.batches.size(), 4u);
    for (const auto& b : u.batches) {
        EXPECT_EQ(b.samples.size(), 2u);
        ASSERT_EQ(b.telemetry.size(), 3u);
        for (const auto& t : b.telemetry)
            EXPECT_EQ(t.timeNs, b.timeNs);
    }
}

TEST(SessionTelemetry, AFileWithoutTheTableReadsAsNoTelemetry)
{
    TempDir dir;
    const auto path = dir.file("old.rdts");
    {
        auto writer = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
        ASSERT_TRUE(writer.ok());
        ASSERT_TRUE((*writer)->addSamples(syntheticBatch(kSec, 2, 1)).ok());
        ASSERT_TRUE((*writer)->close("test done").ok());
    }
    {
        // What a version-1 file from before the table looks like.
        auto db = Database::open(path, Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok()) << db.error().toString();
        ASSERT_TRUE(db->exec("DROP TABLE telemetry_samples").ok());
    }
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().toString();
    EXPECT_TRUE((*reader)->issues().empty());
    auto rows = (*reader)->telemetry();
    ASSERT_TRUE(rows.ok());
    EXPECT_TRUE(rows->empty());
    auto samples = (*reader)->samples(0, UINT64_MAX);
    ASSERT_TRUE(samples.ok());
    EXPECT_EQ(samples->size(), 2u);
}
