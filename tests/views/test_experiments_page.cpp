// SPDX-License-Identifier: GPL-3.0-or-later
// The Experiments page on the simulated noisy neighbour, pressed as a user presses it: a way sweep draws its curve
// point by point and marks the knee; Stop ends a real-time sweep at once with the original mask back; "Propose
// allocation" fills the proposal, stages it on the heatmap's model as a pending edit, and "Apply proposal" writes it
// and measures it against the prediction; the objective chosen (weights typed as the CLI takes them, a protected
// group) reaches the advisor, and weights it cannot read refuse before anything runs; "Record into" records a sweep
// and an advisor run into session files that read back as the CLI's --record files do.
#include "GroupL3.h"
#include "engine/CaptureService.h"
#include "models/AllocationModel.h"
#include "models/EngineAllocation.h"
#include "models/ExperimentRun.h"
#include "session/SessionReader.h"
#include "views/AdviceObjectiveEditor.h"
#include "views/ExperimentsPage.h"
#include "views/QCustomPlotInclude.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

class ExperimentsPageTest : public QObject {
    Q_OBJECT

    std::unique_ptr<rdt::engine::CaptureService> m_service;
    std::unique_ptr<EngineAllocationWriter> m_writer;
    AllocationModel* m_model = nullptr;
    ExperimentRun* m_run = nullptr;
    ExperimentsPage* m_page = nullptr;

private Q_SLOTS:
    void init()
    {
        rdt::engine::ServiceOptions o;
        o.rdt.spec = "sim";
        o.rdt.scenario = "noisy-neighbour";
        o.who = "gui";
        auto s = rdt::engine::CaptureService::open(o);
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
        m_service = std::move(*s);
        m_model = new AllocationModel(this);
        m_writer = std::make_unique<EngineAllocationWriter>(*m_service);
        m_model->setWriter(m_writer.get());
        auto st = readAllocationState(*m_service, { true, true, {} });
        QVERIFY(st.ok());
        m_model->setState(*st);
        m_run = new ExperimentRun(this);
        m_run->setEngine(m_service.get());
        m_page = new ExperimentsPage(m_run, m_model);
        m_page->settleBox()->setValue(0.2);
        m_page->measureBox()->setValue(0.5);
    }

    void cleanup()
    {
        delete m_page;
        delete m_run;
        m_writer.reset();
        delete m_model;
        m_service.reset();
    }

    void sourceArrivingAfterThePageClearsTheNote()
    {
        // The main window builds the page before it opens its source: the "need a live source" note stayed under
        // a usable page (Start enabled) on a live resctrl tree.
        ExperimentRun run;
        ExperimentsPage page(&run, m_model);
        QVERIFY(page.resultLabel()->text().contains(QStringLiteral("need a live or simulated source")));
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY(!page.plot()->legend->visible()); // no curve yet: no empty legend box
        run.setEngine(m_service.get());
        page.refreshGroups();
        QVERIFY(page.startButton()->isEnabled());
        QCOMPARE(page.resultLabel()->text(), QString());
        QVERIFY(page.groupBox()->count() > 0);
    }

    void sweepDrawsTheCurveAndTheKnee()
    {
        QSignalSpy steps(m_run, &ExperimentRun::stepMeasured);
        QSignalSpy finished(m_run, &ExperimentRun::finished);
        m_page->startSweepOf(QStringLiteral("victim"), /*alone=*/true);
        QVERIFY(m_page->stopButton()->isEnabled());
        QVERIFY(!m_page->startButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QCOMPARE(steps.count(), 10); // 10 ways down to 1: the streamer keeps one
        auto* plot = m_page->plot();
        QVERIFY(plot->graphCount() >= 2);
        QVERIFY(plot->legend->visible());
        QCOMPARE(plot->yAxis->range().lower, 0.0);
        QCOMPARE(plot->yAxis2->range().lower, 0.0);
        QVERIFY(!plot->xAxis->tickVector().isEmpty());
        for (double tick : plot->xAxis->tickVector())
            QCOMPARE(tick, std::round(tick)); // whole ways
        QCOMPARE(plot->graph(0)->dataCount(), 10); // bandwidth
        QCOMPARE(plot->graph(1)->dataCount(), 10); // occupancy
        // The victim's 16 MiB fit in 8 ways of 2.25 MiB: the knee within one way of it.
        const QString knee = m_page->kneeText();
        QVERIFY2(
            knee.startsWith(QStringLiteral("knee: 7")) || knee.startsWith(QStringLiteral("knee: 8")), qPrintable(knee));
        QVERIFY(m_page->resultLabel()->text().contains(QStringLiteral("Original allocation restored")));
        QCOMPARE(m_page->progressBar()->value(), 100);
        QCOMPARE(l3Of(*m_service, "victim"), std::optional<std::string>("7ff"));
        QCOMPARE(l3Of(*m_service, "streamer"), std::optional<std::string>("7ff"));
        QVERIFY(m_page->startButton()->isEnabled());
    }

    void idleGroupSweepSaysNothingWasMeasured()
    {
        // A group with no tasks reads 0 at every step (as an idle group on a real server does): no knee is drawn
        // and the result says why, instead of "knee: 1 ways ... more buys nothing".
        QVERIFY(m_service->createGroup("idle").ok);
        QSignalSpy finished(m_run, &ExperimentRun::finished);
        m_page->startSweepOf(QStringLiteral("idle"), /*alone=*/false);
        QVERIFY(finished.wait(60000));
        QCOMPARE(m_page->kneeText(), QString());
        QVERIFY2(m_page->resultLabel()->text().contains(QStringLiteral("every step read 0")),
            qPrintable(m_page->resultLabel()->text()));
        QCOMPARE(m_page->plot()->yAxis->range().lower, 0.0);
        QVERIFY(m_page->plot()->yAxis->range().upper > 0.0);
    }

    void stopRestoresAtOnce()
    {
        QSignalSpy steps(m_run, &ExperimentRun::stepMeasured);
        QSignalSpy finished(m_run, &ExperimentRun::finished);
        m_page->measureBox()->setValue(30); // a real-time sweep that would take minutes
        m_page->settleBox()->setValue(0);
        int boxes = 0;
        for (auto* box : m_page->findChildren<QCheckBox*>()) {
            if (box->text() == QStringLiteral("Real time") || box->text().startsWith(QStringLiteral("Alone"))) {
                box->setChecked(true);
                ++boxes;
            }
        }
        QCOMPARE(boxes, 2);
        m_page->groupBox()->setCurrentText(QStringLiteral("victim"));
        QTest::mouseClick(m_page->startButton(), Qt::LeftButton);
        QTest::qWait(700); // inside the first step's measurement
        // Step 1, alone: the victim on 10 ways, the streamer on the 11th.
        QCOMPARE(l3Of(*m_service, "victim"), std::optional<std::string>("3ff"));
        QCOMPARE(l3Of(*m_service, "streamer"), std::optional<std::string>("400"));
        QElapsedTimer t;
        t.start();
        QTest::mouseClick(m_page->stopButton(), Qt::LeftButton);
        QVERIFY(finished.wait(10000));
        QVERIFY2(t.elapsed() < 2000, "the stop is seen within one poll");
        QCOMPARE(steps.count(), 0);
        QVERIFY(m_page->resultLabel()->text().contains(QStringLiteral("Original allocation restored")));
        QCOMPARE(l3Of(*m_service, "victim"), std::optional<std::string>("7ff"));
        QCOMPARE(l3Of(*m_service, "streamer"), std::optional<std::string>("7ff"));
    }

    void proposeStagesAndApplyMeasures()
    {
        QSignalSpy finished(m_run, &ExperimentRun::finished);
        m_page->adviseGroups()->setText(QStringLiteral("streamer,victim"));
        QTest::mouseClick(m_page->proposeButton(), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        auto* table = m_page->proposalTable();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("streamer"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("1"));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("victim"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("10"));
        // Staged, not written: the heatmap's model holds it as a pending edit.
        QVERIFY(m_model->hasPendingEdits());
        const int victimRow = m_model->rowFor(QStringLiteral("victim"), QStringLiteral("L3"));
        QVERIFY(victimRow >= 0);
        QCOMPARE(m_model->mask(victimRow), quint64(0x3ff));
        QCOMPARE(l3Of(*m_service, "victim"), std::optional<std::string>("7ff"));
        QVERIFY(m_page->applyButton()->isEnabled());
        QTest::mouseClick(m_page->applyButton(), Qt::LeftButton);
        QCOMPARE(l3Of(*m_service, "victim"), std::optional<std::string>("3ff"));
        QCOMPARE(l3Of(*m_service, "streamer"), std::optional<std::string>("400"));
        QVERIFY(finished.wait(60000)); // the measurement after applying
        QVERIFY(table->item(1, 6) && !table->item(1, 6)->text().isEmpty());
        const double expected = table->item(1, 4)->text().toDouble();
        const double measured = table->item(1, 6)->text().toDouble();
        QVERIFY2(std::abs(measured - expected) <= 0.15 * expected,
            qPrintable(QStringLiteral("%1 vs %2").arg(measured).arg(expected)));
    }

    void recordIntoWritesTheSweepAndTheAdviceIntoSessions()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QSignalSpy finished(m_run, &ExperimentRun::finished);
        QSignalSpy recorded(m_run, &ExperimentRun::recorded);
        const QString sweepFile = dir.filePath(QStringLiteral("sweep.rdts"));
        m_page->recordEdit()->setText(sweepFile);
        m_page->startSweepOf(QStringLiteral("victim"), /*alone=*/true);
        QVERIFY(!m_page->recordEdit()->isEnabled());
        QVERIFY(finished.wait(60000));
        QCOMPARE(recorded.count(), 1);
        QCOMPARE(recorded.at(0).at(0).toString(), sweepFile);
        QVERIFY(m_page->recordStatus()->text().contains(sweepFile));
        {
            auto r = rdt::session::SessionReader::open(sweepFile.toStdString());
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
            auto rows = (*r)->sweepSteps();
            QVERIFY(rows.ok());
            QCOMPARE(rows->size(), std::size_t { 10 }); // one row per measured step, as the page drew them
            QCOMPARE(rows->front().group, std::string("victim"));
            QCOMPARE(rows->front().kind, std::string("ways"));
            int stepMarkers = 0;
            bool done = false;
            for (const auto& m : (*r)->markers()) {
                if (m.kind != "sweep") continue;
                if (m.text.find(" step ") != std::string::npos) ++stepMarkers;
                if (m.text.rfind("sweep victim ways done: knee", 0) == 0
                    && m.text.find("original allocation restored") != std::string::npos)
                    done = true;
            }
            QCOMPARE(stepMarkers, 10);
            QVERIFY(done);
            QVERIFY((*r)->meta().commandLine.find("Experiments page): sweep victim ways") != std::string::npos);
        }

        const QString adviseFile = dir.filePath(QStringLiteral("advise.rdts"));
        m_page->recordEdit()->setText(adviseFile);
        m_page->adviseGroups()->setText(QStringLiteral("streamer,victim"));
        QTest::mouseClick(m_page->proposeButton(), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QCOMPARE(recorded.count(), 2);
        auto r = rdt::session::SessionReader::open(adviseFile.toStdString());
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        auto rows = (*r)->sweepSteps();
        QVERIFY(rows.ok());
        std::set<std::uint32_t> sweeps;
        for (const auto& row : *rows)
            sweeps.insert(row.sweep);
        QCOMPARE(sweeps, (std::set<std::uint32_t> { 1, 2 })); // streamer's curve, then victim's
        bool victimProposal = false, objective = false;
        for (const auto& m : (*r)->markers()) {
            if (m.kind != "advise") continue;
            if (m.text.rfind("advise victim: 10 ways", 0) == 0) victimProposal = true;
            if (m.text.rfind("advise proposal (objective", 0) == 0 && m.text.find("not applied") != std::string::npos)
                objective = true;
        }
        QVERIFY(victimProposal);
        QVERIFY(objective);
    }

    void objectiveChoiceReachesTheAdvisor()
    {
        QSignalSpy started(m_run, &ExperimentRun::started);
        QSignalSpy finished(m_run, &ExperimentRun::finished);
        auto* editor = m_page->objectiveEditor();
        m_page->adviseGroups()->setText(QStringLiteral("streamer,victim"));
        const auto choose = [&](const char* name) {
            const int i = editor->objectiveBox()->findData(QString::fromLatin1(name));
            QVERIFY(i >= 0);
            editor->objectiveBox()->setCurrentIndex(i);
        };
        // Weights the shared parser refuses (a group without a weight, a group not advised on): nothing runs.
        choose("weighted");
        QVERIFY(!editor->weightsEdit()->isHidden());
        QVERIFY(editor->protectBox()->isHidden());
        for (const char* bad : { "victim=3,streamer", "victim=3,streamr=1", "victim=3,victim=1" }) {
            editor->weightsEdit()->setText(QString::fromLatin1(bad));
            QTest::mouseClick(m_page->proposeButton(), Qt::LeftButton);
            QVERIFY2(m_page->resultLabel()->text().startsWith(QStringLiteral("Refused: ")),
                qPrintable(m_page->resultLabel()->text()));
            QCOMPARE(started.count(), 0);
        }
        // The victim's misses weigh nothing: nobody gains from ways by this measure, and the victim no longer
        // gets the 10 ways the fewest-misses objective gives it (proposeStagesAndApplyMeasures).
        editor->weightsEdit()->setText(QStringLiteral("streamer=1, victim=0"));
        QTest::mouseClick(m_page->proposeButton(), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        auto* table = m_page->proposalTable();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("victim"));
        QVERIFY2(table->item(1, 1)->text().toInt() < 10, qPrintable(table->item(1, 1)->text()));
        QVERIFY2(m_page->resultLabel()->text().contains(QStringLiteral("objective weighted: streamer=1, victim=0")),
            qPrintable(m_page->resultLabel()->text()));
        // Protect: the group chosen is served its knee first, and the proposal says so.
        choose("protect");
        QVERIFY(editor->weightsEdit()->isHidden());
        QVERIFY(!editor->protectBox()->isHidden());
        editor->protectBox()->setCurrentText(QStringLiteral("victim"));
        QTest::mouseClick(m_page->proposeButton(), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        const QString text = m_page->resultLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("objective protect: victim")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("victim is protected: it gets its knee")), qPrintable(text));
        QVERIFY(table->item(1, 1)->text().toInt() >= 7);
        // The default group is offered, but protecting a group not advised on is refused before any sweep.
        QVERIFY(editor->protectBox()->findText(QStringLiteral("default")) >= 0);
        editor->protectBox()->setCurrentText(QStringLiteral("default"));
        const auto runs = started.count();
        QTest::mouseClick(m_page->proposeButton(), Qt::LeftButton);
        QVERIFY2(m_page->resultLabel()->text().contains(QStringLiteral("'default' is not one of the groups")),
            qPrintable(m_page->resultLabel()->text()));
        QCOMPARE(started.count(), runs);
    }
};

QTEST_MAIN(ExperimentsPageTest)
#include "test_experiments_page.moc"
