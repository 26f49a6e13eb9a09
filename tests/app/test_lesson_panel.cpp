// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #22: the window walks the noisy-neighbour lesson through its actions with the Lessons panel's buttons,
// on the simulated machine in real time: step one opens, a wrong number is refused and the measured one
// accepted, "Do it for me" fences the streamer and the run detects it from the engine's events, the right choice
// is the one this run measured, the lesson completes, and Reset starts it again on step one.
#include "MainWindow.h"

#include "lesson/LessonRun.h"
#include "models/LessonModel.h"
#include "views/LessonPanel.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QTextBrowser>

namespace {
constexpr int kStepTimeoutMs = 60'000; // simulated time runs at real speed here; a loaded CI machine lags

/// Every text the panel shows now: its visible labels and the step text.
QString visibleText(const QWidget* panel)
{
    QString all;
    for (const QLabel* l : panel->findChildren<QLabel*>())
        if (l->isVisible()) all += l->text() + QLatin1Char('\n');
    for (const QTextBrowser* t : panel->findChildren<QTextBrowser*>())
        all += t->toPlainText() + QLatin1Char('\n');
    return all;
}
}

class TestLessonPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void unknownLessonSaysWhich()
    {
        MainWindow w;
        QString why;
        QVERIFY(!w.startLesson(QStringLiteral("no-such-lesson"), &why));
        QVERIFY2(why.contains(QStringLiteral("noisy-neighbour")), qPrintable(why)); // the advice names lessons
        QVERIFY(!w.lessonRun());
    }

    void statusBarIsNotOverprinted()
    {
        // As `rdtscope --lesson NAME` does: the lesson starts before the window shows.
        MainWindow w;
        QString why;
        QVERIFY2(w.startLesson(QStringLiteral("noisy-neighbour"), &why), qPrintable(why));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QStatusBar* bar = w.statusBar();
        bool labelShown = false; // the source label, on the left (the frame label is permanent, on the right)
        for (const QLabel* l : bar->findChildren<QLabel*>())
            if (l->isVisible() && !l->text().isEmpty() && l->x() < bar->width() / 2) labelShown = true;
        QVERIFY(labelShown);
        QVERIFY2(bar->currentMessage().isEmpty(), qPrintable(bar->currentMessage())); // it would be drawn over it
    }

    void walksNoisyNeighbour()
    {
        MainWindow w;
        w.show();
        QString why;
        QVERIFY2(w.startLesson(QStringLiteral("noisy-neighbour"), &why), qPrintable(why));
        LessonPanel* panel = w.lessonPanel();
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
        QVERIFY(dock && dock->isVisible());
        const rdt::lesson::LessonRun* run = w.lessonRun();
        QVERIFY(run);
        QCOMPARE(run->stepIndex(), std::size_t(0));
        QCOMPARE(panel->model()->stateOf(0), QStringLiteral("current"));

        // Step 1: watch, then answer with a number.
        QTRY_VERIFY_WITH_TIMEOUT(run->phase() == rdt::lesson::StepPhase::Question, kStepTimeoutMs);
        QVERIFY(panel->checkButton()->isEnabled());
        QVERIFY(!panel->nextButton()->isEnabled());
        const auto measured = run->measuredAnswer();
        QVERIFY(measured.ok());
        // Before the answer the panel shows neither the measured value nor the claims that carry it.
        const QString shown = QString::fromStdString(rdt::lesson::formatMeasured(*measured));
        QVERIFY2(!visibleText(panel).contains(shown), qPrintable(visibleText(panel)));
        QVERIFY(!visibleText(panel).contains(QStringLiteral("in this run:")));
        panel->numberField()->setText(QString::number(*measured * 3));
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QVERIFY2(panel->feedbackText().startsWith(QStringLiteral("not quite")), qPrintable(panel->feedbackText()));
        QTest::mouseClick(panel->hintButton(), Qt::LeftButton);
        QVERIFY(panel->feedbackText().startsWith(QStringLiteral("Hint:")));
        panel->numberField()->setText(QString::number(*measured, 'f', 2));
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QVERIFY2(panel->feedbackText().startsWith(QStringLiteral("right")), qPrintable(panel->feedbackText()));
        QVERIFY(panel->feedbackText().contains(shown));
        QVERIFY2(panel->statusText().contains(QStringLiteral("Seen in this run:")), qPrintable(panel->statusText()));
        QVERIFY(panel->nextButton()->isEnabled());
        QTest::mouseClick(panel->nextButton(), Qt::LeftButton);

        // Step 2: the action, performed through the panel, detected from the engine's AllocationChanged event.
        QCOMPARE(run->stepIndex(), std::size_t(1));
        QCOMPARE(run->phase(), rdt::lesson::StepPhase::Action);
        QVERIFY(panel->doItButton()->isVisible() && panel->doItButton()->isEnabled());
        QTest::mouseClick(panel->doItButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(run->phase() != rdt::lesson::StepPhase::Action, kStepTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(run->phase() == rdt::lesson::StepPhase::Question, kStepTimeoutMs);
        for (const auto& c : run->claims())
            QVERIFY2(c.held, (c.text + ": " + c.detail).c_str());
        const auto right = run->rightChoices();
        QCOMPARE(right.size(), std::size_t(1));
        panel->choiceBox()->setCurrentIndex(static_cast<int>(1 - right.front()));
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QVERIFY(panel->feedbackText().startsWith(QStringLiteral("not quite")));
        panel->choiceBox()->setCurrentIndex(static_cast<int>(right.front()));
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QVERIFY2(panel->feedbackText().startsWith(QStringLiteral("right")), qPrintable(panel->feedbackText()));
        QTest::mouseClick(panel->nextButton(), Qt::LeftButton);

        // Step 3: skipped once it has run; the skipped step still shows what it measured; the lesson completes.
        QCOMPARE(run->stepIndex(), std::size_t(2));
        QTRY_VERIFY_WITH_TIMEOUT(run->phase() == rdt::lesson::StepPhase::Question, kStepTimeoutMs);
        const auto last = run->measuredAnswer();
        QVERIFY(last.ok());
        QVERIFY(!visibleText(panel).contains(QString::fromStdString(rdt::lesson::formatMeasured(*last))));
        QTest::mouseClick(panel->skipButton(), Qt::LeftButton);
        QVERIFY2(panel->feedbackText().contains(
                     QStringLiteral("This run measured ") + QString::fromStdString(rdt::lesson::formatMeasured(*last))),
            qPrintable(panel->feedbackText()));
        QVERIFY(run->finished());
        QCOMPARE(panel->model()->stateOf(2), QStringLiteral("skipped"));
        QCOMPARE(panel->model()->stateOf(0), QStringLiteral("done"));
        QVERIFY(panel->statusText().startsWith(QStringLiteral("Lesson complete")));

        // Reset: a fresh machine and step one again.
        QTest::mouseClick(panel->resetButton(), Qt::LeftButton);
        QVERIFY(w.lessonRun());
        QCOMPARE(w.lessonRun()->stepIndex(), std::size_t(0));
        QVERIFY(!w.lessonRun()->finished());
        QCOMPARE(panel->model()->stateOf(0), QStringLiteral("current"));
    }
};

QTEST_MAIN(TestLessonPanel)
#include "test_lesson_panel.moc"
