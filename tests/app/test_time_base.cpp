// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #42 item 4: one time base. On the simulator, a range Shift+dragged on the RDT timelines is the same seconds
// on the PMU pages (TMA caption, call-stack range boxes), and the PMU run starts where the timelines place it, not
// at 0 s of its own; a range dragged on the TMA plot is drawn on the timelines at the same seconds.
#include "EngineSource.h"
#include "MainWindow.h"
#include "models/PmuSession.h"
#include "views/CallStacksPage.h"
#include "views/PmuPages.h"
#include "views/TimelineView.h"
#include "views/TmaView.h"

#include <QDoubleSpinBox>
#include <QTest>

#include <cmath>

class TimeBase : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void timelineRangeIsTheSameSecondsOnThePmuPages()
    {
        auto sim = openEngineSource("sim", "noisy-neighbour", 10.0);
        QVERIFY2(sim.ok(), sim.ok() ? "" : sim.error().toString().c_str());
        MainWindow w;
        w.setSource(std::move(sim.value()));
        // The RDT timelines run for a while before the PMU starts: its first sample is then well past 0 s.
        QTRY_VERIFY_WITH_TIMEOUT(
            w.timelines()->plottedPoints(QStringLiteral("victim"), Metric::Occupancy) >= 15, 30000);
        PmuSession* pmu = w.pmuPages()->session();
        QVERIFY(w.pmuPages()->startFromOptions({}, QStringLiteral("sim"), true));
        QTRY_VERIFY_WITH_TIMEOUT(pmu->duration() > 1.5, 60000);
        pmu->waitForAggregation();
        QVERIFY2(pmu->startSeconds() > 1.0, qPrintable(QString::number(pmu->startSeconds())));
        const double from = pmu->startSeconds() + 0.25, to = pmu->startSeconds() + 1.25;

        w.timelines()->setSelectedRange(from, to); // what a Shift+drag ends with
        QVERIFY(pmu->hasTimeRange());
        QVERIFY(pmu->timeRangeFromTimeline());
        QVERIFY2(std::abs(pmu->rangeFrom() - from) < 1e-6, qPrintable(QString::number(pmu->rangeFrom())));
        QVERIFY2(std::abs(pmu->rangeTo() - to) < 1e-6, qPrintable(QString::number(pmu->rangeTo())));
        pmu->waitForAggregation();
        QTRY_VERIFY_WITH_TIMEOUT(w.pmuPages()->tmaView()->caption().contains(
                                     QStringLiteral("%1 s to %2 s").arg(from, 0, 'f', 3).arg(to, 0, 'f', 3)),
            10000);
        auto* boxFrom = w.pmuPages()->callStacksPage()->findChild<QDoubleSpinBox*>(QStringLiteral("rangeFrom"));
        auto* boxTo = w.pmuPages()->callStacksPage()->findChild<QDoubleSpinBox*>(QStringLiteral("rangeTo"));
        QVERIFY(boxFrom && boxTo);
        QVERIFY2(std::abs(boxFrom->value() - from) < 1e-3, qPrintable(QString::number(boxFrom->value())));
        QVERIFY2(std::abs(boxTo->value() - to) < 1e-3, qPrintable(QString::number(boxTo->value())));
        // Every TMA point the page counts in the range is at a time inside it, on the same axis.
        int inside = 0;
        for (const auto& p : pmu->data().tma) {
            const double t = pmu->secondsOf(p.time);
            inside += t >= from && t <= to ? 1 : 0;
        }
        QVERIFY(inside > 0);

        // The other way: a range dragged on the TMA plot is the same seconds on the timelines.
        w.timelines()->clearSelectedRange();
        pmu->setTimeRange(from + 0.1, to - 0.1);
        QVERIFY(w.timelines()->linkedRangeVisible());
        QVERIFY(std::abs(w.timelines()->linkedRange().first - (from + 0.1)) < 1e-9);
        QVERIFY(std::abs(w.timelines()->linkedRange().second - (to - 0.1)) < 1e-9);
    }
};

QTEST_MAIN(TimeBase)
#include "test_time_base.moc"
