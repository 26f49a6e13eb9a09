// SPDX-License-Identifier: GPL-3.0-or-later
// File > Switch source (issue #47 item 1): a running window moves from the simulator to a resctrl tree and back
// without a restart; a source that cannot open leaves the current one showing, with the reason. And the dialog
// names each choice as its command-line options would.

#include "AppOptions.h"
#include "FixtureTree.h"
#include "GeneratedTrees.h"
#include "MainWindow.h"
#include "SourceFactory.h"
#include "SourceSwitchDialog.h"
#include "StartPage.h"

#include "models/AllocationModel.h"
#include "models/FramePump.h"
#include "models/GroupModel.h"
#include "models/MonitorTreeModel.h"
#include "models/PmuSession.h"
#include "views/CacheWayHeatmap.h"
#include "views/DistinctNameDelegate.h"
#include "views/ExplainPanel.h"
#include "views/GroupsPanel.h"
#include "views/HeatmapGrid.h"
#include "views/LessonPanel.h"
#include "views/MbaEditor.h"
#include "views/MonitorPanel.h"
#include "views/PmuPages.h"
#include "views/TimelineView.h"

#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

namespace {
bool switchAndWait(MainWindow& w, const AppOptions& options, QString* message)
{
    QSignalSpy spy(&w, &MainWindow::sourceSwitched);
    w.switchSource(options);
    if (!spy.wait(20000)) {
        *message = QStringLiteral("no answer within 20 s");
        return false;
    }
    *message = spy.at(0).at(1).toString();
    return spy.at(0).at(0).toBool();
}

bool hasGroup(MainWindow& w, const char* group)
{
    return w.allocationModel()->rowFor(QString::fromLatin1(group), QStringLiteral("L3")) >= 0;
}
} // namespace

class TestSourceSwitch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void simulatorToTreeAndBackWithoutARestart()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/resctrl");
        QVERIFY(copyFixtureTree(QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full"), root));

        MainWindow w;
        AppOptions sim;
        sim.source = QStringLiteral("sim");
        sim.scenario = QStringLiteral("noisy-neighbour");
        auto first = openSource(sim);
        QVERIFY2(first.ok(), first ? "" : first.error().toString().c_str());
        w.setStartOptions(sim);
        w.setSource(std::move(first.value()));
        QVERIFY(w.windowTitle().contains(QStringLiteral("Simulated")));
        QVERIFY(hasGroup(w, "streamer"));
        const auto generation = w.pump()->generation();

        AppOptions tree = sim;
        tree.source = QStringLiteral("resctrl:") + root;
        tree.scenario.clear();
        QString message;
        QVERIFY2(switchAndWait(w, tree, &message), qPrintable(message));
        // The window is about the tree now: its title, its groups, none of the simulator's; a new pump generation.
        QVERIFY2(!w.windowTitle().contains(QStringLiteral("Simulated")), qPrintable(w.windowTitle()));
        QVERIFY2(w.windowTitle().contains(root), qPrintable(w.windowTitle()));
        QVERIFY(hasGroup(w, "Guaranteed"));
        QVERIFY(!hasGroup(w, "streamer"));
        QVERIFY(w.pump()->generation() != generation);
        QCOMPARE(w.currentView(), QStringLiteral("rdt"));

        // A source that cannot open: the tree stays, and the reason is given.
        AppOptions missing = tree;
        missing.source = QStringLiteral("resctrl:") + dir.path() + QStringLiteral("/no-such-tree");
        QVERIFY(!switchAndWait(w, missing, &message));
        QVERIFY2(message.contains(QStringLiteral("no-such-tree")), qPrintable(message));
        QVERIFY(hasGroup(w, "Guaranteed"));
        QVERIFY2(w.windowTitle().contains(root), qPrintable(w.windowTitle()));

        // And back to a simulated machine, another preset this time.
        AppOptions epyc = sim;
        epyc.preset = QStringLiteral("epyc-genoa");
        epyc.scenario = QStringLiteral("noisy-neighbour");
        QVERIFY2(switchAndWait(w, epyc, &message), qPrintable(message));
        QVERIFY(w.windowTitle().contains(QStringLiteral("Simulated")));
        QVERIFY(hasGroup(w, "streamer"));
        QVERIFY(!hasGroup(w, "Guaranteed"));
        // The tree was only read: the window never wrote to it while it showed it.
        QFile schemata(root + QStringLiteral("/Guaranteed/schemata"));
        QFile original(QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full/Guaranteed/schemata"));
        QVERIFY(schemata.open(QIODevice::ReadOnly) && original.open(QIODevice::ReadOnly));
        QCOMPARE(schemata.readAll(), original.readAll());
    }

    // Issue #47 item 3: the window's minimum size fits a 1280x720 screen on every kind of source (pages scroll
    // instead of widening the window): the simulator, the simulated EPYC, and the 4-domain fixture tree.
    void theWindowFitsA1280x720Screen()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/resctrl");
        QVERIFY(copyFixtureTree(QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full"), root));
        AppOptions sim;
        sim.source = QStringLiteral("sim");
        AppOptions epyc = sim;
        epyc.preset = QStringLiteral("epyc-genoa");
        epyc.scenario = QStringLiteral("mba");
        AppOptions tree;
        tree.source = QStringLiteral("resctrl:") + root;
        for (const AppOptions& o : { sim, epyc, tree }) {
            MainWindow w;
            auto source = openSource(o);
            QVERIFY2(source.ok(), source ? "" : source.error().toString().c_str());
            w.setSource(std::move(source.value()));
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            for (const QString& view : { QStringLiteral("rdt"), QStringLiteral("experiments") }) {
                w.showView(view);
                const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
                QVERIFY2(min.width() <= 1280 && min.height() <= 720,
                    qPrintable(QStringLiteral("%1 %2: %3x%4").arg(o.source, view).arg(min.width()).arg(min.height())));
            }
            // At 1280 pixels with both side docks the Cache & bandwidth page needs no sideways scrolling: the
            // heatmap and the MB table stack.
            w.resize(1280, 720);
            w.showView(QStringLiteral("rdt"));
            auto* allocation = w.findChild<QSplitter*>(QStringLiteral("allocationSplit"));
            QVERIFY(allocation);
            auto* area = qobject_cast<QScrollArea*>(w.findChild<QTabWidget*>()->currentWidget());
            QVERIFY(area);
            if (area->viewport()->width() < 836) // narrower than the two side by side: they must stack
                QTRY_COMPARE(allocation->orientation(), Qt::Vertical);
            QTRY_COMPARE(area->horizontalScrollBar()->maximum(), 0);
        }
    }

    // Issue #47 Tests: a tree of 40 L2 domains x 16 CLOS and one of 128 monitor groups still fit 1280x720 (tables
    // scroll, they never widen the window), and no two groups in the Monitor dock are drawn alike.
    void generatedLargeTreesFitAndKeepGroupsApart()
    {
        QTemporaryDir dir;
        const QString l2 = dir.path() + QStringLiteral("/l2"), many = dir.path() + QStringLiteral("/many");
        QVERIFY(writeManyL2DomainsTree(l2));
        QVERIFY(writeManyMonitorGroupsTree(many));
        for (const QString& root : { l2, many }) {
            AppOptions tree;
            tree.source = QStringLiteral("resctrl:") + root;
            MainWindow w;
            auto source = openSource(tree);
            QVERIFY2(source.ok(), source ? "" : source.error().toString().c_str());
            w.setSource(std::move(source.value()));
            w.resize(1280, 720);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QTRY_VERIFY_WITH_TIMEOUT(w.allocationModel()->rowCount() > 0, 10000);
            // The L2-only tree measures nothing, and the timelines say so rather than plot an empty axis.
            QCOMPARE(w.findChild<TimelineView*>()->notMeasured().isEmpty(), root != l2);
            for (const QString& view : { QStringLiteral("rdt"), QStringLiteral("experiments") }) {
                w.showView(view);
                QCoreApplication::processEvents();
                const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
                QVERIFY2(min.width() <= 1280 && min.height() <= 720,
                    qPrintable(QStringLiteral("%1 %2: %3x%4").arg(root, view).arg(min.width()).arg(min.height())));
            }
            if (root == many) {
                auto* monitor = w.monitorPanel();
                QTRY_VERIFY_WITH_TIMEOUT(monitor->proxy()->rowCount() >= 128, 10000);
                QCoreApplication::processEvents();
                const auto* names = qobject_cast<const DistinctNameDelegate*>(
                    monitor->view()->itemDelegateForColumn(MonitorTreeModel::GroupColumn));
                QVERIFY(names);
                QSet<QString> drawn;
                for (int r = 0; r < monitor->proxy()->rowCount(); ++r)
                    drawn.insert(names->shownNames().value(
                        monitor->proxy()->index(r, MonitorTreeModel::GroupColumn).data().toString()));
                QCOMPARE(drawn.size(), monitor->proxy()->rowCount());
                // The Groups dock too: 129 monitor groups of the default group, none drawn like another.
                auto* groups = w.findChild<GroupsPanel*>();
                QVERIFY(groups);
                const auto* groupNames = qobject_cast<const DistinctNameDelegate*>(
                    groups->view()->itemDelegateForColumn(GroupModel::NameColumn));
                QVERIFY(groupNames);
                QSet<QString> shown;
                for (const auto& text : groupNames->shownNames())
                    shown.insert(text);
                QCOMPARE(shown.size(), groupNames->shownNames().size());
                QVERIFY(groupNames->shownNames().size() >= 129);
            }
        }
    }

    // Issue #47 item 1: the start page opens each kind of source in the window; the docks hide while it shows.
    void startPageOpensTheSimulatorAndATree()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/resctrl");
        QVERIFY(copyFixtureTree(QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full"), root));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showStartPage();
        QVERIFY(w.startPageShown());
        QVERIFY(w.startPage()->isVisible());
        auto* groupsDock = w.findChild<QDockWidget*>(QStringLiteral("groupsDock"));
        QVERIFY(groupsDock && !groupsDock->isVisible());
        QVERIFY(!w.sourceStatusText().isEmpty());

        QSignalSpy switched(&w, &MainWindow::sourceSwitched);
        auto* simulate = w.startPage()->findChild<QPushButton*>(QStringLiteral("start.sim"));
        QVERIFY(simulate);
        QTest::mouseClick(simulate, Qt::LeftButton);
        QVERIFY(switched.wait(20000));
        QVERIFY2(switched.last().at(0).toBool(), qPrintable(switched.last().at(1).toString()));
        QVERIFY(!w.startPageShown());
        QVERIFY(groupsDock->isVisible()); // back with the pages
        QVERIFY(w.windowTitle().contains(QStringLiteral("Simulated")));
        QVERIFY(hasGroup(w, "streamer"));

        w.showStartPage();
        w.startPage()->findChild<QLineEdit*>(QStringLiteral("start.treePath"))->setText(root);
        QTest::mouseClick(w.startPage()->findChild<QPushButton*>(QStringLiteral("start.tree")), Qt::LeftButton);
        QVERIFY(switched.wait(20000));
        QVERIFY2(switched.last().at(0).toBool(), qPrintable(switched.last().at(1).toString()));
        QVERIFY2(w.windowTitle().contains(root), qPrintable(w.windowTitle()));
        QVERIFY(hasGroup(w, "Guaranteed"));
    }

    // Issue #47 Tests: the start page's other kinds: this machine (opened, or refused with the reason and the start
    // page kept), a recording (a replay of that file), a lesson (on its simulated machine, with the lesson panel).
    void startPageOpensThisMachineARecordingAndALesson()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showStartPage();
        QSignalSpy switched(&w, &MainWindow::sourceSwitched);
        QTest::mouseClick(w.startPage()->findChild<QPushButton*>(QStringLiteral("start.live")), Qt::LeftButton);
        QVERIFY(switched.wait(20000));
        if (switched.last().at(0).toBool()) {
            QVERIFY(!w.startPageShown());
            QVERIFY(!w.windowTitle().contains(QStringLiteral("Simulated")));
        } else { // no RDT here (a VM): the reason is given and the start page stays to choose something else
            QVERIFY(!switched.last().at(1).toString().isEmpty());
            QVERIFY(w.startPageShown());
        }

        w.showStartPage();
        QSignalSpy opened(&w, &MainWindow::sessionOpened);
        const QString recording = QStringLiteral(RDTSCOPE_TEST_DATA "/session/corpus/simulated-everything.rdts");
        QVERIFY(QMetaObject::invokeMethod(w.startPage(), "openSessionRequested", Q_ARG(QString, recording)));
        QVERIFY(opened.wait(20000));
        QVERIFY2(opened.last().at(0).toBool(), qPrintable(opened.last().at(1).toString()));
        QVERIFY(!w.startPageShown());
        QVERIFY2(w.windowTitle().contains(QStringLiteral("simulated-everything.rdts")), qPrintable(w.windowTitle()));
        QCOMPARE(w.pump()->source().kind, SourceKind::Replay);

        w.showStartPage();
        auto* lesson = w.startPage()->findChild<QPushButton*>(QStringLiteral("start.lesson.cdp"));
        QVERIFY(lesson);
        QTest::mouseClick(lesson, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!w.startPageShown(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(w.windowTitle().contains(QStringLiteral("Simulated")), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(w.lessonPanel() && w.lessonPanel()->isVisible(), 20000);
    }

    // Issue #47 item 2: a perf.data file opened with no RDT source makes the window about that file: its name in the
    // title, no RDT pages or docks, no simulator beside it; a source set afterwards brings them back.
    void aPerfDataFileAloneMakesTheWindowAboutIt()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy imported(w.pmuPages()->session(), &PmuSession::importFinished);
        QVERIFY(w.pmuPages()->startFromOptions(
            QStringLiteral(RDTSCOPE_TEST_DATA "/perf/propeller_sample_1.perfdata"), QStringLiteral("auto"), true));
        QVERIFY(imported.wait(30000));
        QVERIFY2(imported.last().at(0).toBool(), qPrintable(imported.last().at(1).toString()));
        QCOMPARE(w.documentShown(), QStringLiteral("perf.data propeller_sample_1.perfdata"));
        QVERIFY2(w.windowTitle().contains(QStringLiteral("propeller_sample_1.perfdata")), qPrintable(w.windowTitle()));
        QVERIFY(!w.windowTitle().contains(QStringLiteral("Simulated")));
        QCOMPARE(w.pump()->source().kind, SourceKind::None);
        for (const char* dock : { "groupsDock", "monitorDock", "pmuDock" })
            QVERIFY2(!w.findChild<QDockWidget*>(QString::fromLatin1(dock))->isVisible(), dock);
        auto* pages = w.findChild<QTabWidget*>();
        QVERIFY(!pages->isTabVisible(1)); // Cache & bandwidth
        QVERIFY(pages->isTabVisible(3)); // the call graph

        AppOptions sim;
        sim.source = QStringLiteral("sim");
        QString message;
        QVERIFY2(switchAndWait(w, sim, &message), qPrintable(message));
        QVERIFY(w.documentShown().isEmpty());
        QVERIFY(pages->isTabVisible(1));
        QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("groupsDock"))->isVisible());
    }

    // Issue #47 item 2: a CPUID dump makes a window about that CPU, its Machine page alone; a source set later
    // takes the window back, with this machine on the Machine page.
    void aCpuidDumpAloneMakesTheWindowAboutIt()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString why;
        QVERIFY(!w.openCpuidDump(QStringLiteral(RDTSCOPE_TEST_DATA "/no-such-dump.txt"), &why));
        QVERIFY2(!why.isEmpty(), "a dump that does not read says why");
        QVERIFY(w.documentShown().isEmpty());
        QVERIFY2(w.openCpuidDump(
                     QStringLiteral(RDTSCOPE_TEST_DATA "/cpuid/GenuineIntel0050654_SkylakeXeon_CPUID5.txt"), &why),
            qPrintable(why));
        QCOMPARE(w.documentShown(), QStringLiteral("CPUID dump GenuineIntel0050654_SkylakeXeon_CPUID5.txt"));
        QCOMPARE(w.currentView(), QStringLiteral("machine"));
        auto* pages = w.findChild<QTabWidget*>();
        int visible = 0;
        for (int i = 0; i < pages->count(); ++i)
            visible += pages->isTabVisible(i) ? 1 : 0;
        QCOMPARE(visible, 1);
        QVERIFY(w.machineSummary().contains(QStringLiteral("SkylakeXeon")));
        for (const char* dock : { "groupsDock", "monitorDock", "pmuDock" })
            QVERIFY2(!w.findChild<QDockWidget*>(QString::fromLatin1(dock))->isVisible(), dock);

        AppOptions sim;
        sim.source = QStringLiteral("sim");
        QString message;
        QVERIFY2(switchAndWait(w, sim, &message), qPrintable(message));
        QVERIFY(w.documentShown().isEmpty());
        QVERIFY(pages->isTabVisible(1));
        QVERIFY(!w.machineSummary().contains(QStringLiteral("SkylakeXeon")));
    }

    // Issue #47 item 4: the Explain panel follows the heatmap cell and the MB cell under the user's hand, in the
    // vendor's own terms: AMD's on the simulated EPYC, Intel's SDM on the simulated Xeon.
    void explainFollowsTheHandInTheVendorsTerms()
    {
        MainWindow w;
        AppOptions epyc;
        epyc.source = QStringLiteral("sim");
        epyc.preset = QStringLiteral("epyc-genoa");
        epyc.scenario = QStringLiteral("mba");
        auto source = openSource(epyc);
        QVERIFY2(source.ok(), source ? "" : source.error().toString().c_str());
        w.setSource(std::move(source.value()));
        w.showView(QStringLiteral("rdt"));
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.explainPanel()->vendorVariant(), QStringLiteral("amd"));
        HeatmapGrid* grid = w.heatmap()->grid();
        const int row = w.allocationModel()->rowFor(QStringLiteral("hogs"), QStringLiteral("L3"));
        QVERIFY(row >= 0);
        QTest::mouseClick(grid, Qt::LeftButton, {}, grid->cellRect(row, 0).center());
        QCOMPARE(w.explainPanel()->currentConcept(), QStringLiteral("cat"));
        QVERIFY2(
            w.explainPanel()->markdown().contains(QStringLiteral("CCX")), qPrintable(w.explainPanel()->markdown()));
        QVERIFY(!w.explainPanel()->markdown().contains(QStringLiteral("CPUID.10H.01H:ECX[3]")));
        auto* mbTable = w.mbaEditor()->view();
        mbTable->setCurrentIndex(mbTable->model()->index(0, 0));
        QCOMPARE(w.explainPanel()->currentConcept(), QStringLiteral("mba"));
        QVERIFY2(w.explainPanel()->markdown().contains(QStringLiteral("1/8 GB/s")),
            qPrintable(w.explainPanel()->markdown()));

        AppOptions xeon;
        xeon.source = QStringLiteral("sim");
        QString message;
        QVERIFY2(switchAndWait(w, xeon, &message), qPrintable(message));
        QVERIFY(w.explainPanel()->vendorVariant().isEmpty());
        // A copy of an Intel tree read on any host (this one may be an AMD machine): Intel's texts; an AMD tree's
        // 1/8 GB/s bandwidth says AMD whatever host reads it.
        QTemporaryDir dir;
        for (const auto& [tree, variant] : { std::pair { "resctrl.full", "" }, std::pair { "amd.abmc", "amd" } }) {
            const QString root = dir.path() + QLatin1Char('/') + QString::fromLatin1(tree);
            QVERIFY(copyFixtureTree(QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/") + QString::fromLatin1(tree), root));
            AppOptions o;
            o.source = QStringLiteral("resctrl:") + root;
            QVERIFY2(switchAndWait(w, o, &message), qPrintable(message));
            QCOMPARE(w.explainPanel()->vendorVariant(), QString::fromLatin1(variant));
        }
    }

    void theCommandLineNamingNothingOpensTheStartPage()
    {
        auto parse = [](QStringList args) {
            args.prepend(QStringLiteral("rdtscope"));
            AppOptions o;
            QString error;
            if (!parseAppOptions(args, &o, &error)) qFatal("parse: %s", qPrintable(error));
            return o.startPage;
        };
        QVERIFY(parse({}));
        QVERIFY(parse({ QStringLiteral("--screenshot"), QStringLiteral("x.png") }));
        QVERIFY(!parse({ QStringLiteral("--source"), QStringLiteral("auto") }));
        QVERIFY(!parse({ QStringLiteral("--scenario"), QStringLiteral("mba") }));
        QVERIFY(!parse({ QStringLiteral("--open"), QStringLiteral("x.rdts") }));
        QVERIFY(!parse({ QStringLiteral("--lesson"), QStringLiteral("cdp") }));
        QVERIFY(!parse({ QStringLiteral("--view"), QStringLiteral("tma") }));
        QVERIFY(!parse({ QStringLiteral("--cpuid-dump"), QStringLiteral("d.txt") }));
    }

    void dialogNamesEachChoiceAsTheCommandLineWould()
    {
        AppOptions current;
        current.source = QStringLiteral("sim");
        SourceSwitchDialog dialog(current, nullptr);
        // No preset named: the scenario's own CPU, as --scenario without --preset.
        AppOptions chosen = dialog.chosen();
        QCOMPARE(chosen.source, QStringLiteral("sim"));
        QCOMPARE(chosen.preset, QString());
        QCOMPARE(chosen.scenario, QStringLiteral("noisy-neighbour")); // the default scenario
        auto* preset = dialog.findChild<QComboBox*>(QStringLiteral("preset"));
        QVERIFY(preset);
        const int genoa = preset->findData(QStringLiteral("epyc-genoa"));
        QVERIFY(genoa > 0);
        preset->setCurrentIndex(genoa);
        QCOMPARE(dialog.chosen().preset, QStringLiteral("epyc-genoa"));

        dialog.findChild<QRadioButton*>(QStringLiteral("kind.tree"))->setChecked(true);
        QCOMPARE(dialog.chosen().source, QStringLiteral("resctrl")); // the mounted tree
        dialog.findChild<QLineEdit*>(QStringLiteral("treePath"))->setText(QStringLiteral("/tmp/copy"));
        chosen = dialog.chosen();
        QCOMPARE(chosen.source, QStringLiteral("resctrl:/tmp/copy"));
        QVERIFY(chosen.preset.isEmpty() && chosen.scenario.isEmpty()); // refused for a tree (SourceSpec)

        dialog.findChild<QRadioButton*>(QStringLiteral("kind.live"))->setChecked(true);
        QCOMPARE(dialog.chosen().source, QStringLiteral("auto"));

        // Opened on a tree, the dialog starts there.
        current.source = QStringLiteral("resctrl:/srv/tree");
        SourceSwitchDialog onTree(current, nullptr);
        QCOMPARE(onTree.chosen().source, QStringLiteral("resctrl:/srv/tree"));
    }
};

QTEST_MAIN(TestSourceSwitch)
#include "test_source_switch.moc"
