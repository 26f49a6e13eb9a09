// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/FramePump.h"
#include "models/QueuedFeed.h"
#include "rdt/SampleCsv.h"
#include "views/QCustomPlotInclude.h"
#include "views/TimelineGroupList.h"
#include "views/TimelineView.h"

#include <QListWidget>

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {
constexpr std::uint64_t kSecond = 1'000'000'000;

rdt::RdtSampleBatch batch(std::uint64_t t, double victimOcc, double streamerBw)
{
    rdt::RdtSampleBatch b;
    b.timeNs = t;
    rdt::RdtSample victim;
    victim.timeNs = t;
    victim.group = "victim";
    victim.occupancyBytes = static_cast<std::uint64_t>(victimOcc);
    victim.mbmTotalBps = 1e9;
    victim.mbmLocalBps = 1e9;
    rdt::RdtSample streamer = victim;
    streamer.group = "streamer";
    streamer.occupancyBytes = 20u << 20;
    streamer.mbmTotalBps = streamerBw;
    streamer.mbmLocalBps = streamerBw * 0.6;
    b.samples = { victim, streamer };
    return b;
}

struct Fixture {
    FramePump pump;
    QueuedFeed* feed = nullptr;
    Fixture()
    {
        auto f = std::make_unique<QueuedFeed>(
            SourceDescription { SourceKind::Simulated, "sim:test", "test data", {}, {} });
        feed = f.get();
        pump.setFeed(std::move(f));
    }
    /// `seconds` of steady samples at 10 Hz (3 MiB, 12 GB/s).
    void steady(int seconds)
    {
        for (int i = 0; i < seconds * 10; ++i)
            feed->push(batch(static_cast<std::uint64_t>(i) * kSecond / 10, 3e6, 12e9));
    }
    /// An allocation change of `group`'s L3 or MB at `seconds`, as the GUI or a replay's observer reports it.
    void change(double seconds, const char* group, const char* resource = "L3", const std::string& oldValue = "7ff",
        const std::string& newValue = "3", const char* who = "gui")
    {
        rdt::AllocationChanged c;
        c.timeNs = static_cast<std::uint64_t>(seconds * 1e9);
        c.who = who;
        c.group = group;
        c.resource = resource;
        c.oldValue = oldValue;
        c.newValue = newValue;
        c.ok = true;
        feed->push(c);
    }
    /// 60 s at 10 Hz; at t = 30 s the streamer is fenced (a marker) and its bandwidth drops.
    void fill()
    {
        for (int i = 0; i < 600; ++i) {
            const bool after = i >= 300;
            feed->push(batch(static_cast<std::uint64_t>(i) * kSecond / 10, after ? 12e6 : 3e6, after ? 4e9 : 12e9));
        }
        change(30, "streamer");
    }
};
} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void receivesSamplesAndMarkers()
    {
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        f.fill();
        f.pump.pumpOnce(); // the frame signal drives refresh()
        QVERIFY(view.plottedPoints(QStringLiteral("victim"), Metric::Occupancy) > 0);
        QVERIFY(view.plottedPoints(QStringLiteral("streamer"), Metric::BandwidthTotal) > 0);
        QCOMPARE(view.plottedPoints(QStringLiteral("streamer"), Metric::BandwidthLocal), 0); // off by default
        QCOMPARE(view.markerCount(), 1);
        // The bandwidth axis fits the 12 GB/s peak before the fence.
        const auto bwRange = view.plot()->axisRects().at(1)->axis(QCPAxis::atLeft)->range();
        QVERIFY(bwRange.upper >= 12.0 && bwRange.upper < 16.0);
        // Following: the window ends at the newest sample.
        QCOMPARE(view.visibleRange().second, 59.9); // window 300 s > data: the axis ends at the newest sample
        view.setWindowSeconds(30);
        QCOMPARE(view.visibleRange().first, 29.9);
        QCOMPARE(view.visibleRange().second, 59.9);
        // After the fence the visible window only holds the streamer's 4 GB/s: the axis follows what is visible.
        const auto bwAfter = view.plot()->axisRects().at(1)->axis(QCPAxis::atLeft)->range();
        QVERIFY(bwAfter.upper >= 4.0 && bwAfter.upper < 6.0);
        // The marker's label (30 s) stays readable: right of its line where it fits, left of it when the line is so
        // near the right edge that a left-aligned label would be cut.
        QVERIFY(view.markerLabelAlignment(0) & Qt::AlignLeft);
        view.setVisibleRange(0, 32);
        QVERIFY(view.markerLabelAlignment(0) & Qt::AlignRight);
        view.setVisibleRange(20, 60);
        QVERIFY(view.markerLabelAlignment(0) & Qt::AlignLeft);
        view.setMetricVisible(Metric::BandwidthRemote, true);
        QVERIFY(view.plottedPoints(QStringLiteral("streamer"), Metric::BandwidthRemote) > 0);
    }

    void exportLegendListsThePlottedGroups()
    {
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(900, 600);
        f.fill();
        f.pump.pumpOnce();
        auto* plot = view.findChild<QCustomPlot*>();
        QVERIFY(plot && plot->legend);
        QCOMPARE(plot->legend->parentPlot(), plot);
        QCOMPARE(plot->legend->itemCount(), 2); // victim and streamer
        view.setGroupVisible(QStringLiteral("victim"), false);
        QCOMPARE(plot->legend->itemCount(), 1);
    }

    void legendToggleHidesGroup()
    {
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(900, 600);
        f.fill();
        f.pump.pumpOnce();
        QVERIFY(view.groupVisible(QStringLiteral("victim")));
        view.setGroupVisible(QStringLiteral("victim"), false);
        QCOMPARE(view.plottedPoints(QStringLiteral("victim"), Metric::Occupancy), 0);
        QVERIFY(view.plottedPoints(QStringLiteral("streamer"), Metric::Occupancy) > 0);
        view.setGroupVisible(QStringLiteral("victim"), true);
        QVERIFY(view.plottedPoints(QStringLiteral("victim"), Metric::Occupancy) > 0);
    }

    // A server's 128 monitor groups with long names: the group list has a row per group with its whole name
    // (never truncated, as the in-plot legend did: "Guara", "gores"), the first kInitiallyPlotted are plotted,
    // a check box plots one more, the filter finds a group, and Top 8 picks the busiest.
    void groupListAtServerScale()
    {
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(1000, 600);
        view.show();
        for (int i = 0; i < 100; ++i) {
            rdt::RdtSampleBatch b;
            b.timeNs = static_cast<std::uint64_t>(i) * kSecond / 10;
            for (int g = 0; g < 128; ++g) {
                rdt::RdtSample s;
                s.timeNs = b.timeNs;
                s.group
                    = "gorestctrl.Guaranteed/mon_groups/pod-" + std::to_string(g) + "-a-rather-long-kubernetes-name";
                s.mbmTotalBps = g == 77 || g == 100 ? 9e9 : 1e8 + g; // two busy groups far down the list
                b.samples.push_back(s);
            }
            f.feed->push(b);
        }
        f.pump.pumpOnce();
        auto* list = view.groupList();
        QCOMPARE(list->rowCount(), 128);
        int plotted = 0;
        for (int r = 0; r < list->rowCount(); ++r) {
            QVERIFY2(list->rowText(r).endsWith(QStringLiteral("-a-rather-long-kubernetes-name")),
                qPrintable(list->rowText(r)));
            QVERIFY2(list->rowTextFits(r), qPrintable(QStringLiteral("row %1 is cut").arg(r)));
            plotted += view.groupVisible(QString::fromStdString("gorestctrl.Guaranteed/mon_groups/pod-"
                           + std::to_string(r) + "-a-rather-long-kubernetes-name"))
                ? 1
                : 0;
        }
        QCOMPARE(plotted, TimelineView::kInitiallyPlotted);
        const QString busy = QStringLiteral("gorestctrl.Guaranteed/mon_groups/pod-77-a-rather-long-kubernetes-name");
        QVERIFY(!view.groupVisible(busy));
        QCOMPARE(view.plottedPoints(busy, Metric::BandwidthTotal), 0);
        view.showTopGroups(8);
        QVERIFY(view.groupVisible(busy));
        QVERIFY(list->isChecked(busy));
        QVERIFY(view.plottedPoints(busy, Metric::BandwidthTotal) > 0);
        // Unticking a row hides the group's lines.
        list->list()->findItems(QStringLiteral("pod-77-"), Qt::MatchContains).first()->setCheckState(Qt::Unchecked);
        QVERIFY(!view.groupVisible(busy));
        QCOMPARE(view.plottedPoints(busy, Metric::BandwidthTotal), 0);
    }

    void zoomPausesFollow()
    {
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(900, 600);
        f.fill();
        f.pump.pumpOnce();
        QSignalSpy follow(&view, &TimelineView::followChanged);
        view.setVisibleRange(10, 20);
        QCOMPARE(follow.count(), 1);
        QVERIFY(!view.follow());
        f.feed->push(batch(70 * kSecond, 1, 1));
        f.pump.pumpOnce();
        QCOMPARE(view.visibleRange().first, 10.0); // paused: new data does not move the view
        view.setFollow(true);
        QCOMPARE(view.visibleRange().second, 70.0);
    }

    void exportsVisibleRange()
    {
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(800, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        f.fill();
        f.pump.pumpOnce();
        view.setVisibleRange(25.0, 35.0);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("t.png"));
        const QString svg = dir.filePath(QStringLiteral("t.svg"));
        const QString csv = dir.filePath(QStringLiteral("t.csv"));
        QString error;
        QVERIFY2(view.exportPng(png, &error), qPrintable(error));
        QVERIFY2(view.exportSvg(svg, &error), qPrintable(error));
        QVERIFY2(view.exportCsv(csv, &error), qPrintable(error));
        QImage image(png);
        QCOMPARE(image.size(), view.plot()->size());
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QVERIFY(svgFile.readAll().contains("<svg"));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csvFile.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.first().contains(QStringLiteral("SIMULATED")));
        // Two groups x 101 samples in [25, 35] at 10 Hz, plus the header lines and the marker at 30 s.
        QCOMPARE(lines.filter(QStringLiteral(",victim,")).size(), 101);
        QCOMPARE(lines.filter(QStringLiteral(",streamer,")).size(), 101);
        QCOMPARE(lines.filter(QStringLiteral("# marker,30.000")).size(), 1);
        // The header and rows of `monitor --csv` (one writer): domains summed, so the domain column is empty; the
        // marker's label holds no comma here, so it is not quoted.
        QCOMPARE(lines.at(1), QString::fromLatin1(rdt::kSampleCsvHeader));
        QVERIFY(lines.contains(QStringLiteral("25.000,streamer,,20971520,12000000000,7200000000")));
        QVERIFY(lines.contains(QStringLiteral("35.000,streamer,,20971520,4000000000,2400000000")));
        QVERIFY(!view.exportCsv(dir.filePath(QStringLiteral("missing/dir/t.csv")), &error));
        QVERIFY(error.contains(QStringLiteral("missing/dir")));
    }

    void changesAtOneTimeShareAMarker()
    {
        // A replay opens with every group's initial allocation at one time; one apply writes several resources.
        // Their labels were drawn over each other (three rows) and hid the series under them.
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(900, 420); // short plots: 12 % headroom is less than a row of labels
        for (int i = 0; i < 20; ++i)
            f.feed->push(batch(static_cast<std::uint64_t>(i) * kSecond, 3e6, 12e9));
        auto change = [&](std::uint64_t timeNs, const char* group, const char* resource, bool ok) {
            rdt::AllocationChanged c;
            c.timeNs = timeNs;
            c.who = "initial";
            c.group = group;
            c.resource = resource;
            c.oldValue = "";
            c.newValue = "7ff";
            c.ok = ok;
            c.message = ok ? "" : "write error";
            f.feed->push(c);
        };
        change(1 * kSecond, "streamer", "L3", true);
        change(1 * kSecond, "streamer", "MB", true);
        change(1 * kSecond + 500'000, "victim", "L3", false); // half a millisecond later: the same apply
        change(1 * kSecond + 500'000, "victim", "MB", true);
        change(5 * kSecond, "victim", "L3", true);
        f.pump.pumpOnce();
        QCOMPARE(view.markerCount(), 2);
        // The failed change is the one named, with how many more share its line.
        QVERIFY2(view.markerLabel(0).startsWith(QStringLiteral("victim L3:0")), qPrintable(view.markerLabel(0)));
        QVERIFY2(view.markerLabel(0).endsWith(QStringLiteral("(+3 more)")), qPrintable(view.markerLabel(0)));
        QVERIFY(view.markerLabel(0).size() <= 48);
        // No old value (an initial allocation): the arrow follows the colon.
        QCOMPARE(view.markerLabel(1), QStringLiteral("victim L3:0 \u2192 7ff (initial)"));
        QVERIFY(!view.markerLabel(1).contains(QStringLiteral("more")));
        // Both rows of labels are above the highest line (the streamer's 20 MiB), not over it.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.refresh();
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QCPAxis* occY = view.plot()->axisRects().at(0)->axis(QCPAxis::atLeft);
        int labels = 0;
        for (int i = 0; i < view.plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(view.plot()->item(i)); text) {
                ++labels;
                QVERIFY2(text->bottom->pixelPosition().y() < occY->coordToPixel(20.0),
                    qPrintable(QStringLiteral("label bottom %1, line at %2")
                                   .arg(text->bottom->pixelPosition().y())
                                   .arg(occY->coordToPixel(20.0))));
            }
        QCOMPARE(labels, 2);
    }

    void distantMarkersShareTheTopRow()
    {
        // Labels used to step down a row for every marker (0, 1, 2, 0, ...) however far apart; only labels that
        // would overlap step down now, and which do depends on the zoom.
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(1000, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        f.steady(60);
        f.change(3, "streamer");
        f.change(20, "victim");
        f.change(37, "streamer");
        f.change(38, "victim"); // a second after the last: their labels would overlap
        f.pump.pumpOnce();
        view.setVisibleRange(0, 60);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(view.markerCount(), 4);
        QCOMPARE(view.markerLabelRow(0), 0);
        QCOMPARE(view.markerLabelRow(1), 0);
        QCOMPARE(view.markerLabelRow(2), 0);
        QCOMPARE(view.markerLabelRow(3), 1);
        // Zoomed out to ten minutes, 3 s and 20 s are as near as 37 s and 38 s were.
        view.setVisibleRange(0, 600);
        QCOMPARE(view.markerLabelRow(0), 0);
        QCOMPARE(view.markerLabelRow(1), 1);
        // Zoomed in on the last two, they are far apart.
        view.setVisibleRange(36.5, 39);
        QCOMPARE(view.markerLabelRow(2), 0);
        QCOMPARE(view.markerLabelRow(3), 0);
    }

    void aLabelThatFitsNeitherSideIsShortenedAtThePlotEdge()
    {
        // A long label mid-plot in a narrow window used to go left of its line and run off the plot's left edge
        // ("chemata L3:..."); it takes the wider side now and ends at the edge, shortened.
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(520, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        f.steady(60);
        f.change(33, "a-group-whose-name-is-long-enough-for-two-plots");
        f.pump.pumpOnce();
        view.setVisibleRange(0, 60);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QCPAxisRect* rect = view.plot()->axisRects().at(0);
        int drawn = 0;
        for (int i = 0; i < view.plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(view.plot()->item(i)); text && text->visible()) {
                ++drawn;
                const double left = text->topLeft->pixelPosition().x();
                const double right = text->bottomRight->pixelPosition().x();
                QVERIFY2(left >= rect->left() - 1 && right <= rect->right() + 1,
                    qPrintable(QStringLiteral("label %1..%2, plot %3..%4")
                                   .arg(left)
                                   .arg(right)
                                   .arg(rect->left())
                                   .arg(rect->right())));
                QVERIFY2(text->text().endsWith(QStringLiteral("\u2026")), qPrintable(text->text()));
            }
        QCOMPARE(drawn, 1);
    }

    void crowdedMarkerLabelsNeverOverlap()
    {
        // The mba scenario's replay: a change every 10 s over 70 s, each label ~190 px wide at ~85 px per 10 s.
        // Three rows are not enough; a fourth label overlapped the first of its row, both unreadable. Now the
        // earlier one is shortened to end before it (or hidden), and zooming in gives the whole text back.
        Fixture f;
        TimelineView view(&f.pump);
        view.resize(1000, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        f.steady(70);
        for (int t = 0; t <= 60; t += 10)
            f.change(t, "hogs", "MB", std::to_string(100 - t), std::to_string(90 - t), "observed");
        f.pump.pumpOnce();
        QCOMPARE(view.markerCount(), 7);
        auto visibleLabelsOverlap = [&]() -> QString {
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);
            QVector<QRectF> drawn;
            for (int i = 0; i < view.plot()->itemCount(); ++i)
                if (auto* text = qobject_cast<QCPItemText*>(view.plot()->item(i)); text && text->visible())
                    drawn.append(QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()));
            for (int a = 0; a < drawn.size(); ++a)
                for (int b = a + 1; b < drawn.size(); ++b)
                    if (drawn[a].intersects(drawn[b]))
                        return QStringLiteral("labels %1 and %2 overlap: %3,%4-%5 and %6,%7-%8")
                            .arg(a)
                            .arg(b)
                            .arg(drawn[a].top())
                            .arg(drawn[a].left())
                            .arg(drawn[a].right())
                            .arg(drawn[b].top())
                            .arg(drawn[b].left())
                            .arg(drawn[b].right());
            return drawn.size() >= 4 ? QString() : QStringLiteral("only %1 labels drawn").arg(drawn.size());
        };
        view.setVisibleRange(0, 70);
        QString overlap = visibleLabelsOverlap();
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        bool shortened = false;
        for (int i = 0; i < view.markerCount(); ++i)
            shortened = shortened || view.markerLabel(i).endsWith(QStringLiteral("\u2026"));
        QVERIFY(shortened);
        view.setVisibleRange(0, 25);
        overlap = visibleLabelsOverlap();
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        QCOMPARE(view.markerLabel(0), QStringLiteral("hogs MB:0 100 \u2192 90 (observed)"));
    }

    void resetClearsSeries()
    {
        Fixture f;
        TimelineView view(&f.pump);
        f.fill();
        f.pump.pumpOnce();
        f.pump.resetSeries();
        QCOMPARE(view.markerCount(), 0);
        QCOMPARE(view.plot()->graphCount(), 0);
    }

    void restylesOnPaletteChange()
    {
        Fixture f;
        TimelineView view(&f.pump);
        f.fill();
        f.pump.pumpOnce();
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x24));
        dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        view.setPalette(dark);
        QCOMPARE(view.plot()->axisRects().at(0)->axis(QCPAxis::atLeft)->tickLabelColor(), QColor(0xee, 0xee, 0xee));
        QCOMPARE(view.plot()->axisRects().at(0)->backgroundBrush().color(), QColor(0x20, 0x20, 0x24));
    }
};

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"
