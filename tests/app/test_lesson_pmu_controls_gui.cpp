// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #22: a lesson's PMU step ("start a PMU recipe") is detected when the student starts the recipe from the PMU
// capture dock, not only by the Lessons panel's "Do it for me": the dock's capture runs on the lesson's engine, which
// announces it (PmuCaptureStarted) to the lesson. The step's program matters (another program leaves the step
// waiting), the step completes and its claims hold on the dock's capture, and closing the lesson stops the capture.
// The hash-join steps need the dock's working-set scale and group (the class of service the program runs in).
// Reset and closing also stop the lesson's own ("Do it for me") capture.
#include "EngineSource.h"
#include "MainWindow.h"

#include "lesson/LessonRun.h"
#include "models/PmuRecipeKind.h"
#include "models/PmuSession.h"
#include "views/LessonPanel.h"
#include "views/PmuControls.h"
#include "views/PmuPages.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

namespace {
constexpr int kStepTimeoutMs = 60'000; // simulated time runs at real speed here; a loaded CI machine lags

/// Picks the recipe, program, working-set scale and group on the PMU dock and presses Start, as the student does.
void startFromDock(PmuControls* controls, rdt::pmu::PmuRecipeKind recipe, const QString& program, double scale = 1.0,
    const QString& group = {})
{
    auto* machine = controls->findChild<QComboBox*>(QStringLiteral("pmuMachine"));
    auto* recipes = controls->findChild<QComboBox*>(QStringLiteral("pmuRecipe"));
    auto* programs = controls->findChild<QComboBox*>(QStringLiteral("pmuProgram"));
    auto* scales = controls->findChild<QDoubleSpinBox*>(QStringLiteral("pmuScale"));
    auto* groups = controls->findChild<QComboBox*>(QStringLiteral("pmuCatGroup"));
    auto* start = controls->findChild<QPushButton*>(QStringLiteral("pmuStart"));
    QVERIFY(machine && recipes && programs && scales && groups && start);
    machine->setCurrentIndex(0); // the simulated machine
    recipes->setCurrentIndex(recipes->findData(static_cast<int>(recipe)));
    programs->setCurrentIndex(programs->findData(program));
    scales->setValue(scale);
    groups->setCurrentIndex(groups->findData(group));
    QVERIFY(recipes->currentIndex() >= 0 && programs->currentIndex() >= 0 && groups->currentIndex() >= 0);
    QVERIFY(group.isEmpty() || groups->isEnabled());
    QVERIFY(start->isEnabled());
    QTest::mouseClick(start, Qt::LeftButton);
}
} // namespace

class TestLessonPmuControlsGui : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void dockStartCompletesThePmuStep()
    {
        MainWindow w;
        w.show();
        QString why;
        QVERIFY2(w.startLesson(QStringLiteral("tma"), &why), qPrintable(why));
        const rdt::lesson::LessonRun* run = w.lessonRun();
        PmuSession* pmu = w.pmuPages()->session();
        PmuControls* controls = w.pmuPages()->controls();
        QCOMPARE(run->phase(), rdt::lesson::StepPhase::Action);

        // The step asks for TMA on the interpreter: TMA on the hash join is another experiment.
        startFromDock(controls, rdt::pmu::PmuRecipeKind::Tma, QStringLiteral("backend"));
        QVERIFY(pmu->simulating());
        QTest::qWait(1500);
        QCOMPARE(run->phase(), rdt::lesson::StepPhase::Action);
        QVERIFY(!run->pmuCapture());
        controls->stop();

        startFromDock(controls, rdt::pmu::PmuRecipeKind::Tma, QStringLiteral("frontend"));
        QVERIFY(pmu->simulating());
        QTRY_VERIFY_WITH_TIMEOUT(run->pmuCapture().has_value(), kStepTimeoutMs);
        QCOMPARE(run->pmuCapture(), pmu->shownCapture()); // the dock's own capture, adopted, not a second one
        QVERIFY(!run->pmuCaptureOwned());
        QTRY_VERIFY_WITH_TIMEOUT(run->phase() == rdt::lesson::StepPhase::Question, kStepTimeoutMs);
        QVERIFY(!run->claims().empty());
        for (const auto& c : run->claims())
            QVERIFY2(c.held, (c.text + ": " + c.detail).c_str());
        QVERIFY(pmu->simulating()); // still the dock's: the lesson did not take it over

        // Closing the lesson stops the capture; the dock keeps capturing on the simulated machine the lesson leaves.
        const auto* lessonEngine = pmu->engine();
        QVERIFY(lessonEngine != nullptr);
        w.stopLesson();
        QVERIFY(!w.lessonRun());
        QVERIFY(!pmu->simulating());
        QVERIFY(!pmu->shownCapture());
        QCOMPARE(pmu->engine(), lessonEngine);
    }

    // The hash-join steps run the program in the victim group at half size: the dock offers both, and the step is
    // done by the dock's capture only with both chosen. The join then follows the victim's mask.
    void dockGroupAndScaleCompleteTheHashJoinStep()
    {
        MainWindow w;
        w.show();
        QString why;
        QVERIFY2(w.startLesson(QStringLiteral("tma"), &why), qPrintable(why));
        const rdt::lesson::LessonRun* run = w.lessonRun();
        PmuSession* pmu = w.pmuPages()->session();
        PmuControls* controls = w.pmuPages()->controls();
        QVERIFY(controls->catGroups().contains(QStringLiteral("victim")));
        QVERIFY(controls->catGroups().contains(QStringLiteral("streamer")));
        QTest::mouseClick(w.lessonPanel()->skipButton(), Qt::LeftButton); // to "A hash join"
        QCOMPARE(run->stepIndex(), std::size_t(1));
        QCOMPARE(run->phase(), rdt::lesson::StepPhase::Action);

        // The join at full size in the PMU's own caches, then at half size in the streamer's group: other
        // experiments, the step waits.
        startFromDock(controls, rdt::pmu::PmuRecipeKind::Tma, QStringLiteral("backend"));
        QVERIFY2(pmu->simulating(), qPrintable(controls->adviceText()));
        QTest::qWait(1000);
        QVERIFY(!run->pmuCapture());
        controls->stop();
        startFromDock(
            controls, rdt::pmu::PmuRecipeKind::Tma, QStringLiteral("backend"), 0.5, QStringLiteral("streamer"));
        QVERIFY2(pmu->simulating(), qPrintable(controls->adviceText()));
        QTest::qWait(1000);
        QVERIFY(!run->pmuCapture());
        controls->stop();

        startFromDock(controls, rdt::pmu::PmuRecipeKind::Tma, QStringLiteral("backend"), 0.5, QStringLiteral("victim"));
        QVERIFY2(pmu->simulating(), qPrintable(controls->adviceText()));
        QTRY_VERIFY_WITH_TIMEOUT(run->pmuCapture().has_value(), kStepTimeoutMs);
        QCOMPARE(run->pmuCapture(), pmu->shownCapture());
        QTRY_VERIFY_WITH_TIMEOUT(run->phase() == rdt::lesson::StepPhase::Question, kStepTimeoutMs);
        QVERIFY(!run->claims().empty());
        for (const auto& c : run->claims())
            QVERIFY2(c.held, (c.text + ": " + c.detail).c_str());
        w.stopLesson();
    }

    // Outside a lesson the dock runs the program in a group of the simulator too; a group the machine does not have
    // is refused by the engine with the reason, never run in the PMU's own caches instead.
    void dockGroupOnTheSimulatorAndAGoneGroup()
    {
        MainWindow w;
        auto bundle = openEngineSource("sim", "noisy-neighbour", 20.0);
        QVERIFY2(bundle.ok(), bundle.ok() ? "" : bundle.error().toString().c_str());
        w.setSource(std::move(bundle.value()));
        w.show();
        QVERIFY(w.showView(QStringLiteral("tma"))); // the PMU capture dock shows with the PMU pages
        PmuControls* controls = w.pmuPages()->controls();
        PmuSession* pmu = w.pmuPages()->session();
        QTRY_VERIFY_WITH_TIMEOUT(!controls->catGroups().isEmpty(), 10'000);
        const QString group = controls->catGroups().front();
        startFromDock(controls, rdt::pmu::PmuRecipeKind::Tma, QStringLiteral("backend"), 0.5, group);
        QVERIFY2(pmu->simulating(), qPrintable(controls->adviceText()));
        QVERIFY(pmu->engine() != nullptr);
        controls->stop();
        QString error;
        rdt::pmu::PmuSimOptions o;
        o.kind = rdt::pmu::PmuRecipeKind::Tma;
        o.catGroup = "no-such-group";
        QVERIFY(!pmu->startSimulation(o, 250, 1'000'000, &error));
        QVERIFY2(error.contains(QStringLiteral("no control group 'no-such-group'")), qPrintable(error));
    }

    void resetAndCloseStopTheLessonsOwnCapture()
    {
        MainWindow w;
        w.show();
        QString why;
        QVERIFY2(w.startLesson(QStringLiteral("tma"), &why), qPrintable(why));
        PmuSession* pmu = w.pmuPages()->session();
        QTest::mouseClick(w.lessonPanel()->doItButton(), Qt::LeftButton); // the lesson's own capture
        QVERIFY(w.lessonRun()->pmuCapture().has_value());
        QVERIFY(w.lessonRun()->pmuCaptureOwned());
        QTRY_VERIFY_WITH_TIMEOUT(pmu->followedCapture() == w.lessonRun()->pmuCapture(), 5000);
        QVERIFY(pmu->simulating());
        // Reset: the lesson starts again on a fresh machine; the PMU pages let go of the old capture, none runs.
        QTest::mouseClick(w.lessonPanel()->resetButton(), Qt::LeftButton);
        QVERIFY(w.lessonRun() != nullptr);
        QCOMPARE(w.lessonRun()->stepIndex(), std::size_t(0));
        QVERIFY(!w.lessonRun()->pmuCapture());
        QVERIFY(!pmu->simulating());
        QVERIFY(!pmu->shownCapture());
        // Started again, then the lesson closes: its capture stops with it.
        QTest::mouseClick(w.lessonPanel()->doItButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(pmu->followedCapture().has_value(), 5000);
        w.stopLesson();
        QVERIFY(!w.lessonRun());
        QVERIFY(!pmu->simulating());
        QVERIFY(!pmu->followedCapture());
        QVERIFY(!pmu->shownCapture());
    }
};

QTEST_MAIN(TestLessonPmuControlsGui)
#include "test_lesson_pmu_controls_gui.moc"
