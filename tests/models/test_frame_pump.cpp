// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/FramePump.h"
#include "models/QueuedFeed.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>

namespace {
rdt::RdtSampleBatch batchAt(std::uint64_t ns, double bw)
{
    rdt::RdtSampleBatch b;
    b.timeNs = ns;
    for (int domain = 0; domain < 2; ++domain) {
        rdt::RdtSample s;
        s.timeNs = ns;
        s.group = "p0";
        s.domain = domain;
        s.occupancyBytes = 1 << 20;
        s.mbmTotalBps = bw;
        s.mbmLocalBps = bw / 2;
        b.samples.push_back(s);
    }
    return b;
}
} // namespace

class TestFramePump : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneSignalPerFrameNotPerSample()
    {
        FramePump pump;
        auto feed
            = std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Simulated, "sim:test", "test", {}, {} });
        auto* raw = feed.get();
        pump.setFeed(std::move(feed));
        const std::uint64_t base = std::uint64_t { 5'000'000'000 };
        for (int i = 0; i < 50; ++i)
            raw->push(batchAt(base + static_cast<std::uint64_t>(i) * std::uint64_t { 100'000'000 }, 1e9 * i));
        rdt::AllocationChanged change;
        change.timeNs = base + std::uint64_t { 2'000'000'000 };
        change.who = "gui";
        change.group = "p0";
        change.resource = "L3";
        change.oldValue = "7ff";
        change.newValue = "3";
        change.ok = true;
        raw->push(change);
        raw->push(
            FeedNote { base + std::uint64_t { 3'000'000'000 }, "scenario: write streamer/schemata MB:0=30", true });

        QSignalSpy frames(&pump, &FramePump::frame);
        QCOMPARE(pump.pumpOnce(), 50);
        QCOMPARE(frames.count(), 1);
        const auto update = frames.at(0).at(0).value<FrameUpdate>();
        QCOMPARE(update.batches, 50);
        QCOMPARE(update.latest.samples.size(), std::size_t(2));
        QCOMPARE(update.changes.size(), std::size_t(1));
        QCOMPARE(pump.now(), 4.9);

        // Domains are summed per group; t = 0 at the first batch.
        const int g = pump.store().groupIndex(QStringLiteral("p0"));
        QCOMPARE(pump.store().sampleCount(g), std::size_t(50));
        const auto d = pump.store().decimate(g, Metric::BandwidthRemote, 0.0, 4.9, 1000);
        QCOMPARE(d.keys.front(), 0.0);
        // 2 domains x (49e9 - 24.5e9); values are stored as float (7 significant digits are plenty for a plot).
        QVERIFY(std::abs(d.values.back() - 49e9) < 49e9 * 1e-6);
        QCOMPARE(pump.markers().size(), std::size_t(2));
        QCOMPARE(pump.markers().front().t, 2.0);
        QCOMPARE(pump.markers().back().t, 3.0);
        QVERIFY(pump.markers().back().label.startsWith(QStringLiteral("scenario: write")));
        QVERIFY(pump.markers().front().label.contains(QStringLiteral("7ff")));

        QCOMPARE(pump.pumpOnce(), 0); // nothing queued: no frame signal
        QCOMPARE(frames.count(), 1);
    }

    // The first sample of a series has no rate, and an errored or unassigned MBM read has none either: the group's
    // bandwidth point is a gap (NaN), not the other domains' sum plus 0 B/s; occupancy is flagged on its own.
    void flaggedSamplesAreGapsNotZeros()
    {
        FramePump pump;
        auto feed = std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Live, "resctrl", "", {}, {} });
        auto* raw = feed.get();
        pump.setFeed(std::move(feed));
        const std::uint64_t base = std::uint64_t { 1'000'000'000 };
        auto first = batchAt(base, 0);
        for (auto& s : first.samples)
            s.flags = rdt::SampleFirst;
        raw->push(first);
        auto errored = batchAt(base + 100'000'000, 4e9);
        errored.samples[1].flags = rdt::SampleMbmUnassigned; // domain 1 has no counter: the sum is unknown
        raw->push(errored);
        auto occupancyError = batchAt(base + 200'000'000, 4e9);
        occupancyError.samples[0].flags = rdt::SampleOccupancyError;
        raw->push(occupancyError);
        raw->push(batchAt(base + 300'000'000, 4e9));
        QCOMPARE(pump.pumpOnce(), 4);
        const int g = pump.store().groupIndex(QStringLiteral("p0"));
        const auto bw = pump.store().decimate(g, Metric::BandwidthTotal, 0.0, 0.3, 100);
        QCOMPARE(bw.values.size(), std::size_t(4));
        QVERIFY(std::isnan(bw.values[0])); // first: no delta yet
        QVERIFY(std::isnan(bw.values[1])); // one domain unassigned
        QCOMPARE(bw.values[2], 8e9);
        QCOMPARE(bw.values[3], 8e9);
        const auto occ = pump.store().decimate(g, Metric::Occupancy, 0.0, 0.3, 100);
        QCOMPARE(occ.values[0], double(2 << 20));
        QVERIFY(std::isnan(occ.values[2]));
        QCOMPARE(occ.values[3], double(2 << 20));
    }

    void newFeedStartsNewGeneration()
    {
        FramePump pump;
        auto first = std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Live, "resctrl", "", {}, {} });
        first->push(batchAt(1, 1));
        pump.setFeed(std::move(first));
        pump.pumpOnce();
        const auto gen = pump.generation();
        QSignalSpy reset(&pump, &FramePump::seriesReset);
        QSignalSpy source(&pump, &FramePump::sourceChanged);
        pump.setFeed(
            std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Replay, "replay:x", "opened", {}, {} }));
        QCOMPARE(reset.count(), 1);
        QCOMPARE(source.count(), 1);
        QVERIFY(pump.generation() > gen);
        QCOMPARE(pump.store().groupCount(), 0);
        QVERIFY(pump.source().kind == SourceKind::Replay);
    }

    void timerDrivesFrames()
    {
        FramePump pump;
        auto feed = std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Simulated, "sim", "", {}, {} });
        auto* raw = feed.get();
        pump.setFeed(std::move(feed));
        pump.setFrameRate(60);
        QSignalSpy frames(&pump, &FramePump::frame);
        pump.start();
        raw->push(batchAt(1000, 1));
        QTRY_COMPARE_WITH_TIMEOUT(frames.count(), 1, 2000);
        pump.stop();
        QVERIFY(!pump.isRunning());
    }
};

QTEST_GUILESS_MAIN(TestFramePump)
#include "test_frame_pump.moc"
