// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #22: the window walks a PMU lesson (tma) through its actions with the Lessons panel's buttons: each step's
// "Do it for me" starts a recipe on the simulated PMU, the run detects the capture, the panel shows what it
// measured once the step has run, the answers graded against that capture are accepted, and the lesson completes.
// Each PMU step's capture is on the TMA page the step says to look at ("look tma"), with the same verdict as the
// lesson's; the step that shrinks the victim's mask has no capture of its own and no question.
#include "MainWindow.h"

#include "lesson/LessonRun.h"
#include "models/PmuSession.h"
#include "views/LessonPanel.h"
#include "views/PmuPages.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

namespace {
constexpr int kStepTimeoutMs = 60'000; // simulated time runs at real speed here; a loaded CI machine lags
}

class TestLessonTmaGui : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void walksTma()
    {
        MainWindow w;
        w.show();
        QString why;
        QVERIFY2(w.startLesson(QStringLiteral("tma"), &why), qPrintable(why));
        LessonPanel* panel = w.lessonPanel();
        const rdt::lesson::LessonRun* run = w.lessonRun();
        const std::size_t steps = run->lesson().steps.size();
        for (std::size_t i = 0; i < steps; ++i) {
            QCOMPARE(run->stepIndex(), i);
            QCOMPARE(run->phase(), rdt::lesson::StepPhase::Action);
            QVERIFY(!run->pmuCapture() || i > 0);
            QVERIFY(panel->pmuText().isEmpty()); // nothing measured yet in this step
            QTest::mouseClick(panel->doItButton(), Qt::LeftButton);
            QVERIFY(run->pmuCapture().has_value());
            const bool asks = run->step().question.kind != rdt::lesson::LessonQuestion::Kind::None;
            const auto ran = asks ? rdt::lesson::StepPhase::Question : rdt::lesson::StepPhase::Done;
            QTRY_VERIFY_WITH_TIMEOUT(run->phase() == ran, kStepTimeoutMs);
            for (const auto& c : run->claims())
                QVERIFY2(c.held, (c.text + ": " + c.detail).c_str());
            if (run->step().action.kind == rdt::lesson::LessonAction::Kind::Pmu) {
                // The TMA page shows this step's capture: its own TMA intervals, and the lesson's first claim.
                QCOMPARE(w.currentView(), QStringLiteral("tma"));
                PmuSession* pmu = w.pmuPages()->session();
                QCOMPARE(pmu->followedCapture(), run->pmuCapture());
                QTRY_VERIFY_WITH_TIMEOUT(!pmu->data().tma.empty(), 5000);
                pmu->waitForAggregation();
                const auto& tma = pmu->rangeTma(0);
                QVERIFY2(tma.valid, tma.note.c_str());
                QVERIFY(tma.level2.present); // the simulated Skylake-SP PMU counts level 2 too
                if (run->step().action.pmuProgram == "frontend") { // the interpreter
                    QVERIFY(tma.level1.frontendBound > tma.level1.backendBound);
                    QVERIFY(tma.level2.fetchLatency > tma.level2.fetchBandwidth);
                } else { // the hash join
                    QVERIFY(tma.level1.backendBound > tma.level1.frontendBound);
                    QVERIFY(tma.level2.memoryBound > tma.level2.coreBound);
                }
                QVERIFY2(
                    panel->pmuText().contains(QStringLiteral("Simulated PMU capture")), qPrintable(panel->pmuText()));
            }
            if (asks) {
                if (run->step().question.kind == rdt::lesson::LessonQuestion::Kind::Number) {
                    const auto measured = run->measuredAnswer();
                    QVERIFY(measured.ok());
                    panel->numberField()->setText(QString::number(*measured, 'f', 2));
                } else {
                    const auto right = run->rightChoices();
                    QCOMPARE(right.size(), std::size_t(1));
                    panel->choiceBox()->setCurrentIndex(static_cast<int>(right.front()));
                }
                QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
                QVERIFY2(panel->feedbackText().startsWith(QStringLiteral("right")), qPrintable(panel->feedbackText()));
            }
            QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        }
        QVERIFY(run->finished());
        QCOMPARE(run->completedSteps(), steps);
        // Stopping the lesson lets go of its capture before its engine goes.
        w.stopLesson();
        QVERIFY(!w.pmuPages()->session()->followedCapture());
    }
};

QTEST_MAIN(TestLessonTmaGui)
#include "test_lesson_tma_gui.moc"
