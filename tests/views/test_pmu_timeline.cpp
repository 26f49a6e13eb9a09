// SPDX-License-Identifier: GPL-3.0-or-later
// A range selected on the shared RDT timeline filters every PMU view (issue 9): the selection itself (shift+drag,
// double-click, Esc, Clear range), the clock mapping onto a simulated PMU run (anchored to the wall clock of each
// step) and onto live data (CLOCK_MONOTONIC), and the refusal for an imported file (its clock is another machine's).
#include "../models/pmu_fixtures.h"
#include "models/CallGraphModel.h"
#include "models/FramePump.h"
#include "models/LatencyModel.h"
#include "models/PmuSession.h"
#include "models/QueuedFeed.h"
#include "models/TmaModel.h"
#include "views/CallGraphView.h"
#include "views/LatencyView.h"
#include "views/PmuPages.h"
#include "views/PmuStatusBanner.h"
#include "views/QCustomPlotInclude.h"
#include "views/TimelineView.h"
#include "views/TmaView.h"

#include <QAbstractItemModelTester>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>

using namespace rdt::pmu;

namespace {

std::uint64_t loadsIn(const PmuSession& s, double from, double to)
{
    std::uint64_t n = 0;
    for (const auto& l : s.data().loads) {
        const double t = s.secondsOf(l.time);
        n += t >= from && t <= to ? 1u : 0u;
    }
    return n;
}

/// A live-clock feed whose batches are stamped base + k * 100 ms (k = 0..50): timeline second t is base + t s.
std::unique_ptr<QueuedFeed> feedOf(SourceKind kind, std::uint64_t base)
{
    SourceDescription d;
    d.kind = kind;
    d.name = kind == SourceKind::Replay ? "replay:test.rdts" : "resctrl:test";
    auto feed = std::make_unique<QueuedFeed>(d);
    for (std::uint64_t k = 0; k <= 50; ++k) {
        rdt::RdtSampleBatch b;
        b.timeNs = base + k * 100'000'000;
        feed->push(std::move(b));
    }
    return feed;
}

} // namespace

class TestPmuTimeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shiftDragSelectsAndClears()
    {
        FramePump pump;
        TimelineView v(&pump);
        v.resize(1000, 600);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setVisibleRange(0, 100);
        v.plot()->replot();
        QCPAxis* x = v.plot()->axisRect(1)->axis(QCPAxis::atBottom);
        const QRect r = v.plot()->axisRect(1)->rect();
        const int x0 = static_cast<int>(x->coordToPixel(20)), x1 = static_cast<int>(x->coordToPixel(60));
        const int y = r.center().y();
        QSignalSpy selected(&v, &TimelineView::rangeSelected);
        QSignalSpy cleared(&v, &TimelineView::rangeCleared);
        QTest::mousePress(v.plot(), Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, y)); // right to left
        QTest::mouseMove(v.plot(), QPoint((x0 + x1) / 2, y));
        QTest::mouseRelease(v.plot(), Qt::LeftButton, Qt::ShiftModifier, QPoint(x0, y));
        QCOMPARE(selected.count(), 1);
        const double from = selected.at(0).at(0).toDouble(), to = selected.at(0).at(1).toDouble();
        QCOMPARE(from, x->pixelToCoord(x0));
        QCOMPARE(to, x->pixelToCoord(x1));
        QVERIFY(std::abs(from - 20) < 0.5 && std::abs(to - 60) < 0.5); // one pixel is ~0.11 s here
        QVERIFY(v.hasSelectedRange());
        QCOMPARE(v.selectedRange(), std::make_pair(from, to));
        // The shift+drag selected; it did not pan the plot.
        QCOMPARE(v.visibleRange(), std::make_pair(0.0, 100.0));
        QToolButton* clear = nullptr;
        for (auto* b : v.findChildren<QToolButton*>())
            if (b->text() == QStringLiteral("Clear range")) clear = b;
        QVERIFY(clear && clear->isVisible());

        // A plain drag still pans and leaves the selection alone.
        QTest::mousePress(v.plot(), Qt::LeftButton, {}, QPoint(x1, y));
        QTest::mouseMove(v.plot(), QPoint(x0, y));
        QTest::mouseRelease(v.plot(), Qt::LeftButton, {}, QPoint(x0, y));
        QCOMPARE(selected.count(), 1);
        QVERIFY(v.hasSelectedRange());

        QTest::mouseDClick(v.plot(), Qt::LeftButton, {}, QPoint(x0, y));
        QCOMPARE(cleared.count(), 1);
        QVERIFY(!v.hasSelectedRange());
        QVERIFY(!clear->isVisible());

        v.setSelectedRange(30, 10);
        QCOMPARE(selected.count(), 2);
        QCOMPARE(v.selectedRange(), std::make_pair(10.0, 30.0));
        clear->click();
        QCOMPARE(cleared.count(), 2);
        v.setSelectedRange(10, 30);
        v.plot()->setFocus();
        QTest::keyClick(v.plot(), Qt::Key_Escape);
        QCOMPARE(cleared.count(), 3);
    }

    void timelineRangeFiltersASimulatedRun()
    {
        PmuSession s;
        QString error;
        QVERIFY(s.startSimulation(PmuSimOptions {}, 1000000, 10'000'000, &error));
        s.stopSimulation();
        // Step k runs from k s to k s + 200 ms of this host's clock (two reads per step).
        int reads = 0;
        s.setMonotonicClock([&reads] {
            const int r = reads++;
            const std::uint64_t second = 1'000'000'000, step = 200'000'000;
            return static_cast<std::uint64_t>(r / 2 + 1) * second + static_cast<std::uint64_t>(r % 2) * step;
        });
        std::vector<std::uint64_t> end; // the simulated time each step reached
        std::uint64_t first = 0;
        for (int k = 1; k <= 6; ++k) {
            s.stepSimulation();
            s.waitForAggregation();
            if (k == 1) first = s.data().timeSpan().first;
            end.push_back(s.data().timeSpan().second);
        }
        QCOMPARE(reads, 12);
        QVERIFY(first > 0 && end.front() > first);
        TmaView tma(&s);
        LatencyView latency(&s);
        CallGraphView graph(&s);
        const double allLoads = latency.plottedTotal();
        // The views' models stay consistent through the asynchronous update (reset when the result is applied).
        QAbstractItemModelTester t1(tma.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(graph.hotBranches(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(latency.functions(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(latency.lines(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // 2.1 s is halfway through step 2 (simulated end[0] .. end[1]); 4.1 s halfway through step 4.
        QVERIFY(s.setTimelineRange(2'100'000'000, 4'100'000'000));
        QVERIFY(s.timeRangeFromTimeline());
        const double wantFrom = s.secondsOf(end[0] + (end[1] - end[0]) / 2);
        const double wantTo = s.secondsOf(end[2] + (end[3] - end[2]) / 2);
        QVERIFY(std::abs(s.rangeFrom() - wantFrom) < 2e-9);
        QVERIFY(std::abs(s.rangeTo() - wantTo) < 2e-9);
        s.waitForAggregation();
        // Every model holds exactly the samples inside, counted here from the data.
        const std::uint64_t loads = loadsIn(s, s.rangeFrom(), s.rangeTo());
        QVERIFY(loads > 0 && static_cast<double>(loads) < allLoads);
        QCOMPARE(latency.plottedTotal(), static_cast<double>(loads));
        std::uint64_t branches = 0;
        for (const auto& b : s.data().branches) {
            const double t = s.secondsOf(b.time);
            branches += t >= s.rangeFrom() && t <= s.rangeTo() ? 1u : 0u;
        }
        QVERIFY(branches > 0);
        QCOMPARE(s.branchGraph().samples, branches);
        QCOMPARE(graph.hotBranches()->report().samples, branches);
        double slots = 0;
        int points = 0;
        for (const auto& p : s.data().tma) {
            const double t = s.secondsOf(p.time);
            if (t >= s.rangeFrom() && t <= s.rangeTo() && p.breakdown.valid) {
                slots += p.breakdown.slots;
                ++points;
            }
        }
        QCOMPARE(points, 2); // the ends of steps 2 and 3 (step 4's end is after 4.1 s)
        QCOMPARE(tma.model()->breakdown().slots, slots);
        // Clearing the timeline's range drops the filter it set.
        s.clearTimelineRange();
        s.waitForAggregation();
        QVERIFY(!s.hasTimeRange());
        QCOMPARE(latency.plottedTotal(), allLoads);
    }

    void importedFileKeepsItsOwnClock()
    {
        PmuSession s;
        QSignalSpy done(&s, &PmuSession::importFinished);
        s.openPerfData(pmutest::fixture("perf.data.weight_struct"));
        QVERIFY(done.wait(60000));
        QVERIFY(done.at(0).at(0).toBool());
        LatencyView v(&s);
        v.resize(1000, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const double all = v.plottedTotal();
        QVERIFY(all > 0);
        const auto span = s.data().timeSpan();
        // Even a range that would cover the file's own timestamps is not applied: the clocks are unrelated.
        QVERIFY(!s.setTimelineRange(span.first, span.first + (span.second - span.first) / 2));
        QVERIFY(!s.hasTimeRange());
        QVERIFY(!s.aggregating());
        QCOMPARE(v.plottedTotal(), all);
        QVERIFY(s.timelineNote().contains(QStringLiteral("imported file")));
        auto* banner = v.findChild<PmuStatusBanner*>();
        QVERIFY(banner);
        QVERIFY(banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("recording machine")));
        s.clearTimelineRange();
        QVERIFY(!banner->isVisible());
    }

    void bannerSaysReaggregatingWhileTheWorkerRuns()
    {
        // 400k loads take long enough on the worker (hundreds of ms) for the banner's 0 ms timer to fire first.
        PmuData data;
        data.kind = PmuSourceKind::Simulated;
        data.name = "banner test";
        for (std::uint64_t i = 0; i < 400'000; ++i)
            data.loads.push_back({ 1'000'000'000 + i * 1000, 0x1000 + (i % 64) * 16, 0x2000 + (i % 4096) * 64, 0, 1,
                static_cast<std::uint32_t>(i % 300) });
        PmuSession s;
        s.setBusyDelayMs(0);
        LatencyView v(&s);
        v.resize(1000, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        s.setData(std::move(data));
        s.waitForAggregation();
        auto* banner = v.findChild<PmuStatusBanner*>();
        QVERIFY(banner);
        QTRY_VERIFY(!banner->isVisible());
        QSignalSpy busy(&s, &PmuSession::aggregatingChanged);
        s.setTimeRange(0, s.duration() / 2);
        QTRY_VERIFY_WITH_TIMEOUT(busy.count() >= 1, 30000);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        if (s.aggregating()) { // still running: the banner says so
            QVERIFY(banner->isVisible());
            QVERIFY(banner->text().contains(QStringLiteral("Re-aggregating")));
        }
        QTRY_VERIFY_WITH_TIMEOUT(!s.aggregating(), 30000);
        QCOMPARE(busy.last().at(0).toBool(), false);
        QVERIFY(!banner->isVisible());
        QCOMPARE(v.plottedTotal(), static_cast<double>(loadsIn(s, s.rangeFrom(), s.rangeTo())));
    }

    void mainWindowWiringFiltersLiveData()
    {
        // PmuPages::linkTimeline, as MainWindow calls it: timeline seconds -> CLOCK_MONOTONIC -> the PMU data.
        QMainWindow w;
        auto* tabs = new QTabWidget(&w);
        for (int i = 0; i < 5; ++i)
            tabs->addTab(new QWidget, QStringLiteral("page %1").arg(i));
        w.setCentralWidget(tabs);
        PmuPages pages(&w, tabs, 2, nullptr);
        FramePump pump;
        const std::uint64_t base = 5'000'000'000'000ull;
        pump.setFeed(feedOf(SourceKind::Live, base));
        pump.pumpOnce();
        TimelineView timeline(&pump);
        pages.linkTimeline(&timeline, &pump);
        PmuSession* s = pages.session();
        PmuData data;
        data.kind = PmuSourceKind::Live;
        data.name = "test";
        for (std::uint64_t i = 0; i < 500; ++i) // every 10 ms from base + 0.5 s
            data.loads.push_back({ base + 500'000'000 + i * 10'000'000, 0x1000, 0x2000, 0, 1, 10 });
        s->setData(std::move(data));
        s->waitForAggregation();
        timeline.setSelectedRange(1.0, 2.0); // base + 1 s .. base + 2 s: loads 50 .. 150
        QVERIFY(s->hasTimeRange());
        QVERIFY(!timeline.linkedRangeVisible()); // its own range is not mirrored back
        s->waitForAggregation();
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), std::uint64_t { 101 });
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), loadsIn(*s, s->rangeFrom(), s->rangeTo()));
        timeline.clearSelectedRange();
        s->waitForAggregation();
        QVERIFY(!s->hasTimeRange());
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), std::uint64_t { 500 });

        // A range dragged on the TMA plot shows on the timeline as the same seconds: one time base (the window's
        // clock), not seconds since the first load.
        s->setTimeRange(1.0, 2.0);
        QVERIFY(timeline.linkedRangeVisible());
        QVERIFY(std::abs(timeline.linkedRange().first - 1.0) < 1e-6);
        QVERIFY(std::abs(timeline.linkedRange().second - 2.0) < 1e-6);
        s->clearTimeRange();
        QVERIFY(!timeline.linkedRangeVisible());
        s->waitForAggregation();

        // A replayed recording's clock is its own: nothing is filtered, the pages say why.
        pump.setFeed(feedOf(SourceKind::Replay, base));
        pump.pumpOnce();
        timeline.setSelectedRange(1.0, 2.0);
        QVERIFY(!s->hasTimeRange());
        QVERIFY(s->timelineNote().contains(QStringLiteral("replays a recording")));
    }
};

QTEST_MAIN(TestPmuTimeline)
#include "test_pmu_timeline.moc"
