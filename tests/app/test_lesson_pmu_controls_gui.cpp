// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #22: a lesson's PMU step ("start a PMU recipe") is detected when the student starts the recipe from the PMU
// capture dock, not only by the Lessons panel's "Do it for me": the dock's capture runs on the lesson's engine, which
// announces it (PmuCaptureStarted) to the lesson. The step's program matters (another program leaves the step
// waiting), the step completes and its claims hold on the dock's capture, and closing the lesson stops the capture
// and hands the PMU pages their own engine back. Reset and closing also stop the lesson's own ("Do it for me") capture.
#include "MainWindow.h"

#include "lesson/LessonRun.h"
#include "models/PmuRecipeKind.h"
#include "models/PmuSession.h"
#include "views/LessonPanel.h"
#include "views/PmuControls.h"
#include "views/PmuPages.h"

#include <QComboBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

namespace {
constexpr int kStepTimeoutMs = 60'000; // simulated time runs at real speed here; a loaded CI machine lags

/// Picks the recipe and program on the PMU dock and presses Start, as the student does.
void startFromDock(PmuControls* controls, rdt::pmu::PmuRecipeKind recipe, const QString& program)
{
    auto* machine = controls->findChild<QComboBox*>(QStringLiteral("pmuMachine"));
    auto* recipes = controls->findChild<QComboBox*>(QStringLiteral("pmuRecipe"));
    auto* programs = controls->findChild<QComboBox*>(QStringLiteral("pmuProgram"));
    auto* start = controls->findChild<QPushButton*>(QStringLiteral("pmuStart"));
    QVERIFY(machine && recipes && programs && start);
    machine->setCurrentIndex(0); // the simulated machine
    recipes->setCurrentIndex(recipes->findData(static_cast<int>(recipe)));
    programs->setCurrentIndex(programs->findData(program));
    QVERIFY(recipes->currentIndex() >= 0 && programs->currentIndex() >= 0);
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

        // Closing the lesson stops the capture on its engine; the dock opens its own engine next time.
        const auto* lessonEngine = pmu->engine();
        QVERIFY(lessonEngine != nullptr);
        w.stopLesson();
        QVERIFY(!w.lessonRun());
        QVERIFY(!pmu->simulating());
        QVERIFY(!pmu->shownCapture());
        QVERIFY(pmu->engine() != lessonEngine);
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
        QVERIFY(!pmu->engine()); // no engine of the closed lesson is kept
    }
};

QTEST_MAIN(TestLessonPmuControlsGui)
#include "test_lesson_pmu_controls_gui.moc"
