// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #22, "enable CDP" as a student action in the window: the cdp lesson starts with CDP off, the student turns
// it on with Edit > L3 code/data masks (CDP), the lesson detects it from the engine, and the heatmap shows each
// group's L3CODE and L3DATA rows instead of its L3 row.
#include "MainWindow.h"

#include "lesson/LessonRun.h"
#include "models/AllocationModel.h"
#include "views/LessonPanel.h"

#include <QAction>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

namespace {
constexpr int kStepTimeoutMs = 60'000; // simulated time runs at real speed here; a loaded CI machine lags
}

class TestLessonCdpGui : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void studentEnablesCdpFromTheEditMenu()
    {
        MainWindow w;
        w.show();
        QString why;
        QVERIFY2(w.startLesson(QStringLiteral("cdp"), &why), qPrintable(why));
        const rdt::lesson::LessonRun* run = w.lessonRun();
        AllocationModel* heatmap = w.allocationModel();
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->rowFor(QStringLiteral("frontend"), QStringLiteral("L3")) >= 0, 10'000);
        QCOMPARE(heatmap->rowFor(QStringLiteral("frontend"), QStringLiteral("L3CODE")), -1);

        QTRY_VERIFY_WITH_TIMEOUT(run->phase() == rdt::lesson::StepPhase::Done, kStepTimeoutMs);
        QTest::mouseClick(w.lessonPanel()->nextButton(), Qt::LeftButton);
        QCOMPARE(run->stepIndex(), std::size_t(1));
        QCOMPARE(run->phase(), rdt::lesson::StepPhase::Action);

        auto* cdp = w.findChild<QAction*>(QStringLiteral("cdp"));
        QVERIFY(cdp && cdp->isCheckable());
        QVERIFY(!cdp->isChecked());
        cdp->trigger(); // the student's own action, not the panel's "Do it for me"
        QVERIFY(cdp->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(run->phase() != rdt::lesson::StepPhase::Action, kStepTimeoutMs);
        QVERIFY(heatmap->rowFor(QStringLiteral("frontend"), QStringLiteral("L3CODE")) >= 0);
        QVERIFY(heatmap->rowFor(QStringLiteral("analytics"), QStringLiteral("L3DATA")) >= 0);
        QCOMPARE(heatmap->rowFor(QStringLiteral("frontend"), QStringLiteral("L3")), -1);
    }
};

QTEST_MAIN(TestLessonCdpGui)
#include "test_lesson_cdp_gui.moc"
