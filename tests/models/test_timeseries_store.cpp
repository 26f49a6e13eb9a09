// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/TimeSeriesStore.h"

#include <QTest>

#include <cmath>
#include <limits>

#include <algorithm>

class TestTimeSeriesStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rawPointsWhenFewerThanColumns()
    {
        TimeSeriesStore store;
        const int g = store.groupIndex(QStringLiteral("p0"));
        for (int i = 0; i < 10; ++i)
            QVERIFY(store.append(g, i * 0.1, { double(i), 0, 0, 0 }));
        const auto d = store.decimate(g, Metric::Occupancy, 0.0, 0.9, 100);
        QCOMPARE(d.keys.size(), std::size_t(10));
        QCOMPARE(d.values[3], 3.0);
        QCOMPARE(d.keys[3], 0.3);
    }

    void decimationKeepsPeaks_data()
    {
        QTest::addColumn<int>("samples");
        QTest::addColumn<int>("columns");
        QTest::newRow("one hour at 10 Hz into 800 px") << 36000 << 800;
        QTest::newRow("ten minutes into 300 px") << 6000 << 300;
        QTest::newRow("level 0 only") << 500 << 200;
    }
    void decimationKeepsPeaks()
    {
        QFETCH(int, samples);
        QFETCH(int, columns);
        TimeSeriesStore store;
        const int g = store.groupIndex(QStringLiteral("noisy"));
        // Flat 1.0 with one-sample spikes that a naive "every Nth point" thinning would lose.
        QList<int> spikes { samples / 7, samples / 3 + 1, samples - 5 };
        for (int i = 0; i < samples; ++i) {
            const double v = spikes.contains(i) ? 100.0 + i : (i == samples / 2 ? -50.0 : 1.0);
            store.append(g, i * 0.1, { 0, v, 0, 0 });
        }
        const double t1 = (samples - 1) * 0.1;
        const auto d = store.decimate(g, Metric::BandwidthTotal, 0.0, t1, columns);
        QVERIFY(d.keys.size() <= std::size_t(2 * columns + 4));
        QVERIFY(std::is_sorted(d.keys.begin(), d.keys.end()));
        for (int s : spikes) {
            const auto it = std::find(d.values.begin(), d.values.end(), 100.0 + s);
            QVERIFY2(it != d.values.end(), qPrintable(QStringLiteral("spike at %1 lost").arg(s)));
            // The peak is drawn within one and a half columns of where it happened (bucket <= column width).
            const double key = d.keys[std::size_t(it - d.values.begin())];
            QVERIFY(std::abs(key - s * 0.1) <= 1.5 * t1 / columns + 1e-9);
        }
        QCOMPARE(*std::min_element(d.values.begin(), d.values.end()), -50.0);
        QCOMPARE(store.maxValue(Metric::BandwidthTotal, 0.0, t1), 100.0 + spikes.last());
    }

    void historyIsBounded()
    {
        TimeSeriesStore store(60.0);
        const int g = store.groupIndex(QStringLiteral("p1"));
        for (int i = 0; i < 10 * 600; ++i) // ten minutes at 10 Hz
            store.append(g, i * 0.1, { double(i), 0, 0, 0 });
        QVERIFY(store.sampleCount(g) <= 601);
        QVERIFY(store.sampleCount(g) >= 600);
        const auto range = store.timeRange();
        QVERIFY(range.first >= 599.9 - 60.0 - 1e-9);
        QCOMPARE(range.second, 599.9);
        // Values from before the window are gone from every level (the peak would be i = 5999 anyway).
        const auto d = store.decimate(g, Metric::Occupancy, 0.0, 599.9, 10);
        QVERIFY(*std::min_element(d.values.begin(), d.values.end()) >= 5300.0);
        store.setHistorySeconds(10.0);
        QVERIFY(store.sampleCount(g) <= 101);
    }

    void outOfOrderAndBadInputDropped()
    {
        TimeSeriesStore store;
        const int g = store.groupIndex(QStringLiteral("a"));
        QVERIFY(store.append(g, 1.0, { 1, 1, 1, 1 }));
        QVERIFY(!store.append(g, 0.5, { 2, 2, 2, 2 }));
        QVERIFY(!store.append(g + 5, 2.0, { 2, 2, 2, 2 }));
        QVERIFY(!store.append(g, std::nan(""), { 2, 2, 2, 2 }));
        QCOMPARE(store.sampleCount(g), std::size_t(1));
        QVERIFY(store.decimate(g, Metric::Occupancy, 2.0, 1.0, 10).keys.empty());
        QVERIFY(store.decimate(g, Metric::Occupancy, 0.0, 2.0, 0).keys.empty());
        QCOMPARE(store.groupIndex(QStringLiteral("a")), g);
        QCOMPARE(store.groupNames(), QStringList { QStringLiteral("a") });
    }

    // An unknown reading (NaN) stays unknown: drawn as a gap at every decimation level, never as 0, and ignored by
    // the axis scaling; a bucket with one good reading keeps it.
    void unknownReadingsAreGapsAtEveryLevel()
    {
        TimeSeriesStore store;
        const int g = store.groupIndex(QStringLiteral("a"));
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (int i = 0; i < 4096; ++i) {
            const double v = (i >= 1000 && i < 2000) ? nan : 5.0; // 100 s of unknown bandwidth in the middle
            QVERIFY(store.append(g, i * 0.1, { 1, v, v, v }));
        }
        // Raw level: the unknown points are NaN.
        const auto raw = store.decimate(g, Metric::BandwidthTotal, 99.0, 101.0, 1000);
        QVERIFY(!raw.values.empty());
        for (std::size_t i = 0; i < raw.keys.size(); ++i) {
            if (raw.keys[i] >= 100.0 - 1e-9 && raw.keys[i] < 199.9)
                QVERIFY2(std::isnan(raw.values[i]), "a 0 was drawn");
            if (raw.keys[i] < 99.95) QCOMPARE(raw.values[i], 5.0);
        }
        // Pyramid levels: columns wholly inside the unknown span are NaN, none is 0.
        const auto coarse = store.decimate(g, Metric::BandwidthTotal, 0.0, 409.5, 40);
        int gaps = 0;
        for (std::size_t i = 0; i < coarse.keys.size(); ++i) {
            QVERIFY2(coarse.values[i] != 0.0, "an unknown reading became 0");
            if (std::isnan(coarse.values[i])) {
                ++gaps;
                QVERIFY(coarse.keys[i] > 95.0 && coarse.keys[i] < 205.0);
            }
        }
        QVERIFY2(gaps >= 8, qPrintable(QString::number(gaps)));
        QCOMPARE(store.maxValue(Metric::BandwidthTotal, 0.0, 409.5), 5.0);
        QCOMPARE(store.maxValue(Metric::BandwidthTotal, 110.0, 190.0), 0.0); // nothing known: no height
        // Occupancy was known all along: no gap.
        for (double v : store.decimate(g, Metric::Occupancy, 0.0, 409.5, 40).values)
            QCOMPARE(v, 1.0);
    }

    void rawExportCoversRange()
    {
        TimeSeriesStore store;
        const int g = store.groupIndex(QStringLiteral("a"));
        for (int i = 0; i < 100; ++i)
            store.append(g, i, { double(i), 2.0 * i, 0, 0 });
        int count = 0;
        store.forEachRaw(g, 10.0, 19.0, [&](double t, const std::array<double, kMetricCount>& v) {
            QCOMPARE(v[1], 2.0 * t);
            ++count;
        });
        QCOMPARE(count, 10);
    }
};

QTEST_GUILESS_MAIN(TestTimeSeriesStore)
#include "test_timeseries_store.moc"
