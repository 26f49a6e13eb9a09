// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/ColumnEnvelope.h"

#include <QTest>

#include <cmath>

namespace {
double wave(int i)
{
    return 100.0 + 50.0 * std::sin(i * 0.013) + ((i * 7919) % 13);
}
} // namespace

class TestColumnEnvelope : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// Following a live series frame by frame gives exactly the envelope a fresh rebuild of the same view gives,
    /// without rebuilding on every frame.
    void incrementalMatchesRebuild()
    {
        TimeSeriesStore store;
        const int g = store.groupIndex(QStringLiteral("p"));
        const double window = 300.0;
        const int columns = 400;
        int i = 0;
        for (; i < 6000; ++i)
            store.append(g, i * 0.1, { 0, wave(i), 0, 0 });
        ColumnEnvelope live;
        for (int frame = 0; frame < 200; ++frame, ++i) {
            store.append(g, i * 0.1, { 0, wave(i), 0, 0 });
            const double now = i * 0.1;
            live.update(store, g, Metric::BandwidthTotal, now - window, now, columns);
        }
        QVERIFY2(live.rebuilds() <= 2, qPrintable(QString::number(live.rebuilds())));
        const double now = (i - 1) * 0.1;
        ColumnEnvelope fresh;
        fresh.update(store, g, Metric::BandwidthTotal, now - window, now, columns);
        QCOMPARE(fresh.rebuilds(), 1);
        // The rebuild reduces through pyramid buckets (up to a column wide, assigned by their start), the live one
        // sample by sample: columns fully inside the view hold the same extremes within one column's drift.
        const auto& a = live.columns();
        const auto& b = fresh.columns();
        QVERIFY(a.size() >= std::size_t(columns - 2));
        QVERIFY(std::abs(static_cast<long>(a.size()) - static_cast<long>(b.size())) <= 2);
        QCOMPARE(a.back().index, b.back().index);
        QCOMPARE(a.back().hi, b.back().hi);
        QCOMPARE(a.back().lo, b.back().lo);
        QCOMPARE(live.maxIn(now - window, now), fresh.maxIn(now - window, now));
    }

    /// A one-sample spike arriving while following is in the envelope, in its own column, and sets the maximum.
    void spikeSurvivesFollowing()
    {
        TimeSeriesStore store;
        const int g = store.groupIndex(QStringLiteral("p"));
        ColumnEnvelope env;
        int i = 0;
        for (; i < 4000; ++i)
            store.append(g, i * 0.1, { 1.0, 0, 0, 0 });
        env.update(store, g, Metric::Occupancy, i * 0.1 - 60.0, i * 0.1, 100);
        store.append(g, i * 0.1, { 500.0, 0, 0, 0 });
        const double spikeT = i * 0.1;
        for (++i; i < 4100; ++i) {
            store.append(g, i * 0.1, { 1.0, 0, 0, 0 });
            env.update(store, g, Metric::Occupancy, i * 0.1 - 60.0, i * 0.1, 100);
        }
        QCOMPARE(env.rebuilds(), 1);
        QCOMPARE(env.maxIn(i * 0.1 - 60.0, i * 0.1), 500.0);
        int found = 0;
        for (const auto& c : env.columns()) {
            if (c.hi == 500.0f) {
                ++found;
                QVERIFY(std::abs(env.keyOf(c) - spikeT) <= env.columnWidth());
            }
            QCOMPARE(c.lo, 1.0f);
        }
        QCOMPARE(found, 1);
    }

    /// Zooming (another column width) and panning back rebuild; an unchanged view reports no change.
    void rebuildsOnZoomAndPanBack()
    {
        TimeSeriesStore store;
        const int g = store.groupIndex(QStringLiteral("p"));
        for (int i = 0; i < 3000; ++i)
            store.append(g, i * 0.1, { wave(i), 0, 0, 0 });
        ColumnEnvelope env;
        QVERIFY(env.update(store, g, Metric::Occupancy, 200.0, 290.0, 90));
        QVERIFY(!env.update(store, g, Metric::Occupancy, 200.0, 290.0, 90));
        QCOMPARE(env.rebuilds(), 1);
        QVERIFY(env.update(store, g, Metric::Occupancy, 200.0, 290.0, 45));
        QCOMPARE(env.rebuilds(), 2);
        QVERIFY(env.update(store, g, Metric::Occupancy, 100.0, 190.0, 45));
        QCOMPARE(env.rebuilds(), 3);
        QVERIFY(env.update(store, g, Metric::Occupancy, 0.0, 0.0, 45)); // empty view clears
        QVERIFY(env.columns().empty());
    }
};

QTEST_GUILESS_MAIN(TestColumnEnvelope)
#include "test_column_envelope.moc"
