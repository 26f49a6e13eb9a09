// SPDX-License-Identifier: GPL-3.0-or-later
#include "EngineSource.h"
#include "MainWindow.h"

#include "models/AllocationModel.h"
#include "models/FramePump.h"
#include "models/MachineDescription.h"
#include "models/MachineModel.h"
#include "models/MonitorModel.h"
#include "models/PmuSession.h"
#include "models/QueuedFeed.h"
#include "session/SessionReader.h"
#include "views/CallGraphView.h"
#include "views/CallStacksPage.h"
#include "views/CoreAssignmentPanel.h"
#include "views/ExplainPanel.h"
#include "views/LatencyView.h"
#include "views/PmuControls.h"
#include "views/PmuPages.h"
#include "views/TimelineView.h"
#include "views/TmaView.h"
#include "views/UnavailablePage.h"

#include <QAbstractItemModelTester>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {
AllocationState smallState()
{
    AllocationState s;
    CacheSchema l3;
    l3.name = "L3";
    l3.cbmLength = 11;
    l3.shareableBits = 0x600;
    l3.cacheBytes = 11u << 20;
    l3.ways = 11;
    s.caches = { l3 };
    s.domains = { 0 };
    GroupAllocation def;
    def.cbm["L3"][0] = 0x7ff;
    GroupAllocation streamer;
    streamer.group = "streamer";
    streamer.cbm["L3"][0] = 0x3;
    s.groups = { def, streamer };
    s.writable = false;
    s.readOnlyReason = "test state";
    s.simulated = true;
    return s;
}

rdt::RdtSampleBatch batch(std::uint64_t t)
{
    rdt::RdtSampleBatch b;
    b.timeNs = t;
    rdt::RdtSample s;
    s.timeNs = t;
    s.group = "streamer";
    s.occupancyBytes = 2u << 20;
    s.mbmTotalBps = 8e9;
    s.mbmLocalBps = 8e9;
    b.samples = { s };
    return b;
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void buildsWithMenusAndPages()
    {
        MainWindow w;
        QVERIFY(w.windowTitle().contains(QStringLiteral("no data source")));
        QStringList menus;
        for (QAction* a : w.menuBar()->actions())
            menus << a->text().remove(QLatin1Char('&'));
        QCOMPARE(menus,
            (QStringList { QStringLiteral("File"), QStringLiteral("Edit"), QStringLiteral("View"),
                QStringLiteral("Lessons"), QStringLiteral("Help") }));
        QStringList fileActions;
        for (QAction* a : w.menuBar()->actions().at(0)->menu()->actions())
            fileActions << a->text().remove(QLatin1Char('&'));
        for (const char* needed : { "Open session", "Open perf.data", "Record", "screenshot", "Quit" })
            QVERIFY2(!fileActions.filter(QString::fromLatin1(needed), Qt::CaseInsensitive).isEmpty(), needed);
        const auto fileMenuActions = w.menuBar()->actions().at(0)->menu()->actions();
        bool perfEnabled = false; // the PMU pages (PmuPages) import perf.data files
        for (QAction* a : fileMenuActions) {
            if (a->text().contains(QStringLiteral("perf.data"))) perfEnabled = a->isEnabled();
        }
        QVERIFY(perfEnabled);
        for (const QString& view : { QStringLiteral("machine"), QStringLiteral("rdt"), QStringLiteral("tma"),
                 QStringLiteral("callgraph"), QStringLiteral("latency"), QStringLiteral("experiments") }) {
            QVERIFY(w.showView(view));
            QCOMPARE(w.currentView(), view);
        }
        QVERIFY(!w.showView(QStringLiteral("flamegraph")));
        // The call-graph page's tabs: --view flame (topdown, bottomup) opens that page on that tab.
        QVERIFY(w.showView(QStringLiteral("flame")));
        QCOMPARE(w.currentView(), QStringLiteral("callgraph"));
        auto* stacks = w.findChild<CallStacksPage*>();
        QVERIFY(stacks);
        QCOMPARE(stacks->tabs()->currentIndex(), int(CallStacksPage::FlameTab));
        QVERIFY(w.showView(QStringLiteral("bottomup")));
        QCOMPARE(stacks->tabs()->currentIndex(), int(CallStacksPage::BottomUpTab));
        QVERIFY(w.findChild<CoreAssignmentPanel*>()); // the Cores dock beside the Monitor
        // Turning to a page shows its concept in the Explain panel, and every page's concept has a text.
        auto* explain = w.findChild<ExplainPanel*>();
        QVERIFY(explain);
        const std::pair<const char*, const char*> pageConcepts[]
            = { { "tma", "tma" }, { "callgraph", "lbr" }, { "latency", "load-latency" },
                  { "machine", "cpuid-enumeration" }, { "rdt", "cat" }, { "experiments", "cat" } };
        for (const auto& [view, conceptId] : pageConcepts) {
            QVERIFY(w.showView(QString::fromLatin1(view)));
            QCOMPARE(explain->currentConcept(), QString::fromLatin1(conceptId));
            QVERIFY2(!ExplainPanel::conceptText(explain->currentConcept()).isEmpty(), conceptId);
        }
        // The PMU pages are the real views now, not placeholders.
        QCOMPARE(w.findChildren<UnavailablePage*>().size(), 0);
        QVERIFY(w.findChild<TmaView*>());
        QVERIFY(w.findChild<CallGraphView*>());
        QVERIFY(w.findChild<LatencyView*>());
        w.setSourceError(QStringLiteral("no RDT here"));
        QVERIFY(w.sourceStatusText().contains(QStringLiteral("no RDT here")));
    }

    // `--source sim` used to start the simulated PMU at once: a whole core busy with nobody looking at a PMU page
    // (issue #16 item 6). It now starts when a PMU page is first shown; a PMU --view still starts it at once.
    void simulatedPmuStartsWhenAPmuPageIsShown()
    {
        MainWindow w;
        QVERIFY(w.showView(QStringLiteral("rdt")));
        QVERIFY(w.pmuPages()->startFromOptions({}, QStringLiteral("sim"), false));
        QVERIFY(!w.pmuPages()->simulating());
        QVERIFY(w.pmuPages()->startPending());
        QVERIFY(w.showView(QStringLiteral("machine")));
        QVERIFY(!w.pmuPages()->simulating());
        QVERIFY(w.showView(QStringLiteral("tma")));
        QVERIFY(!w.pmuPages()->startPending());
        QTRY_VERIFY_WITH_TIMEOUT(w.pmuPages()->simulating(), 5000);

        MainWindow viewAsked;
        QVERIFY(viewAsked.pmuPages()->startFromOptions({}, QStringLiteral("sim"), true));
        QVERIFY(!viewAsked.pmuPages()->startPending());
        QTRY_VERIFY_WITH_TIMEOUT(viewAsked.pmuPages()->simulating(), 5000);
    }

    void machineModelFromThisMachine()
    {
        MainWindow w;
        auto machine = describeMachine();
        QVERIFY(machine.ok());
        QVERIFY(!machine->rows.isEmpty());
        QAbstractItemModelTester tester(w.machineModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.setMachine(machine.value());
        QVERIFY(w.machineModel()->rowCount() >= 3);
    }

    // A hybrid dump's Machine page lists each core type with its own counters (leaf 23H), as `info` does.
    void machineModelOfAHybridDumpListsItsCoreTypes()
    {
        auto machine = describeMachine(QStringLiteral(RDTSCOPE_TEST_DATA "/cpuid/written/hybrid-2p-2e.txt"));
        QVERIFY2(machine.ok(), machine.ok() ? "" : machine.error().toString().c_str());
        int coreTypes = 0;
        for (const auto& row : machine->rows)
            if (row.group == QStringLiteral("Core types")) ++coreTypes;
        QCOMPARE(coreTypes, 2); // P-core and E-core
    }

    void sourceDrivesTitleStatusAndModels()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAbstractItemModelTester monitorTester(
            w.monitorModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester allocationTester(
            w.allocationModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        SourceBundle bundle;
        auto feed = std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Simulated, "sim:noisy-neighbour",
            "auto: resctrl not mounted; using the simulated machine", {}, {} });
        QueuedFeed* raw = feed.get();
        bundle.feed = std::move(feed);
        bundle.readAllocation = [] { return rdt::Result<AllocationState>(smallState()); };
        w.setSource(std::move(bundle));
        QVERIFY(w.windowTitle().contains(QStringLiteral("Simulated")));
        QVERIFY(w.sourceStatusText().contains(QStringLiteral("resctrl not mounted")));
        QCOMPARE(w.allocationModel()->rowCount(), 2);

        for (int i = 0; i < 20; ++i)
            raw->push(batch(std::uint64_t(i) * 100'000'000));
        w.pump()->pumpOnce();
        QCOMPARE(w.monitorModel()->rowCount(), 1);
        QVERIFY(w.timelines()->plottedPoints(QStringLiteral("streamer"), Metric::BandwidthTotal) > 0);
        const int row = w.allocationModel()->rowFor(QStringLiteral("streamer"), QStringLiteral("L3"));
        QVERIFY(row >= 0);
        QCOMPARE(w.allocationModel()->index(row, 0).data(AllocationModel::OccupancyBytesRole).toULongLong(),
            quint64(2u << 20));

        // A new source replaces the old one: new generation, title follows.
        SourceBundle replay;
        replay.feed = std::make_unique<QueuedFeed>(
            SourceDescription { SourceKind::Replay, "replay:run.rdts", "opened", {}, {} });
        w.setSource(std::move(replay));
        QVERIFY(w.windowTitle().contains(QStringLiteral("Replay")));
        QCOMPARE(w.monitorModel()->rowCount(), 0);
    }

    void recordThenReplay()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.rdts"));
        {
            MainWindow w;
            QString error;
            QVERIFY(!w.startRecording(path, &error)); // no source yet
            QVERIFY(error.contains(QStringLiteral("nothing to record")));
            // A feed without an engine (as a replay's) has nothing a session could describe: refused, with why.
            SourceBundle bundle;
            bundle.feed
                = std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Simulated, "sim:test", "test", {}, {} });
            w.setSource(std::move(bundle));
            QVERIFY(!w.startRecording(path, &error));
            QVERIFY2(error.contains(QStringLiteral("engine")), qPrintable(error));
            // The simulated machine's engine: the recording holds its samples, the GUI's allocation edit and the
            // scenario's markers, on the engine's clock from the start of the recording (as the CLI's record).
            auto sim = openEngineSource("sim", "noisy-neighbour", 10.0);
            QVERIFY2(sim.ok(), sim.ok() ? "" : sim.error().toString().c_str());
            w.setSource(std::move(sim.value()));
            QVERIFY2(w.startRecording(path, &error), qPrintable(error));
            QVERIFY(w.isRecording());
            QVERIFY(w.windowTitle().contains(QStringLiteral("recording")));
            QVERIFY(w.allocationModel()->isEditable());
            QTRY_VERIFY_WITH_TIMEOUT(
                w.timelines()->plottedPoints(QStringLiteral("victim"), Metric::Occupancy) >= 12, 15000);
            QVERIFY2(w.stopRecording(&error), qPrintable(error));
            QVERIFY(!w.isRecording());
        }
        MainWindow w;
        QSignalSpy opened(&w, &MainWindow::sessionOpened);
        w.openSession(dir.filePath(QStringLiteral("missing.rdts")));
        QVERIFY(opened.wait(10000));
        QCOMPARE(opened.last().at(0).toBool(), false);
        w.openSession(path);
        QVERIFY(opened.wait(10000));
        QVERIFY2(opened.last().at(0).toBool(), qPrintable(opened.last().at(1).toString()));
        QVERIFY(w.windowTitle().contains(QStringLiteral("Replay")));
        QVERIFY(w.sourceStatusText().contains(QStringLiteral("SIMULATED")));
        QCOMPARE(w.currentView(), QStringLiteral("rdt"));
        // Playing at 1x: the recorded second and more arrive within a few frames of wall time.
        QTRY_VERIFY_WITH_TIMEOUT(w.timelines()->plottedPoints(QStringLiteral("victim"), Metric::Occupancy) >= 8, 10000);
        // What the GUI recorded is described as the CLI's record describes its sessions.
        auto reader = rdt::session::SessionReader::open(path.toStdString());
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().toString().c_str());
        const auto& meta = reader.value()->meta();
        QCOMPARE(meta.source, std::string("sim:noisy-neighbour"));
        QCOMPARE(meta.scenario, std::string("noisy-neighbour"));
        QVERIFY(meta.simulated && meta.timeIsSimulated);
        QVERIFY2(meta.intervalNs == 100'000'000, std::to_string(meta.intervalNs).c_str()); // the GUI's 10 Hz
        bool scenarioMarker = false;
        for (const auto& m : reader.value()->markers())
            scenarioMarker = scenarioMarker || m.kind == "scenario";
        QVERIFY(scenarioMarker); // the scenario's set-up commands, at 0 s
    }

    // A session recorded from the GUI holds what the CLI's recorder holds (issue #16 item 3): the simulated
    // machine's CPUID and RDT resources (not "CPUID instruction (live)" of this host) and the initial allocation
    // of every group, so replay starts from the state that was in force.
    void guiRecordingHoldsTheMachineAndTheInitialState()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sim.rdts"));
        {
            auto bundle = openEngineSource("sim", "noisy-neighbour", 10.0);
            QVERIFY2(bundle.ok(), bundle.ok() ? "" : bundle.error().toString().c_str());
            MainWindow w;
            w.setSource(std::move(bundle.value()));
            QString error;
            QVERIFY2(w.startRecording(path, &error), qPrintable(error));
            QTest::qWait(600);
            w.pump()->pumpOnce();
            QVERIFY2(w.stopRecording(&error), qPrintable(error));
        }
        auto reader = rdt::session::SessionReader::open(path.toStdString());
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().toString().c_str());
        const auto& machine = reader.value()->machine();
        QVERIFY2(machine.cpuidJson.find("rdtscope-cpuid") != std::string::npos, machine.cpuidJson.c_str());
        QVERIFY2(machine.topology.find("L3: ") != std::string::npos, machine.topology.c_str());
        QVERIFY2(machine.description.find("Xeon") != std::string::npos, machine.description.c_str());
        std::size_t initial = 0;
        bool victim = false;
        for (const auto& a : reader.value()->allocations()) {
            if (a.who != "initial") continue;
            ++initial;
            victim = victim || (a.group == "victim" && a.resource == "L3");
        }
        QVERIFY2(initial >= 3, qPrintable(QString::number(initial)));
        QVERIFY(victim);
    }

    // The simulated PMU is the simulated CPU's (issue #16 item 5): the default scenario's Skylake-SP machine gets
    // a Skylake-SP PMU (TMA from generic counters, level 1), not Sapphire Rapids' slots; a running simulation
    // restarts with it.
    void simulatedPmuMatchesTheSimulatedCpu()
    {
        MainWindow w;
        QVERIFY(w.pmuPages()->startFromOptions({}, QStringLiteral("sim"), true));
        QTRY_VERIFY_WITH_TIMEOUT(w.pmuPages()->simulating(), 5000);
        QCOMPARE(w.pmuPages()->controls()->simulatedCpu().pfmName, std::string("spr")); // no machine known yet
        auto bundle = openEngineSource("sim", "noisy-neighbour", 10.0);
        QVERIFY2(bundle.ok(), bundle.ok() ? "" : bundle.error().toString().c_str());
        w.setSource(std::move(bundle.value()));
        QCOMPARE(w.pmuPages()->controls()->simulatedCpu().pfmName, std::string("skx"));
        QTRY_VERIFY_WITH_TIMEOUT(w.pmuPages()->simulating(), 5000);
        QVERIFY2(w.pmuPages()->session()->sourceLabel().contains(QStringLiteral("Skylake-SP-class")),
            qPrintable(w.pmuPages()->session()->sourceLabel()));
        // The TMA axis is the capture's wall time: one interval per 250 ms timer step, 0.25 s apart on the axis
        // (a simulated clock of 2 GHz put them 10 ms apart: 0.175 s after 5 s).
        QTRY_VERIFY_WITH_TIMEOUT(w.pmuPages()->session()->data().tma.size() >= 3, 10000);
        const auto& tma = w.pmuPages()->session()->data().tma;
        const double step
            = static_cast<double>(tma.back().time - tma.front().time) / 1e9 / static_cast<double>(tma.size() - 1);
        QVERIFY2(std::abs(step - 0.25) < 0.01, qPrintable(QStringLiteral("%1 s per interval").arg(step)));
    }

    void screenshotIsWindowSized()
    {
        MainWindow w;
        w.resize(1000, 700);
        QTemporaryDir dir;
        QString error;
        QVERIFY(w.saveScreenshot(dir.filePath(QStringLiteral("w.png")), &error));
        // The window may refuse to be smaller than its docks need; the PNG is exactly what is shown.
        QCOMPARE(QImage(dir.filePath(QStringLiteral("w.png"))).size(), w.size());
        QVERIFY(w.width() >= 1000);
        QVERIFY(!w.saveScreenshot(QStringLiteral("/nonexistent-dir/w.png"), &error));
        QVERIFY(error.contains(QStringLiteral("nonexistent-dir")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
