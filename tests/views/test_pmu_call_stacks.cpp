// SPDX-License-Identifier: GPL-3.0-or-later
// The call-stack page offscreen: the flame graph's frames add up to the call graph's samples, hover names function,
// samples and share, a click zooms and Reset/Escape zoom out; the thread and CPU boxes narrow every view; a recording
// without call stacks shows why instead of empty trees.
#include "../models/pmu_fixtures.h"
#include "models/PmuSession.h"
#include "views/CallGraphView.h"
#include "views/CallStacksPage.h"
#include "views/CallTreeView.h"
#include "views/FlameGraph.h"

#include "../models/SimulatedPmuSession.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace rdt::pmu;

namespace {

bool importInto(PmuSession& s, const QString& file, const QStringList& dirs = {})
{
    QSignalSpy done(&s, &PmuSession::importFinished);
    s.openPerfData(file, dirs);
    return done.wait(60000) && done.at(0).at(0).toBool();
}

/// The width the bottom row of frames covers, in samples (each frame's width / pixels per sample).
double bottomRowSamples(const FlameGraph& f)
{
    const auto& nodes = f.nodes();
    double pixels = 0, unit = 0;
    for (auto c : nodes[0].children) {
        const QRectF r = f.frameRect(c);
        if (r.isEmpty()) continue;
        pixels += r.width();
        unit = r.width() / static_cast<double>(nodes[static_cast<std::size_t>(c)].inclusive);
    }
    return unit > 0 ? pixels / unit : 0;
}

} // namespace

class TestPmuCallStacks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void flameGraphTotalsTheCallGraphAndZooms()
    {
        PmuSession s;
        simulateSteps(s, 6);
        CallGraphView* graph = new CallGraphView(&s);
        CallStacksPage page(&s, graph);
        page.resize(1200, 700);
        page.show();
        page.showTab(CallStacksPage::FlameTab);
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        FlameGraph* flame = page.flameGraph();
        const auto samples = s.branchGraph().samples;
        QVERIFY(samples > 0);
        QCOMPARE(flame->totalSamples(), quint64 { samples });
        QCOMPARE(page.topDown()->model()->totalSamples(), quint64 { samples });
        QCOMPARE(page.bottomUp()->model()->totalSamples(), quint64 { samples });
        // The bottom row spans the samples it stands for (frames are drawn to scale).
        QVERIFY(std::abs(bottomRowSamples(*flame) - static_cast<double>(samples)) < 0.5);

        // Hover: the function, its samples and share.
        const auto first = flame->nodes()[0].children.at(0);
        const QRectF r = flame->frameRect(first);
        QVERIFY(!r.isEmpty());
        QCOMPARE(flame->nodeAt(r.center()), first);
        const QString tip = flame->describe(first);
        const auto& node = flame->nodes()[static_cast<std::size_t>(first)];
        QVERIFY2(tip.contains(QString::fromStdString(node.function)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("%1 samples").arg(QLocale().toString(qulonglong(node.inclusive)))),
            qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("% of all")), qPrintable(tip));

        // Click a frame a level up: it now spans the width; Escape zooms out.
        std::int32_t deeper = node.children.empty() ? first : node.children.front();
        const QRectF dr = flame->frameRect(deeper);
        QVERIFY(!dr.isEmpty());
        QSignalSpy zoomed(flame, &FlameGraph::zoomChanged);
        QTest::mouseClick(flame, Qt::LeftButton, {}, dr.center().toPoint());
        QCOMPARE(zoomed.count(), 1);
        QCOMPARE(flame->zoomedNode(), deeper);
        QVERIFY(flame->frameRect(deeper).width() > flame->width() - 10);
        QCOMPARE(flame->shownSamples(), quint64 { flame->nodes()[static_cast<std::size_t>(deeper)].inclusive });
        QTest::keyClick(flame, Qt::Key_Escape);
        QCOMPARE(flame->zoomedNode(), 0);
        QCOMPARE(flame->shownSamples(), quint64 { samples });
    }

    void threadAndCpuBoxesNarrowEveryView()
    {
        PmuSession s;
        QVERIFY(importInto(
            s, pmutest::fixture("cpu-clock-fp-threads.perfdata"), { QStringLiteral(RDTSCOPE_TEST_DATA "/perf") }));
        CallStacksPage page(&s, new CallGraphView(&s));
        page.resize(1200, 700);
        QCOMPARE(page.flameGraph()->totalSamples(), quint64 { 677 });
        QComboBox* thread = page.threadFilter();
        QCOMPARE(thread->count(), 3); // all, and the two threads perf script lists
        const int t = thread->findData(qlonglong { 29269 });
        QVERIFY(t > 0);
        QVERIFY(thread->itemText(t).contains(QStringLiteral("287")));
        thread->setCurrentIndex(t);
        s.waitForAggregation();
        QCOMPARE(page.flameGraph()->totalSamples(), quint64 { 287 });
        QCOMPARE(page.topDown()->model()->totalSamples(), quint64 { 287 });
        QVERIFY(page.statusText().contains(QStringLiteral("of 677")));
        QCOMPARE(page.threadFilter()->currentData().toLongLong(), qlonglong { 29269 }); // kept across the refill
        QComboBox* cpu = page.cpuFilter();
        QVERIFY(cpu->isEnabled());
        cpu->setCurrentIndex(cpu->findData(qlonglong { 0 }));
        s.waitForAggregation();
        QCOMPARE(page.flameGraph()->totalSamples(), quint64 { 159 }); // perf script: 29269 on CPU 0
        thread->setCurrentIndex(0);
        cpu->setCurrentIndex(0);
        s.waitForAggregation();
        QCOMPARE(page.flameGraph()->totalSamples(), quint64 { 677 });
    }

    void noCallStacksSaysWhichRecordOption()
    {
        PmuSession s;
        QVERIFY(importInto(s, pmutest::fixture("cpu-clock-zstd.perfdata")));
        CallStacksPage page(&s, new CallGraphView(&s));
        page.resize(1200, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY2(page.statusText().startsWith(QStringLiteral("No call stacks")), qPrintable(page.statusText()));
        for (int tab : { CallStacksPage::TopDownTab, CallStacksPage::BottomUpTab, CallStacksPage::FlameTab }) {
            auto* stack = qobject_cast<QStackedWidget*>(page.tabs()->widget(tab));
            QVERIFY(stack);
            auto* why = qobject_cast<QLabel*>(stack->currentWidget());
            QVERIFY2(why, "the tab shows the reason, not an empty view");
            QVERIFY(why->text().contains(QStringLiteral("-g")));
            QVERIFY(why->text().contains(QStringLiteral("--call-graph dwarf")));
        }
        QVERIFY(!page.cpuFilter()->isEnabled() || page.cpuFilter()->count() <= 1);
    }
};

QTEST_MAIN(TestPmuCallStacks)
#include "test_pmu_call_stacks.moc"
