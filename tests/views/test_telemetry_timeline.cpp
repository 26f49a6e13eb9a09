// SPDX-License-Identifier: GPL-3.0-or-later
// The PERF_PKG_MON power timeline: hidden without telemetry, one line per group with the power summed over packages,
// no point for a first sample, a reset or a bad read (never a fake zero), and the timelines' visible range.
#include "models/FramePump.h"
#include "models/QueuedFeed.h"
#include "views/QCustomPlotInclude.h"
#include "views/TelemetryTimeline.h"
#include "views/TimelineView.h"

#include <QSplitter>
#include <QTest>

#include <cstdlib>

namespace {
constexpr std::uint64_t kSecond = 1'000'000'000;

rdt::RdtSampleBatch batch(std::uint64_t t, bool telemetry, std::uint32_t flags = 0)
{
    rdt::RdtSampleBatch b;
    b.timeNs = t;
    rdt::RdtSample s;
    s.timeNs = t;
    s.group = "streamer";
    s.mbmTotalBps = 1e9;
    b.samples = { s };
    if (telemetry) {
        // 10 W in package 0 and 5 W in package 1: 15 W for the group.
        b.telemetry.push_back({ t, "streamer", 0, "core_energy", 100.0, 10.0, flags });
        b.telemetry.push_back({ t, "streamer", 1, "core_energy", 50.0, 5.0, flags });
        b.telemetry.push_back({ t, "streamer", 0, "activity", 2.0, 0.5, flags });
        b.telemetry.push_back({ t, "streamer", 0, "uops_retired", 1e9, 1e8, flags });
    }
    return b;
}

/// The Cache & bandwidth page's lower half: the timelines over the power plot in a vertical splitter, shown.
struct Page {
    FramePump pump;
    QueuedFeed* feed = nullptr;
    QSplitter split { Qt::Vertical };
    TimelineView* timelines = nullptr;
    TelemetryTimeline* view = nullptr;
    explicit Page(int width)
    {
        auto f = std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Simulated, "sim:test", "test", {}, {} });
        feed = f.get();
        pump.setFeed(std::move(f));
        timelines = new TimelineView(&pump, &split);
        split.addWidget(timelines);
        view = new TelemetryTimeline(&pump, timelines, &split);
        split.addWidget(view);
        split.resize(width, 800);
        split.show();
    }
};
}

class TestTelemetryTimeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hiddenWithoutTelemetryAndShownWithIt()
    {
        FramePump pump;
        auto f = std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Simulated, "sim:test", "test", {}, {} });
        QueuedFeed* feed = f.get();
        pump.setFeed(std::move(f));
        TimelineView timelines(&pump);
        QWidget host; // before the view: a child is destroyed before its parent
        TelemetryTimeline view(&pump, &timelines, &host);
        host.show();
        for (int i = 0; i < 10; ++i)
            feed->push(batch(static_cast<std::uint64_t>(i) * kSecond, false));
        pump.pumpOnce();
        QVERIFY(!view.isVisible());
        QCOMPARE(view.plottedPoints(QStringLiteral("streamer")), 0);

        feed->push(batch(10 * kSecond, true, rdt::SampleFirst)); // no rate yet: no point
        for (int i = 11; i < 20; ++i)
            feed->push(batch(static_cast<std::uint64_t>(i) * kSecond, true));
        feed->push(batch(20 * kSecond, true, rdt::SampleTelemetryUnavailable)); // a bad read: no point
        pump.pumpOnce();
        timelines.setVisibleRange(0, 30);
        view.refresh();
        QVERIFY(view.isVisible());
        QCOMPARE(view.plottedPoints(QStringLiteral("streamer")), 9);
        const QCPGraph* g = view.plot()->graph(0);
        QCOMPARE(g->data()->at(0)->value, 15.0);
        QVERIFY(g->name().contains(QStringLiteral("15.00 W")));
        QVERIFY(g->name().contains(QStringLiteral("0.500 F/s")));

        // The timelines' range is the telemetry's range too.
        timelines.setVisibleRange(15, 30);
        view.refresh();
        QCOMPARE(view.plottedPoints(QStringLiteral("streamer")), 5); // 15..19 s
        QCOMPARE(view.plot()->xAxis->range().lower, 15.0);

        pump.resetSeries();
        view.refresh();
        QVERIFY(!view.isVisible());
    }

    void getsRoomInASplitterWhenTelemetryArrives()
    {
        // As on the Cache & bandwidth page: laid out while hidden, shown by the first telemetry batch. A QSplitter
        // gives such a widget no height unless it claims some (the plot was there, 0 pixels high).
        Page page(800);
        QVERIFY(QTest::qWaitForWindowExposed(&page.split));
        FramePump& pump = page.pump;
        QueuedFeed* feed = page.feed;
        QSplitter& split = page.split;
        TelemetryTimeline* view = page.view;
        QCOMPARE(split.sizes().value(1), 0);
        feed->push(batch(1 * kSecond, true, rdt::SampleFirst));
        feed->push(batch(2 * kSecond, true));
        pump.pumpOnce();
        view->refresh();
        QVERIFY(view->isVisible());
        QVERIFY2(split.sizes().value(1) >= view->minimumSizeHint().height(),
            qPrintable(QStringLiteral("telemetry plot height %1").arg(split.sizes().value(1))));
        QVERIFY(split.sizes().value(0) > 0);
    }

    void timeAxisLinesUpWithTheTimelines()
    {
        // The timelines leave room on their right for the group list; the power plot below spans the page. The same
        // second must sit at the same x in both (they were 180 px apart at the right edge).
        Page page(1000);
        QVERIFY(QTest::qWaitForWindowExposed(&page.split));
        FramePump& pump = page.pump;
        QueuedFeed* feed = page.feed;
        TimelineView* timelines = page.timelines;
        TelemetryTimeline* view = page.view;
        for (int i = 1; i <= 3; ++i)
            feed->push(
                batch(static_cast<std::uint64_t>(i) * kSecond, true, i == 1 ? std::uint32_t { rdt::SampleFirst } : 0u));
        pump.pumpOnce();
        // Frames as the pump drives them: each plot lays out from the other's last replot, so two frames settle it.
        for (int frame = 0; frame < 3; ++frame) {
            timelines->plot()->replot(QCustomPlot::rpImmediateRefresh);
            view->refresh();
            view->plot()->replot(QCustomPlot::rpImmediateRefresh);
        }
        timelines->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QRect top = timelines->plot()->axisRect()->rect();
        const QRect bottom = view->plot()->axisRect()->rect();
        const int topLeft = timelines->plot()->mapToGlobal(top.topLeft()).x();
        const int bottomLeft = view->plot()->mapToGlobal(bottom.topLeft()).x();
        QVERIFY2(std::abs(topLeft - bottomLeft) <= 1,
            qPrintable(QStringLiteral("left %1 vs %2").arg(topLeft).arg(bottomLeft)));
        QVERIFY2(std::abs((topLeft + top.width()) - (bottomLeft + bottom.width())) <= 1,
            qPrintable(QStringLiteral("right %1 vs %2").arg(topLeft + top.width()).arg(bottomLeft + bottom.width())));
        QCOMPARE(view->plot()->xAxis->range().lower, timelines->visibleRange().first);

        // Neither plot holds the other's margin up: room asked once (100 px more) is given back on the next frames.
        timelines->setAxisLeftAtLeast(topLeft + 100);
        for (int frame = 0; frame < 3; ++frame) {
            timelines->plot()->replot(QCustomPlot::rpImmediateRefresh);
            view->refresh();
            view->plot()->replot(QCustomPlot::rpImmediateRefresh);
        }
        timelines->plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(timelines->plot()->mapToGlobal(timelines->plot()->axisRect()->rect().topLeft()).x(), topLeft);
        QCOMPARE(view->plot()->mapToGlobal(view->plot()->axisRect()->rect().topLeft()).x(), bottomLeft);
    }
};

QTEST_MAIN(TestTelemetryTimeline)
#include "test_telemetry_timeline.moc"
