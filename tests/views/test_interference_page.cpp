// SPDX-License-Identifier: GPL-3.0-or-later
// The Interference page (docs/BLAME.md) on the simulated noisy neighbour: the ranking names the streamer, a probe
// proves it, the containment is shown and undone; on a copy of the 4-domain fixture tree the page runs passively and
// says that a static tree moves no counters. What the run drains and decides reaches a window's recording as frames.
#include "../rdt/TestTree.h"
#include "GroupL3.h"
#include "engine/CaptureService.h"
#include "models/BlameRun.h"
#include "views/InterferencePage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <string>
#include <variant>
#include <vector>

class InterferencePageTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rankingProbeContainmentAndUndoOnTheSimulator()
    {
        rdt::engine::ServiceOptions o;
        o.rdt.spec = "sim";
        o.rdt.scenario = "noisy-neighbour";
        o.who = "gui";
        auto svc = rdt::engine::CaptureService::open(o);
        QVERIFY(svc);
        BlameRun run;
        run.setEngine(svc->get());
        InterferencePage page(&run);
        auto* victim = page.findChild<QComboBox*>(QStringLiteral("victim"));
        auto* probe = page.findChild<QCheckBox*>(QStringLiteral("probe"));
        auto* contain = page.findChild<QCheckBox*>(QStringLiteral("contain"));
        auto* ranking = page.findChild<QTableWidget*>(QStringLiteral("ranking"));
        auto* undo = page.findChild<QPushButton*>(QStringLiteral("undo"));
        auto* containment = page.findChild<QLabel*>(QStringLiteral("containment"));
        QVERIFY(victim && probe && contain && ranking && undo && containment);
        QVERIFY(probe->isEnabled()); // the simulator can be written
        victim->setCurrentIndex(victim->findText(QStringLiteral("victim")));
        page.findChild<QDoubleSpinBox*>(QStringLiteral("duration"))->setValue(4);
        probe->setChecked(true);
        contain->setChecked(true);
        QSignalSpy finished(&run, &BlameRun::finished);
        // What a window's recording receives while the frame pump is stopped: the run's polls and writes through the
        // engine's event tap (as EngineRecorder taps it), its findings as markers (MainWindow connects both).
        std::vector<std::string> markers;
        std::atomic<std::size_t> batches = 0, changes = 0;
        const auto tap = (*svc)->addEventTap([&](const rdt::engine::EngineEvent& e) {
            if (std::holds_alternative<rdt::RdtSampleBatch>(e)) ++batches;
            if (std::holds_alternative<rdt::AllocationChanged>(e)) ++changes;
        });
        QObject::connect(&run, &BlameRun::marker, &page, [&](quint64, const QString& kind, const QString& text) {
            if (kind == QLatin1String("blame")) markers.push_back(text.toStdString());
        });
        QTest::mouseClick(page.findChild<QPushButton*>(QStringLiteral("start")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        (*svc)->removeEventTap(tap);
        QVERIFY(batches >= 16); // 4 s of 250 ms polls, then the probe's, the sweep's and the containment's
        QVERIFY(changes >= 3); // the fence, the restore, the containment (and the knee sweep's writes)
        const auto has = [&](const std::string& prefix) {
            return std::any_of(
                markers.begin(), markers.end(), [&](const std::string& m) { return m.rfind(prefix, 0) == 0; });
        };
        QVERIFY(has("blame: observing victim"));
        QVERIFY(has("blame probe streamer: fencing streamer (L3:0=1) gave victim back"));
        QVERIFY(has("blame rank 1 streamer (cache): effect"));
        QVERIFY(has("blame contain streamer: contained streamer"));
        QCOMPARE(
            QString::fromStdString(markers.back()), QStringLiteral("blame ended; every probed allocation restored"));
        QCOMPARE(ranking->rowCount(), 2);
        QCOMPARE(ranking->item(0, 0)->text(), QStringLiteral("streamer"));
        QCOMPARE(ranking->item(0, 1)->text(), QStringLiteral("cache"));
        QCOMPARE(ranking->item(0, 4)->text(), QStringLiteral("culprit"));
        QVERIFY2(ranking->item(0, 5)->text().contains(QStringLiteral("gave victim back")),
            qPrintable(ranking->item(0, 5)->text()));
        QCOMPARE(ranking->item(1, 0)->text(), QStringLiteral("default"));
        QVERIFY(page.findChild<QLabel*>(QStringLiteral("harm"))->text().contains(QStringLiteral("(simulated)")));
        QVERIFY2(containment->text().contains(QStringLiteral("contained streamer")), qPrintable(containment->text()));
        // The victim's knee leaves the streamer 4 ways. (What the machine holds now is not checked: the scenario's
        // steps, held during the run, ran when it ended, and the one at 20 s fences the streamer itself.)
        QVERIFY2(containment->text().contains(QStringLiteral("contained streamer (L3:0=f, 7 way(s) left to victim)")),
            qPrintable(containment->text()));
        QVERIFY(undo->isEnabled());
        QTest::mouseClick(undo, Qt::LeftButton);
        QCOMPARE(l3Of(**svc, "streamer").value_or(""), std::string("7ff"));
        QVERIFY(!undo->isEnabled());
        QVERIFY(containment->text().contains(QStringLiteral("undone")));
    }

    void aStaticTreeIsRankedPassivelyAndSaysSo()
    {
        rdt::test::TempTree tree("resctrl.full");
        rdt::engine::ServiceOptions o;
        o.rdt.spec = "resctrl:" + tree.root();
        o.who = "gui";
        auto svc = rdt::engine::CaptureService::open(o);
        QVERIFY(svc);
        BlameRun run;
        InterferencePage page(&run); // before the window has a source, as MainWindow builds it
        QVERIFY(page.findChild<QLabel*>(QStringLiteral("status"))->text().contains(QStringLiteral("needs")));
        run.setEngine(svc->get());
        page.refreshGroups();
        auto* victim = page.findChild<QComboBox*>(QStringLiteral("victim"));
        // With an engine the page says what to do, never that it needs one.
        QVERIFY(!page.findChild<QLabel*>(QStringLiteral("status"))->text().contains(QStringLiteral("needs")));
        QVERIFY(victim->findText(QStringLiteral("Guaranteed")) >= 0);
        victim->setCurrentIndex(victim->findText(QStringLiteral("Guaranteed")));
        page.findChild<QDoubleSpinBox*>(QStringLiteral("duration"))->setValue(1);
        QSignalSpy finished(&run, &BlameRun::finished);
        QTest::mouseClick(page.findChild<QPushButton*>(QStringLiteral("start")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const QString status = page.findChild<QLabel*>(QStringLiteral("status"))->text();
        QVERIFY2(status.contains(QStringLiteral("no memory traffic moved")), qPrintable(status));
        auto* ranking = page.findChild<QTableWidget*>(QStringLiteral("ranking"));
        QVERIFY(ranking->rowCount() > 0);
        for (int r = 0; r < ranking->rowCount(); ++r)
            QCOMPARE(ranking->item(r, 4)->text(), QStringLiteral("-")); // nothing probed, nothing blamed
    }
};

QTEST_MAIN(InterferencePageTest)
#include "test_interference_page.moc"
