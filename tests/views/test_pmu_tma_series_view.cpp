// SPDX-License-Identifier: GPL-3.0-or-later
// The TMA page on a hybrid part's data (two TMA series: P-cores with level 2, E-cores level 1 only): the core-type
// selector appears, switching it swaps the plot and the tree to the chosen series' values, the E-cores' tree has
// no level-2 rows, a time range filters both series; with one series (simulated) no selector is shown.
#include "models/PmuSession.h"
#include "models/TmaModel.h"
#include "views/QCustomPlotInclude.h"
#include "views/TmaView.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QTest>

#include <cmath>

using namespace rdt::pmu;

namespace {

constexpr std::uint64_t kT0 = 2'000'000'000;

TmaBreakdown breakdown(double retiring, double badSpec, double fe, double slots, bool level2)
{
    TmaBreakdown b;
    b.valid = true;
    b.slots = slots;
    b.level1 = { retiring, badSpec, fe, 1.0 - retiring - badSpec - fe };
    if (level2) {
        b.level2.present = true;
        b.level2.heavyOperations = 0.1;
        b.level2.lightOperations = retiring - 0.1;
        b.level2.branchMispredicts = badSpec;
        b.level2.fetchLatency = fe;
        b.level2.memoryBound = b.level1.backendBound;
    }
    return b;
}

/// P-cores: 5 intervals, retiring 0.6, frontend 0.1. E-cores: 3 intervals (at 0, 2, 4 s), retiring 0.2, frontend 0.5.
PmuData hybridData()
{
    PmuData d;
    d.kind = PmuSourceKind::Live;
    d.name = "view test";
    d.tmaSeries = { "P-cores (cpu_core)", "E-cores (cpu_atom)" };
    for (std::uint64_t i = 0; i < 5; ++i) {
        d.tma.push_back({ kT0 + i * 1'000'000'000, breakdown(0.6, 0.1, 0.1, 1000, true), 0 });
        if (i % 2 == 0) d.tma.push_back({ kT0 + i * 1'000'000'000 + 500, breakdown(0.2, 0.1, 0.5, 600, false), 1 });
    }
    return d;
}

double fraction(const ::TmaModel* m, int row, const QModelIndex& parent = {})
{
    return m->index(row, ::TmaModel::FractionColumn, parent).data(::TmaModel::FractionRole).toDouble();
}

bool near(double a, double b)
{
    return std::abs(a - b) < 1e-9;
}

} // namespace

class TestPmuTmaSeriesView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void selectorSwitchesTheBreakdown()
    {
        PmuSession s;
        TmaView v(&s);
        v.resize(1000, 700);
        QAbstractItemModelTester tester(v.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(!v.seriesSelector()->isVisibleTo(&v)); // no data: no selector
        s.setData(hybridData());
        s.waitForAggregation();
        QComboBox* box = v.seriesSelector();
        QVERIFY(box->isVisibleTo(&v));
        QCOMPARE(box->count(), 2);
        QCOMPARE(box->itemText(0), QStringLiteral("P-cores (cpu_core)"));
        QCOMPARE(box->itemText(1), QStringLiteral("E-cores (cpu_atom)"));
        QCOMPARE(v.currentSeries(), 0);

        // P-cores: the plot has the five P intervals, the tree level 1 and level 2.
        const ::TmaModel* m = v.model();
        QCOMPARE(v.pointCount(), 5);
        QVERIFY(near(fraction(m, 0), 0.6));
        QVERIFY(near(fraction(m, 2), 0.1));
        QCOMPARE(m->rowCount(m->index(0, 0)), 2);
        QVERIFY(near(fraction(m, 0, m->index(0, 0)), 0.1)); // heavy operations
        QVERIFY(v.caption().contains(QStringLiteral("P-cores (cpu_core)")));

        // E-cores through the combo box: three intervals, their fractions, no level-2 rows (not zeros).
        box->setCurrentIndex(1);
        QCOMPARE(v.currentSeries(), 1);
        QCOMPARE(v.pointCount(), 3);
        QVERIFY(near(fraction(m, 0), 0.2));
        QVERIFY(near(fraction(m, 2), 0.5));
        QCOMPARE(m->breakdown().slots, 1800.0);
        QCOMPARE(m->rowCount(), 4);
        for (int r = 0; r < 4; ++r)
            QCOMPARE(m->rowCount(m->index(r, 0)), 0);
        QVERIFY(v.caption().contains(QStringLiteral("E-cores (cpu_atom)")));
        QVERIFY(v.caption().contains(QStringLiteral("level 1 only")));

        // A time range filters both series; the selection stays on E-cores.
        s.setTimeRange(1.5, 4.5); // P at 2, 3, 4 s; E at 2 s and 4 s (+500 ns)
        s.waitForAggregation();
        QCOMPARE(v.currentSeries(), 1);
        QCOMPARE(m->breakdown().slots, 1200.0);
        QCOMPARE(s.rangeTma(0).slots, 3000.0);
        v.setCurrentSeries(0);
        QCOMPARE(m->breakdown().slots, 3000.0);
        QCOMPARE(m->rowCount(m->index(3, 0)), 2);
        QVERIFY(near(fraction(m, 0, m->index(3, 0)), 0.2)); // memory bound = backend bound here
        s.setTimeRange(4.2, 4.9); // no interval of either series
        s.waitForAggregation();
        QCOMPARE(m->rowCount(), 0);
        v.setCurrentSeries(1);
        QCOMPARE(m->rowCount(), 0);
        QVERIFY(v.caption().contains(QStringLiteral("no TMA interval in the selected range")));
    }

    void oneSeriesShowsNoSelector()
    {
        PmuSession s;
        TmaView v(&s);
        QString error;
        QVERIFY2(s.startSimulation(PmuSimOptions {}, 1000000, 10'000'000, &error), qPrintable(error));
        s.stopSimulation();
        for (int i = 0; i < 3; ++i)
            s.stepSimulation();
        s.waitForAggregation();
        QVERIFY(s.data().tmaSeries.empty());
        QCOMPARE(v.pointCount(), 3);
        QVERIFY(!v.seriesSelector()->isVisibleTo(&v));
        QCOMPARE(v.currentSeries(), 0);
        QVERIFY(v.model()->breakdown().valid);
        QCOMPARE(v.model()->rowCount(v.model()->index(0, 0)), 2); // the simulated PMU has level 2
        QVERIFY(!v.caption().contains(QStringLiteral("P-cores")));

        // Hybrid data, then one-series data again: the selector goes away and the first series is shown.
        s.setData(hybridData());
        s.waitForAggregation();
        v.setCurrentSeries(1);
        QCOMPARE(v.pointCount(), 3);
        PmuData one;
        one.kind = PmuSourceKind::Simulated;
        one.name = "one";
        one.tma.push_back({ kT0, breakdown(0.3, 0.2, 0.1, 10, true), 0 });
        s.setData(std::move(one));
        s.waitForAggregation();
        QVERIFY(!v.seriesSelector()->isVisibleTo(&v));
        QCOMPARE(v.currentSeries(), 0);
        QCOMPARE(v.pointCount(), 1);
        QVERIFY(near(fraction(v.model(), 0), 0.3));
    }
};

QTEST_MAIN(TestPmuTmaSeriesView)
#include "test_pmu_tma_series_view.moc"
