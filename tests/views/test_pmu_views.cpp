// SPDX-License-Identifier: GPL-3.0-or-later
// PMU GUI views offscreen: TMA, call graph, load latency and the controls, on the simulator and on the perf.data
// fixtures (oracles: perf report for propeller_sample_1, the record decoder for perf.data.weight_struct).
#include "../models/pmu_fixtures.h"
#include "models/CallGraphModel.h"
#include "models/LatencyModel.h"
#include "models/PmuRecipeKind.h"
#include "models/PmuSession.h"
#include "models/TmaModel.h"
#include "views/CallGraphView.h"
#include "views/LatencyView.h"
#include "views/PmuControls.h"
#include "views/QCustomPlotInclude.h"
#include "views/TmaView.h"

#include "../models/SimulatedPmuSession.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QGraphicsView>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace rdt::pmu;

namespace {

bool waitLayout(CallGraphView& v)
{
    if (!v.layoutPending()) return true;
    QSignalSpy spy(&v, &CallGraphView::layoutFinished);
    for (int i = 0; i < 60 && v.layoutPending(); ++i)
        spy.wait(1000);
    return !v.layoutPending();
}

bool importInto(PmuSession& s, const QString& file, const QStringList& dirs = {})
{
    QSignalSpy done(&s, &PmuSession::importFinished);
    s.openPerfData(file, dirs);
    return done.wait(60000) && done.at(0).at(0).toBool();
}

bool nonBlank(const QPixmap& p)
{
    if (p.isNull() || p.width() < 50 || p.height() < 50) return false;
    const QImage img = p.toImage();
    const QRgb first = img.pixel(0, 0);
    int different = 0;
    for (int y = 0; y < img.height(); y += 7)
        for (int x = 0; x < img.width(); x += 7)
            different += img.pixel(x, y) != first ? 1 : 0;
    return different > 50;
}

} // namespace

class TestPmuViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyViewRendersSimulatedData()
    {
        PmuSession s;
        simulateSteps(s, 5);
        TmaView tma(&s);
        CallGraphView graph(&s);
        LatencyView latency(&s);
        PmuControls controls(&s);
        for (QWidget* w : { static_cast<QWidget*>(&tma), static_cast<QWidget*>(&graph), static_cast<QWidget*>(&latency),
                 static_cast<QWidget*>(&controls) })
            w->resize(1000, 700);
        QVERIFY(waitLayout(graph));
        QCOMPARE(tma.pointCount(), 5);
        QCOMPARE(tma.model()->rowCount(), 4);
        QVERIFY(graph.nodeCount() > 3);
        QCOMPARE(latency.plottedTotal(), static_cast<double>(s.data().loads.size()));
        QAbstractItemModelTester t1(tma.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(graph.hotBranches(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(latency.functions(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(latency.lines(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(nonBlank(tma.grab()));
        QVERIFY(nonBlank(graph.grab()));
        QVERIFY(nonBlank(latency.grab()));
        QVERIFY(nonBlank(controls.grab()));
        // No header of the load-latency tables is cut ("Mean (cycles)" was, at the default width).
        const auto tables = latency.findChildren<QTableView*>();
        QCOMPARE(tables.size(), 2);
        for (const QTableView* table : tables)
            for (int c = 0; c < LatencyModel::SourceColumn; ++c)
                QVERIFY2(table->columnWidth(c) >= table->horizontalHeader()->sectionSizeHint(c),
                    qPrintable(table->model()->headerData(c, Qt::Horizontal).toString()));
    }

    void staleLayoutsAreDropped()
    {
        PmuSession s;
        simulateSteps(s, 3);
        CallGraphView graph(&s);
        QSignalSpy spy(&graph, &CallGraphView::layoutFinished);
        const quint64 before = graph.generation();
        graph.setMaxNodes(5);
        graph.setMaxNodes(4);
        graph.setMaxNodes(3); // three requests in a row: only the last one is drawn
        QCOMPARE(graph.generation(), before + 3);
        QVERIFY(waitLayout(graph));
        QCOMPARE(graph.nodeCount(), 3);
        QCOMPARE(spy.last().at(0).toULongLong(), graph.generation());
    }

    void focusAndSearch()
    {
        PmuSession s;
        simulateSteps(s, 4);
        CallGraphView graph(&s);
        graph.resize(1000, 700);
        QVERIFY(waitLayout(graph));
        const auto& fns = s.branchGraph().functions;
        QVERIFY(fns.size() > 4);
        const QString root = QString::fromStdString(fns.front().name);
        const QSet<QString> near = graph.hotBranches()->neighbourhood(root, 1);
        QVERIFY(near.size() < static_cast<int>(fns.size()));
        graph.focusFunction(root, 1);
        QVERIFY(waitLayout(graph));
        QCOMPARE(graph.nodeCount(), static_cast<int>(near.size()));
        for (const QString& f : near)
            QVERIFY2(graph.hasNode(f), qPrintable(f));
        graph.setSearchText(root.left(3));
        QVERIFY(graph.highlighted().contains(root));
        graph.selectFunction(root);
        QVERIFY(graph.callees()->rowCount() > 0);
        for (int r = 0; r < graph.callees()->rowCount(); ++r)
            QCOMPARE(graph.callees()->index(r, CallGraphModel::FromColumn).data().toString(), root);
        graph.showAll();
        QVERIFY(waitLayout(graph));
        QVERIFY(graph.nodeCount() > static_cast<int>(near.size()));
        // Wheel zooms the canvas.
        const double scale = graph.canvas()->transform().m11();
        QWheelEvent wheel(QPointF(100, 100), graph.canvas()->viewport()->mapToGlobal(QPointF(100, 100)), QPoint(),
            QPoint(0, 240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(graph.canvas()->viewport(), &wheel);
        QVERIFY(graph.canvas()->transform().m11() > scale);
    }

    void rangeSelectionFiltersEveryView()
    {
        PmuSession s;
        simulateSteps(s, 8);
        TmaView tma(&s);
        LatencyView latency(&s);
        CallGraphView graph(&s);
        tma.resize(1000, 700);
        latency.resize(1000, 700);
        tma.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tma));
        QVERIFY(waitLayout(graph));
        const double all = latency.plottedTotal();
        const quint64 allBranches = s.branchGraph().samples;
        // Drag across the first half of the TMA plot's time axis.
        QCustomPlot* plot = tma.plot();
        plot->replot();
        const double d = s.duration();
        const int x0 = static_cast<int>(plot->xAxis->coordToPixel(0.0)) + 1;
        const int x1 = static_cast<int>(plot->xAxis->coordToPixel(d * 0.5));
        const int y = static_cast<int>(plot->yAxis->coordToPixel(0.5));
        QTest::mousePress(plot, Qt::LeftButton, {}, QPoint(x0, y));
        QTest::mouseMove(plot, QPoint(x1, y));
        QTest::mouseRelease(plot, Qt::LeftButton, {}, QPoint(x1, y));
        QVERIFY(s.hasTimeRange());
        QVERIFY(s.aggregating()); // on the worker: the views still show the whole run
        QCOMPARE(latency.plottedTotal(), all);
        QTRY_VERIFY_WITH_TIMEOUT(!s.aggregating(), 30000);
        QVERIFY(s.rangeTo() > s.rangeFrom());
        std::uint64_t inRange = 0;
        for (const auto& l : s.data().loads) {
            const double t = s.secondsOf(l.time);
            inRange += t >= s.rangeFrom() && t <= s.rangeTo() ? 1u : 0u;
        }
        QCOMPARE(latency.plottedTotal(), static_cast<double>(inRange));
        QVERIFY(latency.plottedTotal() < all);
        QVERIFY(s.branchGraph().samples < allBranches);
        QVERIFY(graph.layoutPending() || graph.generation() > 1); // the graph re-laid out for the range
        QVERIFY(waitLayout(graph));
        // A click without a drag clears the range.
        QTest::mouseClick(plot, Qt::LeftButton, {}, QPoint(x1, y));
        QVERIFY(!s.hasTimeRange());
        QTRY_COMPARE_WITH_TIMEOUT(latency.plottedTotal(), all, 30000);
    }

    void clickingABarFiltersTheTables()
    {
        PmuSession s;
        simulateSteps(s, 4);
        LatencyView v(&s);
        v.resize(1000, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.plot()->replot();
        // The tallest segment of any source.
        QCPBars* bars = nullptr;
        int level = -1;
        QCPBarsDataContainer::const_iterator it;
        for (int l = 0; l < LatencyModel::kLevels; ++l)
            for (auto i = v.bars(l)->data()->constBegin(); i != v.bars(l)->data()->constEnd(); ++i)
                if (!bars || i->value > it->value) {
                    bars = v.bars(l);
                    level = l;
                    it = i;
                }
        QVERIFY(bars);
        double base = 0; // the bars below this one at the same key
        for (QCPBars* below = bars->barBelow(); below; below = below->barBelow()) {
            auto b = below->data()->findBegin(it->key - 0.1, false);
            if (b != below->data()->end() && std::abs(b->key - it->key) < 0.1) base += b->value;
        }
        const QPointF px = bars->coordsToPixels(it->key, base + it->value / 2);
        const double key = it->key, value = it->value; // the click re-plots: `it` is gone afterwards
        QTest::mouseClick(v.plot(), Qt::LeftButton, {}, px.toPoint());
        s.waitForAggregation();
        QCOMPARE(s.latencyBucket(), static_cast<int>(key));
        QCOMPARE(s.latencyLevel(), level);
        QCOMPARE(s.latencyTables().total.count, static_cast<std::uint64_t>(value));
        std::uint64_t rows = 0;
        for (int r = 0; r < v.functions()->rowCount(); ++r)
            rows += v.functions()->index(r, LatencyModel::CountColumn).data(LatencyModel::SortRole).toULongLong();
        QVERIFY(rows <= static_cast<std::uint64_t>(value));
        QVERIFY(rows > 0);
        v.filterBy(-1, -1);
        s.waitForAggregation();
        QCOMPARE(s.latencyTables().total.count, static_cast<std::uint64_t>(v.plottedTotal()));
    }

    void propellerHottestFunctionIsAVisibleNode()
    {
        QTemporaryDir dir;
        QVERIFY(pmutest::makeSymbolDir(dir));
        PmuSession s;
        CallGraphView graph(&s);
        graph.resize(1200, 800);
        graph.show();
        QVERIFY(QTest::qWaitForWindowExposed(&graph));
        QVERIFY(importInto(s, pmutest::fixture("propeller_sample_1.perfdata"), { dir.path() }));
        QVERIFY(waitLayout(graph));
        const QString hot = QString::fromLatin1(pmutest::kPropellerHottest);
        QVERIFY(graph.hasNode(hot));
        QVERIFY2(graph.nodeLabel(hot).contains(QStringLiteral("%1 samples").arg(pmutest::kPropellerHottestSamples)),
            qPrintable(graph.nodeLabel(hot)));
        const QRect box = graph.nodeViewportRect(hot);
        QVERIFY(box.isValid());
        QVERIFY(graph.canvas()->viewport()->rect().intersects(box));
        QVERIFY(box.width() > 20); // readable, not a dot
        QVERIFY(graph.hotBranches()->rowCount() > 0);
        QVERIFY(nonBlank(graph.grab()));
    }

    void weightStructHistogramMatchesDecoder()
    {
        const QString file = pmutest::fixture("perf.data.weight_struct");
        std::uint64_t samples = 0;
        const auto levels = pmutest::decoderLevels(file, &samples);
        PmuSession s;
        LatencyView v(&s);
        v.resize(1000, 700);
        QVERIFY(importInto(s, file));
        QCOMPARE(v.plottedTotal(), static_cast<double>(samples));
        for (MemLevel l : { MemLevel::L1, MemLevel::Lfb, MemLevel::L2, MemLevel::L3 }) {
            double plotted = 0;
            for (auto it = v.bars(static_cast<int>(l))->data()->constBegin();
                 it != v.bars(static_cast<int>(l))->data()->constEnd(); ++it)
                plotted += it->value;
            const auto want = levels.count(l) ? levels.at(l) : 0;
            QCOMPARE(plotted, static_cast<double>(want));
        }
        QVERIFY(v.lines()->rowCount() > 0);
        QVERIFY(nonBlank(v.grab()));
    }

    void liveCaptureShowsAdviceNeverData()
    {
        PmuSession s;
        PmuControls c(&s);
        c.setMachine(PmuControls::Machine::Live);
        const auto refusal = pmutest::engineRefusal(rdt::engine::PmuCaptureKind::All, true);
        const bool started = c.start();
        QVERIFY(!started); // no PMU here, or live capture not built yet: either way it says why
        QVERIFY(!c.adviceText().isEmpty());
        if (!refusal.empty()) QVERIFY(c.adviceText().contains(QString::fromStdString(refusal).left(20)));
        QVERIFY(s.data().empty());
        QVERIFY(!s.simulating());
    }

    void liveLaunchedCommandOffersEveryRecipe()
    {
        // Several recipes share one launched command now (capture/pmu/Workload): "All" + "Launch command" is no
        // longer refused for being several recipes; only a missing PMU stops it, before anything is launched.
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("ran"));
        PmuSession s;
        PmuControls c(&s);
        c.setMachine(PmuControls::Machine::Live);
        const auto combos = c.findChildren<QComboBox*>();
        // machine, recipe, target, the simulated program and its group (in the order they are made)
        QCOMPARE(combos.size(), 5);
        QCOMPARE(combos[1]->currentData().toInt(), static_cast<int>(PmuRecipeKind::All));
        combos[2]->setCurrentIndex(2); // Launch command
        auto* line = c.findChild<QLineEdit*>();
        QVERIFY(line && line->isEnabled());
        line->setText(QStringLiteral("/usr/bin/touch ") + marker);
        const bool started = c.start();
        QVERIFY2(!c.adviceText().contains(QStringLiteral("one recipe")), qPrintable(c.adviceText()));
        const auto refusal = pmutest::engineRefusal(rdt::engine::PmuCaptureKind::All, false);
        if (!refusal.empty()) {
            QVERIFY(!started);
            QVERIFY2(c.adviceText().contains(QString::fromStdString(refusal).left(20)), qPrintable(c.adviceText()));
            QVERIFY(!QFile::exists(marker)); // refused before the command was forked
            return;
        }
        QVERIFY2(started, qPrintable(c.adviceText()));
        for (int i = 0; i < 400 && s.simulating(); ++i) {
            QTest::qWait(25);
            s.stepSimulation();
        }
        QVERIFY(QFile::exists(marker));
    }

    void liveLaunchOfAMissingCommandSaysWhy()
    {
        PmuSession s;
        PmuControls c(&s);
        c.setMachine(PmuControls::Machine::Live);
        const auto combos = c.findChildren<QComboBox*>();
        QCOMPARE(combos.size(), 5);
        combos[1]->setCurrentIndex(combos[1]->findData(static_cast<int>(PmuRecipeKind::CpuClock)));
        combos[2]->setCurrentIndex(2); // Launch command
        c.findChild<QLineEdit*>()->setText(QStringLiteral("rdtscope-no-such-command --flag"));
        QVERIFY(!c.start());
        const QString advice = c.adviceText();
        if (!advice.contains(QStringLiteral("cannot run")))
            QSKIP(qPrintable(QStringLiteral("perf_event_open refused before the launch: ") + advice));
        QVERIFY2(advice.contains(QStringLiteral("cannot run 'rdtscope-no-such-command': No such file or directory")),
            qPrintable(advice));
        QVERIFY2(!advice.contains(QStringLiteral("PMU is not available")), qPrintable(advice));
        QVERIFY(!s.live());
        QVERIFY(!s.simulating());
    }
};

QTEST_MAIN(TestPmuViews)
#include "test_pmu_views.moc"
