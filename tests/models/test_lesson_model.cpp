// SPDX-License-Identifier: GPL-3.0-or-later
// The Lessons panel's model under QAbstractItemModelTester while a real run moves through its steps.
#include "lesson/LessonCheck.h"
#include "lesson/LessonParser.h"
#include "models/LessonModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

class TestLessonModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void followsTheRun()
    {
        auto lesson = rdt::lesson::loadLesson("noisy-neighbour");
        QVERIFY(lesson.ok());
        auto engine = rdt::lesson::openLessonEngine(*lesson, "test");
        QVERIFY2(engine.ok(), engine.ok() ? "" : engine.error().toString().c_str());
        auto& e = **engine;
        rdt::lesson::LessonRun run(*lesson);
        LessonModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(run.begin(e).ok);
        model.setRun(&run);
        QCOMPARE(model.rowCount(), static_cast<int>(lesson->steps.size()));
        QCOMPARE(model.stateOf(0), QStringLiteral("current"));
        QCOMPARE(model.stateOf(1), QStringLiteral("ahead"));
        QVERIFY(model.data(model.index(0)).toString().contains(QString::fromStdString(lesson->steps[0].title)));
        QCOMPARE(model.data(model.index(0), LessonModel::PhaseRole).toString(), QStringLiteral("running"));
        run.skip(e);
        model.refresh();
        QCOMPARE(model.stateOf(0), QStringLiteral("skipped"));
        QCOMPARE(model.stateOf(1), QStringLiteral("current"));
        QCOMPARE(model.data(model.index(1), LessonModel::PhaseRole).toString(),
            QString::fromLatin1(rdt::lesson::phaseName(rdt::lesson::StepPhase::Action)));
        QVERIFY(!model.data(model.index(99)).isValid());
        model.setRun(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLessonModel)
#include "test_lesson_model.moc"
