// SPDX-License-Identifier: GPL-3.0-or-later
// File > Open Recent (issue #19 item 4): sessions and perf.data files opened in the window are kept newest first
// across runs (QSettings), reopened from the menu the way --open opens them; windows that do not remember
// (screenshots, tests) leave the list alone.
#include "EngineSource.h"
#include "MainWindow.h"
#include "RecentFiles.h"

#include "models/FramePump.h"
#include "models/PmuSession.h"
#include "models/QueuedFeed.h"
#include "views/PmuPages.h"

#include <QAction>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {
/// A short session recorded through the window, as a user would make one.
bool recordSession(const QString& path)
{
    MainWindow w;
    auto sim = openEngineSource("sim", "noisy-neighbour", 10.0); // recording needs a source with an engine
    if (!sim) return false;
    w.setSource(std::move(sim.value()));
    QString error;
    if (!w.startRecording(path, &error)) return false;
    QTest::qWait(300);
    w.pump()->pumpOnce();
    return w.stopRecording(&error);
}

QList<QAction*> fileActions(QMenu* menu)
{
    Q_EMIT menu->aboutToShow(); // what opening the menu does
    QList<QAction*> files;
    for (QAction* a : menu->actions())
        if (!a->data().toString().isEmpty()) files.append(a);
    return files;
}
} // namespace

class TestRecentFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_config;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_config.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_config.path()); // never the user's own
        QCoreApplication::setOrganizationName(QStringLiteral("rdtscope-test-recent"));
    }
    void init() { RecentFiles::clear(); }

    void opensAreRememberedAndReopenedFromTheMenu()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("run.rdts"));
        QVERIFY(recordSession(session));
        const QString perf = QStringLiteral(RDTSCOPE_TEST_DATA "/perf/perf.data.weight_struct");
        {
            MainWindow w;
            w.setRememberRecentFiles(true);
            QSignalSpy opened(&w, &MainWindow::sessionOpened);
            w.openSession(session);
            QVERIFY(opened.wait(10000));
            QVERIFY2(opened.last().at(0).toBool(), qPrintable(opened.last().at(1).toString()));
            QCOMPARE(RecentFiles::list(), QStringList { session });
            QSignalSpy imported(w.pmuPages()->session(), &PmuSession::importFinished);
            w.openRecent(perf); // a perf.data file goes to the PMU pages
            QVERIFY(imported.wait(30000));
            QVERIFY2(imported.last().at(0).toBool(), qPrintable(imported.last().at(1).toString()));
            QCOMPARE(RecentFiles::list(), (QStringList { QFileInfo(perf).absoluteFilePath(), session }));
        }
        // The next run's menu lists both, newest first; choosing the session opens it and moves it first.
        MainWindow w;
        w.setRememberRecentFiles(true);
        auto* menu = w.findChild<QMenu*>(QStringLiteral("recentMenu"));
        QVERIFY(menu);
        const auto files = fileActions(menu);
        QCOMPARE(files.size(), 2);
        QCOMPARE(files[1]->data().toString(), session);
        QVERIFY(files[1]->text().contains(QStringLiteral("run.rdts")));
        QVERIFY(files[1]->isEnabled());
        QSignalSpy opened(&w, &MainWindow::sessionOpened);
        files[1]->trigger();
        QVERIFY(opened.wait(10000));
        QVERIFY(opened.last().at(0).toBool());
        QVERIFY(w.windowTitle().contains(QStringLiteral("Replay")));
        QCOMPARE(RecentFiles::list().first(), session);
    }

    void aWindowThatDoesNotRememberLeavesTheListAlone()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("quiet.rdts"));
        QVERIFY(recordSession(session));
        MainWindow w; // as for --screenshot: remembering is off unless asked for
        QSignalSpy opened(&w, &MainWindow::sessionOpened);
        w.openSession(session);
        QVERIFY(opened.wait(10000));
        QVERIFY(opened.last().at(0).toBool());
        QVERIFY(RecentFiles::list().isEmpty());
    }

    void keepsTheNewestTenAndDisablesMissingFiles()
    {
        QTemporaryDir dir;
        for (int i = 0; i < 12; ++i)
            RecentFiles::remember(dir.filePath(QStringLiteral("f%1.rdts").arg(i)));
        RecentFiles::remember(dir.filePath(QStringLiteral("f5.rdts"))); // again: moves first, not listed twice
        const QStringList list = RecentFiles::list();
        QCOMPARE(list.size(), RecentFiles::kMaxFiles);
        QCOMPARE(list.first(), dir.filePath(QStringLiteral("f5.rdts")));
        QCOMPARE(list.count(dir.filePath(QStringLiteral("f5.rdts"))), 1);
        QCOMPARE(list.at(1), dir.filePath(QStringLiteral("f11.rdts")));
        QVERIFY(!list.contains(dir.filePath(QStringLiteral("f0.rdts"))));
        MainWindow w;
        auto* menu = w.findChild<QMenu*>(QStringLiteral("recentMenu"));
        const auto files = fileActions(menu);
        QCOMPARE(files.size(), RecentFiles::kMaxFiles);
        for (QAction* a : files)
            QVERIFY2(!a->isEnabled(), qPrintable(a->text())); // none of them exists
        QAction* clear = menu->actions().last();
        QVERIFY(clear->isEnabled());
        clear->trigger();
        QVERIFY(RecentFiles::list().isEmpty());
        QVERIFY(fileActions(menu).isEmpty());
    }
};

QTEST_MAIN(TestRecentFiles)
#include "test_recent_files.moc"
