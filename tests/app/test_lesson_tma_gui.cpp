// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #22: the window walks a PMU lesson (tma) through its actions with the Lessons panel's buttons: each step's
// "Do it for me" starts a recipe on the simulated PMU, the run detects the capture, the panel shows what it
// measured once the step has run, the answers graded against that capture are accepted, and the lesson completes.
#include "MainWindow.h"

#include "lesson/LessonRun.h"
#include "views/LessonPanel.h"

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
            QTRY_VERIFY_WITH_TIMEOUT(run->phase() == rdt::lesson::StepPhase::Question, kStepTimeoutMs);
            for (const auto& c : run->claims())
                QVERIFY2(c.held, (c.text + ": " + c.detail).c_str());
            QVERIFY2(panel->pmuText().contains(QStringLiteral("Simulated PMU capture")), qPrintable(panel->pmuText()));
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
            QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        }
        QVERIFY(run->finished());
        QCOMPARE(run->completedSteps(), steps);
    }
};

QTEST_MAIN(TestLessonTmaGui)
#include "test_lesson_tma_gui.moc"
