// SPDX-License-Identifier: GPL-3.0-or-later
#include "MainWindow.h"
#include "ColourSchemeMenu.h"
#include "ConnectionBanner.h"
#include "EditMenu.h"
#include "LessonController.h"
#include "PanelFocus.h"
#include "PmuAgentConnection.h"
#include "RecentConnections.h"
#include "RecentFiles.h"
#include "RecentFilesMenu.h"
#include "ShortcutsHelp.h"
#include "SourceFactory.h"
#include "SourceSwitchDialog.h"
#include "StartPage.h"
#include "protocol/AgentUrl.h"
#include "simpmu/SimPmuModel.h"

#include "EngineSource.h"
#include "SessionRecording.h"

#include "lesson/LessonRun.h"
#include "models/AllocationModel.h"
#include "models/BlameRun.h"
#include "models/CoreAssignmentSource.h"
#include "models/ExperimentRun.h"
#include "models/FramePump.h"
#include "models/GroupModel.h"
#include "models/MachineDescription.h"
#include "models/MachineModel.h"
#include "models/MonitorModel.h"
#include "models/MonitorTreeModel.h"
#include "models/PmuSession.h"
#include "views/CacheWayHeatmap.h"
#include "views/CallStacksPage.h"
#include "views/CoreAssignmentPanel.h"
#include "views/ExperimentsPage.h"
#include "views/ExplainPanel.h"
#include "views/FittingSplitter.h"
#include "views/GroupsPanel.h"
#include "views/InterferencePage.h"
#include "views/MachinePanel.h"
#include "views/MbaEditor.h"
#include "views/MonitorPanel.h"
#include "views/PmuControls.h"
#include "views/PmuPages.h"
#include "views/ReplayBar.h"
#include "views/TelemetryTimeline.h"
#include "views/TimelineView.h"

#include "views/CompareWindow.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPixmap>
#include <QProcess>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>
#include <algorithm>

namespace {
constexpr int kAllocationReadEveryFrames = 15; // re-read schemata twice a second at 30 Hz

struct PageInfo {
    const char* id;
    const char* title;
    const char* explainConcept; ///< what the Explain panel shows when the user turns to the page
};
constexpr PageInfo kPages[] = { { "machine", "Machine", "cpuid-enumeration" }, { "rdt", "Cache && bandwidth", "cat" },
    { "tma", "TMA", "tma" }, { "callgraph", "Call stacks", "lbr" }, { "latency", "Load latency", "load-latency" },
    { "experiments", "Experiments", "cat" }, { "interference", "Interference", "llc-occupancy" } };

/// A page in a scroll area: on a small screen (1280x720) the page scrolls instead of widening the window past the
/// screen or clipping its controls; above its minimum size it fills the tab as before.
QScrollArea* scrollable(QWidget* page)
{
    auto* area = new QScrollArea;
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

/// Hides those of `docks` that are shown (not hidden by the user or until needed, also before the window shows) and
/// returns them, for showDocksAgain().
QList<QDockWidget*> hideShownDocks(const QList<QDockWidget*>& docks)
{
    QList<QDockWidget*> hidden;
    for (auto* dock : docks) {
        if (dock->isHidden()) continue;
        hidden << dock;
        dock->hide();
    }
    return hidden;
}

void showDocksAgain(QList<QDockWidget*>& hidden)
{
    for (auto* dock : std::as_const(hidden))
        dock->show();
    hidden.clear();
}

QString kindText(SourceKind kind)
{
    switch (kind) {
    case SourceKind::Live:
        return QObject::tr("Live");
    case SourceKind::Simulated:
        return QObject::tr("Simulated");
    case SourceKind::Replay:
        return QObject::tr("Replay");
    case SourceKind::None:
        break;
    }
    return QObject::tr("No data source");
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_pump(new FramePump(this))
    , m_undoStack(new QUndoStack(this))
    , m_machineModel(new MachineModel(this))
    , m_groupModel(new GroupModel(this))
    , m_monitorModel(new MonitorModel(this))
    , m_allocationModel(new AllocationModel(this))
    , m_central(new QStackedWidget(this))
    , m_startPage(new StartPage(this))
    , m_pages(new QTabWidget(this))
    , m_machinePanel(new MachinePanel(m_machineModel, this))
    , m_timelines(new TimelineView(m_pump, this))
    , m_heatmap(new CacheWayHeatmap(this))
    , m_groupsPanel(new GroupsPanel(m_groupModel, this))
    , m_explain(new ExplainPanel(this))
    , m_monitorTree(new MonitorTreeModel(this))
    , m_monitorPanel(new MonitorPanel(m_monitorTree, this))
    , m_replayBar(new ReplayBar(this))
    , m_sourceLabel(new ElidedLabel(this))
    , m_frameLabel(new QLabel(this))
    , m_recording(new SessionRecording(this))
{
    setWindowIcon(QIcon(QStringLiteral(":/icons/rdtscope.svg")));
    resize(m_layout.defaultSize());

    // The RDT dashboard: heatmap above, timelines below, replay bar on top when replaying.
    m_allocationModel->setUndoStack(m_undoStack); // before the editors connect to the model's stack
    m_heatmap->setModel(m_allocationModel);
    m_heatmap->setUndoShortcutsEnabled(false); // the Edit menu's Undo/Redo carry Ctrl+Z window-wide
    auto* dashboard = new QWidget(this);
    auto* dashLayout = new QVBoxLayout(dashboard);
    dashLayout->setContentsMargins(0, 0, 0, 0);
    m_connectionBanner = new ConnectionBanner(dashboard);
    dashLayout->addWidget(m_connectionBanner);
    dashLayout->addWidget(m_replayBar);
    auto* split = new QSplitter(Qt::Vertical, dashboard);
    split->setObjectName(QStringLiteral("dashboardSplit"));
    // Heatmap and MBA editor side by side (heatmap helper's widgets), timelines below.
    auto* allocation = new FittingSplitter(split); // side by side, or stacked on a narrow screen
    allocation->setObjectName(QStringLiteral("allocationSplit"));
    allocation->addWidget(m_heatmap);
    m_mba = new MbaEditor(allocation);
    m_mba->setModel(m_allocationModel);
    allocation->addWidget(m_mba);
    // The MB editor keeps the width its domains need; the heatmap takes the rest (and wraps its domain panels).
    allocation->setStretchFactor(0, 1);
    allocation->setStretchFactor(1, 0);
    allocation->setCollapsible(1, false);
    split->addWidget(allocation);
    split->addWidget(m_timelines);
    // PERF_PKG_MON power per group below the timelines; hidden until a telemetry batch arrives.
    m_telemetry = new TelemetryTimeline(m_pump, m_timelines, split);
    split->addWidget(m_telemetry);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    dashLayout->addWidget(split, 1);

    m_pages->addTab(m_machinePanel, tr(kPages[0].title));
    m_pages->addTab(scrollable(dashboard), tr(kPages[1].title));
    for (int i = 2; i < 5; ++i) // PmuPages puts its three views in these slots once the docks exist
        m_pages->addTab(new QWidget(this), tr(kPages[i].title));
    m_experimentRun = new ExperimentRun(this);
    m_experiments = new ExperimentsPage(m_experimentRun, m_allocationModel, this);
    m_pages->addTab(scrollable(m_experiments), tr(kPages[5].title));
    m_blameRun = new BlameRun(this);
    m_interference = new InterferencePage(m_blameRun, this);
    m_pages->addTab(scrollable(m_interference), tr(kPages[6].title));
    // Blame polls and drains the engine itself too.
    connect(m_blameRun, &BlameRun::started, m_pump, &FramePump::stop);
    connect(m_blameRun, &BlameRun::finished, this, [this] {
        if (m_pump->feed()) m_pump->start();
        refreshAllocation();
    });
    // An experiment polls and drains the engine itself: the frame pump waits until it has ended.
    connect(m_experimentRun, &ExperimentRun::started, m_pump, &FramePump::stop);
    connect(m_experimentRun, &ExperimentRun::finished, this, [this] {
        if (m_pump->feed()) m_pump->start();
        refreshAllocation();
    });
    m_central->addWidget(scrollable(m_startPage));
    m_central->addWidget(m_pages);
    m_central->setCurrentWidget(m_pages);
    setCentralWidget(m_central);

    buildDocks();
    buildMenus();
    m_pmu = new PmuPages(this, m_pages, 2, m_openPerfAction); // replaces the three PMU placeholder tabs
    m_pmuAgent = new PmuAgentConnection(m_pmu->session(), this);
    connect(m_pmuAgent, &PmuAgentConnection::finished, this, [this](bool ok, const QString& message) {
        statusBar()->showMessage(ok ? tr("PMU pages: captures run on the agent at %1").arg(message)
                                    : tr("PMU pages: cannot reach the agent: %1").arg(message),
            ok ? 5000 : 15000);
        Q_EMIT pmuConnectFinished(ok, message);
    });
    // A live capture that kept its own engine across a change to the simulator hands over once it stops.
    connect(m_pmu->session(), &PmuSession::simulationChanged, this, [this](bool running) {
        if (!running) QTimer::singleShot(0, this, &MainWindow::sharePmuEngine);
    });
    // A perf.data file imported by any route (File > Open perf.data, --open, Open Recent) joins the recent files.
    connect(m_pmu->session(), &PmuSession::importFinished, this, [this](bool ok, const QString&) {
        if (ok) m_recent->openedFile(m_pmu->session()->importedFile());
    });
    connect(this, &MainWindow::sessionOpened, this, [this](bool ok, const QString&) {
        if (ok) m_recent->openedFile(m_sessionPath);
    });
    addDockActions();
    m_lessons = new LessonController(this, m_viewMenu, m_docksEnd);
    // Tab walks the panels as they read on screen: the Groups dock, then the dashboard top to bottom (heatmap, MB
    // table, timelines), then the Monitor and Explain docks.
    m_panelFocus = std::make_unique<PanelFocus>(
        QList<QWidget*> { m_groupsPanel, m_heatmap, m_mba, m_timelines, m_monitorPanel, m_explain });
    m_panelFocus->setupTabOrder(this);
    connectStartPage();
    m_pmu->linkTimeline(m_timelines, m_pump); // a range selected on the timeline filters the PMU views
    statusBar()->addWidget(m_sourceLabel, 1);
    statusBar()->addPermanentWidget(m_frameLabel);
    m_sourceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    connect(m_connectionBanner, &ConnectionBanner::reconnectRequested, this, [this] {
        if (!m_connectedOptions.connect.isEmpty()) connectTo(m_connectedOptions);
    });
    connect(m_pump, &FramePump::frame, this, &MainWindow::onFrame);
    // Blame's polls, writes and scenario steps reach the recording through the engine's event tap; its findings
    // (phases, probes, ranking, containment) are markers the run hands over.
    connect(m_blameRun, &BlameRun::marker, m_recording, &SessionRecording::marker);
    connect(m_pump, &FramePump::sourceChanged, this, [this] { updateTitle(); });
    connect(m_pump, &FramePump::seriesReset, m_monitorModel, &MonitorModel::clear);
    connect(m_pump, &FramePump::seriesReset, m_monitorTree, &MonitorTreeModel::clear);
    connect(m_machinePanel, &MachinePanel::capabilitySelected, m_explain, &ExplainPanel::showCapability);
    connect(m_timelines, &TimelineView::explainRequested, m_explain, &ExplainPanel::showConcept);
    // The Explain panel follows what the user's hand is on: a heatmap cell, an MB cell, a timeline series.
    connect(m_heatmap, &CacheWayHeatmap::explainRequested, m_explain, &ExplainPanel::showConcept);
    connect(m_mba, &MbaEditor::explainRequested, m_explain, &ExplainPanel::showConcept);
    connect(m_pages, &QTabWidget::currentChanged, this, [this](int i) { // the Explain panel follows the page
        if (i >= 0 && i < static_cast<int>(std::size(kPages)))
            m_explain->showConcept(QString::fromLatin1(kPages[i].explainConcept));
    });
    connect(m_replayBar, &ReplayBar::seeked, this, [this] {
        m_pump->resetSeries();
        refreshAllocation();
    });
    connect(m_allocationModel, &AllocationModel::editRejected, this,
        [this](int, const QString& message) { statusBar()->showMessage(tr("Edit rejected: %1").arg(message), 8000); });
    updateTitle();
}

MainWindow::~MainWindow()
{
    // The feed and the adapters point into the engine objects the bundle keeps alive: stop and drop them first.
    m_pump->stop();
    m_pump->setFeed(nullptr);
    stopLesson();
    // The PMU pages' capture may run on the source's engine, which goes with m_source before the pages do.
    if (m_source.liveEngine && m_pmu->session()->engine() == m_source.liveEngine) m_pmu->session()->setEngine(nullptr);
    m_heatmap->setModel(nullptr);
    m_mba->setModel(nullptr);
    m_allocationModel->setWriter(nullptr);
    m_groupsPanel->setControl(nullptr);
    m_replayBar->setControl(nullptr);
}

void MainWindow::buildDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* content, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(content);
        addDockWidget(area, d);
        return d;
    };
    // Minimum widths: a wide central view (four L3 domains side by side) must not squeeze the docks until the
    // Explain text wraps one word per line and the Monitor shows only its first column; the central view scrolls.
    // An explicit minimum replaces the layout's: never below what the panel's button row needs.
    m_groupsPanel->setMinimumWidth(std::max(300, m_groupsPanel->minimumSizeHint().width()));
    m_monitorPanel->setMinimumWidth(300);
    m_explain->setMinimumWidth(260);
    dock(tr("Groups"), QStringLiteral("groupsDock"), m_groupsPanel, Qt::LeftDockWidgetArea);
    auto* monitor = dock(tr("Monitor"), QStringLiteral("monitorDock"), m_monitorPanel, Qt::LeftDockWidgetArea);
    // Beside it, what pqos -s prints: cores -> CLOS/RMID, classes -> masks, from the current source's engine.
    auto* cores = new CoreAssignmentSource([this] { return m_source.liveEngine; }, this);
    tabifyDockWidget(monitor,
        dock(tr("Cores"), QStringLiteral("coresDock"), new CoreAssignmentPanel(cores, this), Qt::LeftDockWidgetArea));
    monitor->raise();
    auto* explain = dock(tr("Explain"), QStringLiteral("explainDock"), m_explain, Qt::RightDockWidgetArea);
    auto* history = new QUndoView(m_undoStack, this);
    history->setEmptyLabel(tr("(allocation as found)"));
    history->setAccessibleName(tr("Allocation edit history"));
    history->setToolTip(tr("Every applied allocation edit; select an entry to go back to it (writes the masks)"));
    m_historyDock = dock(tr("History"), QStringLiteral("historyDock"), history, Qt::RightDockWidgetArea);
    tabifyDockWidget(explain, m_historyDock);
    explain->raise();
    // Dock sizes only stick once the window is laid out: apply them on the first event-loop turn.
    m_layout.captureDefaults(); // what View > Reset layout goes back to (before any saved state is restored)
    QTimer::singleShot(0, this, [this] { m_layout.applyDefaultDockSizes(); });
    connect(m_monitorPanel, &MonitorPanel::explainRequested, m_explain, &ExplainPanel::showConcept);
}

void MainWindow::switchSource(const AppOptions& options)
{
    statusBar()->showMessage(tr("Opening %1\u2026").arg(options.source));
    // A simulator or a tree opens in a moment, a live source may probe hardware: never on the GUI thread. The
    // window's one job tracker: a newer open (a session, a connection, another switch) makes this one stale.
    AppOptions request = options;
    request.openFile.clear();
    request.connect.clear();
    m_jobs.startJob([request] { return std::make_shared<rdt::Result<SourceBundle>>(openSource(request)); },
        [this, request](std::shared_ptr<rdt::Result<SourceBundle>> result) {
            if (!result->ok()) {
                const QString why = QString::fromStdString(result->error().toString());
                statusBar()->showMessage(tr("Source not switched: %1").arg(why), 15000);
                Q_EMIT sourceSwitched(false, why);
                return;
            }
            setSource(std::move(result->value()));
            // File > Connect... and the next switch start from the source now shown.
            m_startOptions.source = request.source;
            m_startOptions.preset = request.preset;
            m_startOptions.scenario = request.scenario;
            m_sessionPath.clear();
            showView(QStringLiteral("rdt"));
            statusBar()->clearMessage();
            Q_EMIT sourceSwitched(true, QString::fromStdString(m_pump->source().name));
        });
}

void MainWindow::openSession(const QString& path)
{
    statusBar()->showMessage(tr("Opening %1\u2026").arg(path));
    m_jobs.startJob([path] { return std::make_shared<rdt::Result<SourceBundle>>(openReplaySource(path)); },
        [this, path](std::shared_ptr<rdt::Result<SourceBundle>> result) {
            if (!result->ok()) {
                const QString why = QString::fromStdString(result->error().toString());
                statusBar()->showMessage(tr("Cannot open %1: %2").arg(path, why), 10000);
                Q_EMIT sessionOpened(false, why);
                return;
            }
            (void)stopRecording();
            setSource(std::move(result->value()));
            m_sessionPath = path;
            showView(QStringLiteral("rdt"));
            statusBar()->clearMessage();
            Q_EMIT sessionOpened(true, path);
        });
}

CompareWindow* MainWindow::compareWith(const QString& pathA, const QString& pathB)
{
    if (!m_compare) {
        m_compare = new CompareWindow(this);
        m_compare->setAttribute(Qt::WA_DeleteOnClose);
        m_compare->setWindowFlag(Qt::Window);
    }
    m_compare->open(pathA, pathB);
    m_compare->show();
    m_compare->raise();
    return m_compare;
}

bool MainWindow::startRecording(const QString& path, QString* error)
{
    const auto status = m_recording->start(path, m_source.liveEngine);
    if (!status) {
        if (error) *error = QString::fromStdString(status.error().toString());
        return false;
    }
    m_recordAction->setChecked(true);
    updateTitle();
    return true;
}

bool MainWindow::stopRecording(QString* error)
{
    const bool was = m_recording->isRecording();
    const QString path = m_recording->path();
    const auto status = m_recording->stop();
    m_recordAction->setChecked(false);
    updateTitle();
    if (!status) {
        if (error) *error = QString::fromStdString(status.error().toString());
        return false;
    }
    if (was) statusBar()->showMessage(tr("Recorded to %1").arg(path), 8000);
    return true;
}

bool MainWindow::isRecording() const
{
    return m_recording->isRecording();
}

void MainWindow::setMachine(const MachineDescription& machine)
{
    m_hostMachine = machine;
    m_startPage->setHostStatus(machine.rdtWhyNot);
    showMachine(m_source.remoteMachine && m_startOptions.cpuidDump.isEmpty() ? *m_source.remoteMachine : machine);
}

void MainWindow::showMachine(const MachineDescription& machine)
{
    m_machineModel->setRows(machine.rows);
    m_machineSummary = machine.cpuidSource;
    QString summary = tr("CPUID from: %1").arg(machine.cpuidSource);
    if (!machine.rdtWhyNot.isEmpty())
        summary += QStringLiteral("\n") + tr("RDT on this machine: %1").arg(machine.rdtWhyNot);
    m_machinePanel->setSummary(summary);
}

void MainWindow::setSource(SourceBundle bundle)
{
    (void)stopRecording(); // a recording belongs to the source it started with
    stopLesson(); // so does a lesson (startLesson starts its run after this)
    m_pump->stop();
    m_pump->setFeed(nullptr);
    m_allocationModel->setWriter(nullptr);
    m_groupsPanel->setControl(nullptr);
    m_replayBar->setControl(nullptr);
    m_experimentRun->stop();
    m_blameRun->stopAndWait(); // its probes restore on the old engine before it goes
    // The PMU pages let go of the old source's engine before it goes (sharePmuEngine gives them the new one).
    if (m_source.liveEngine && m_pmu->session()->engine() == m_source.liveEngine) m_pmu->session()->setEngine(nullptr);
    m_source = std::move(bundle);
    m_experimentRun->setEngine(m_source.experimentEngine);
    m_experiments->refreshGroups();
    m_blameRun->setEngine(m_source.experimentEngine);
    m_interference->refreshGroups();
    m_sourceError.clear();
    m_connectionBanner->hide();
    // Edits of the previous source cannot be undone on this one; and on real hardware a drag only stages (Apply
    // writes) until the user turns "Apply live" on, while the simulator writes live.
    m_undoStack->clear();
    m_allocationModel->revert();
    m_allocationModel->setApplyLive(m_source.feed && m_source.feed->description().kind == SourceKind::Simulated);
    m_pump->setFeed(std::move(m_source.feed));
    m_allocationModel->setWriter(m_source.writer.get());
    m_groupsPanel->setControl(m_source.groups.get(), m_source.readOnlyReason);
    m_replayBar->setControl(m_source.replay.get());
    // Connected to an agent or replaying a session: the Machine page describes the agent's or the recording's
    // machine (a --cpuid-dump asked for stays); any other source, this host again.
    if (m_startOptions.cpuidDump.isEmpty())
        showMachine(m_source.remoteMachine ? *m_source.remoteMachine : m_hostMachine);
    refreshAllocation();
    updateTitle();
    // The CPU the source measures, as its engine decoded it (the simulated one for the simulator): AMD's texts on an
    // AMD machine, and the simulated PMU paired with the simulated CPU (Skylake-SP's TMA formula, not Sapphire
    // Rapids' slots).
    const rdt::api::MachineReport* machine = m_source.machine ? &*m_source.machine : nullptr;
    const bool cpuKnown = machine && machine->cpu.known;
    // AMD's texts where the source is AMD's: the simulated CPU says so for the simulator; for resctrl (a live machine
    // or a copy of a tree, whose CPU need not be this host's) AMD's bandwidth unit, 1/8 GB/s, does.
    bool amd = m_pump->source().kind == SourceKind::Simulated && cpuKnown && machine->cpu.isAmd();
    for (const auto& b : m_allocationModel->state().bandwidths) // as refreshAllocation() read it above
        amd = amd || b.unit == "GB/s";
    m_explain->setVendorVariant(amd ? QStringLiteral("amd") : QString());
    if (m_pump->source().kind == SourceKind::Simulated) {
        sharePmuEngine();
        m_explain->showConcept(QStringLiteral("simulated")); // say up front what the numbers are
        if (cpuKnown)
            m_pmu->controls()->setSimulatedCpu({ machine->pmu.simulatedPmuName, machine->pmu.simulatedPmuLabel });
    }
    m_pump->start();
    m_timelines->setNotMeasured(QString::fromStdString(m_pump->source().notMeasured));
    leaveDocument();
    showPages(); // the window is about this source now
}

void MainWindow::sharePmuEngine()
{
    // Simulated captures run on the simulated machine's engine, so a program can run in one of its groups. Only for
    // a local simulator: a connected source's PMU pages have an agent connection of their own (usePmuEngineAt).
    if (!m_source.liveEngine || m_pump->source().kind != SourceKind::Simulated || !m_pump->source().host.empty())
        return;
    PmuSession* pmu = m_pmu->session();
    if (pmu->engine() == m_source.liveEngine) return;
    if (pmu->simulating() && (pmu->live() || pmu->followedCapture())) return; // it keeps its engine until it stops
    const bool restart = pmu->simulating(); // a simulated capture goes on, on the simulated machine's engine
    pmu->setEngine(std::shared_ptr<rdt::engine::Engine>(std::shared_ptr<void>(), m_source.liveEngine));
    if (restart) (void)m_pmu->controls()->start();
}

void MainWindow::setSourceError(const QString& reason)
{
    m_sourceError = reason;
    updateTitle();
}

void MainWindow::refreshAllocation()
{
    m_framesSinceAllocationRead = 0;
    m_monitorPanel->setCounterStatus(
        m_source.counterStatus ? QString::fromStdString(m_source.counterStatus()) : QString());
    if (!m_source.readAllocation) return;
    auto state = m_source.readAllocation();
    if (!state) {
        statusBar()->showMessage(
            tr("Cannot read the allocation: %1").arg(QString::fromStdString(state.error().toString())), 8000);
        return;
    }
    if (!m_source.readOnlyReason.isEmpty()) {
        state.value().writable = false;
        state.value().readOnlyReason = m_source.readOnlyReason.toStdString();
    }
    m_allocationModel->setState(state.value());
    // A simulated program may run in a control group when the PMU pages capture on this simulated machine's engine.
    QStringList groups;
    const bool sameEngine = m_source.liveEngine && m_pmu->session()->engine() == m_source.liveEngine;
    if (sameEngine && state.value().simulated)
        for (const auto& g : state.value().groups)
            if (!g.group.empty()) groups << QString::fromStdString(g.group);
    m_pmu->controls()->setCatGroups(groups);
}

void MainWindow::onFrame(const FrameUpdate& update)
{
    if (update.generation != m_pump->generation()) return; // a frame of a source that was replaced meanwhile
    if (!update.latest.samples.empty()) {
        m_monitorModel->update(update.latest);
        m_monitorTree->update(update.latest);
        std::map<std::string, std::map<int, std::uint64_t>> occupancy;
        for (const auto& s : update.latest.samples) {
            occupancy[s.group][s.domain] = s.occupancyBytes;
            m_groupModel->observeGroup(s.group);
        }
        m_allocationModel->setOccupancy(occupancy);
    }
    if (!update.connectionLost.empty()) {
        const QString where = QString::fromStdString(m_pump->source().host);
        m_connectionBanner->showLost(
            where.isEmpty() ? tr("the engine") : where, QString::fromStdString(update.connectionLost));
        showView(QStringLiteral("rdt"));
    }
    for (const auto& change : update.changes)
        m_allocationModel->applyChange(change);
    if (!update.changes.empty() || ++m_framesSinceAllocationRead >= kAllocationReadEveryFrames) refreshAllocation();
    m_replayBar->syncPosition();
    QString frameText = tr("t = %1 s \u00b7 %2 groups \u00b7 %3 dropped")
                            .arg(update.now, 0, 'f', 1)
                            .arg(m_pump->store().groupCount())
                            .arg(update.dropped);
    if (m_recording->isRecording())
        frameText = tr("\u25cf REC %1 samples \u00b7 ").arg(m_recording->committedSamples()) + frameText;
    m_frameLabel->setText(frameText);
}

QString MainWindow::sourceStatusText() const
{
    return m_sourceLabel->fullText();
}

void MainWindow::updateTitle()
{
    const SourceDescription src = m_pump->source();
    const QString kind = kindText(src.kind);
    if (src.kind == SourceKind::None && !m_document.isEmpty() && !startPageShown()) {
        m_recordAction->setEnabled(false);
        setWindowTitle(tr("rdtscope \u2014 %1").arg(m_document));
        m_sourceLabel->setFullText(
            tr("%1 \u2014 no RDT source (File > Switch source opens one beside the file)").arg(m_document));
        return;
    }
    if (src.kind == SourceKind::None && startPageShown() && m_sourceError.isEmpty()) {
        m_recordAction->setEnabled(false);
        setWindowTitle(tr("rdtscope"));
        m_sourceLabel->setFullText(tr("Choose what to look at: this machine, a simulated one, a tree, an agent, "
                                      "a file or a lesson."));
        return;
    }
    if (src.kind == SourceKind::None) {
        m_recordAction->setEnabled(false);
        setWindowTitle(tr("rdtscope \u2014 no data source"));
        m_sourceLabel->setFullText(
            m_sourceError.isEmpty() ? tr("No data source.") : tr("No data source: %1").arg(m_sourceError));
        return;
    }
    // A connected source names its host in the title and the status bar: edits there change another machine.
    const QString host = src.host.empty() ? QString() : tr(" on %1").arg(QString::fromStdString(src.host));
    setWindowTitle(tr("rdtscope \u2014 %1: %2").arg(kind, QString::fromStdString(src.name)) + host
        + (m_recording->isRecording() ? tr(" \u2014 recording") : QString()));
    m_recordAction->setEnabled(src.kind == SourceKind::Live || src.kind == SourceKind::Simulated);
    QString text = kind + QStringLiteral(": ") + QString::fromStdString(src.name) + host;
    if (!src.reason.empty()) text += QStringLiteral(" \u2014 ") + QString::fromStdString(src.reason);
    m_sourceLabel->setFullText(text);
}

bool MainWindow::showView(const QString& name)
{
    // The call-stack page's trees and flame graph: that page, on that tab.
    constexpr std::pair<const char*, CallStacksPage::Tab> stackTabs[] = { { "topdown", CallStacksPage::TopDownTab },
        { "bottomup", CallStacksPage::BottomUpTab }, { "flame", CallStacksPage::FlameTab } };
    for (const auto& [id, tab] : stackTabs)
        if (name == QLatin1String(id)) {
            m_pmu->callStacksPage()->showTab(tab);
            return showView(QStringLiteral("callgraph"));
        }
    for (int i = 0; i < static_cast<int>(std::size(kPages)); ++i) {
        if (name == QLatin1String(kPages[i].id)) {
            showPages();
            m_pages->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

QString MainWindow::currentView() const
{
    const int i = m_pages->currentIndex();
    return i >= 0 && i < static_cast<int>(std::size(kPages)) ? QString::fromLatin1(kPages[i].id) : QString();
}

bool MainWindow::saveScreenshot(const QString& path, QString* error)
{
    if (!isVisible()) show();
    const QPixmap pixmap = grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
        if (error)
            *error = tr("Could not write the screenshot %1: check that the folder exists and is writable.").arg(path);
        return false;
    }
    return true;
}

// --- delegations to the window's parts ---

LessonPanel* MainWindow::lessonPanel() const
{
    return m_lessons->panel();
}

const rdt::lesson::LessonRun* MainWindow::lessonRun() const
{
    return m_lessons->run();
}

bool MainWindow::startLesson(const QString& nameOrPath, QString* error)
{
    return m_lessons->start(nameOrPath, error);
}

void MainWindow::stopLesson()
{
    if (m_lessons) m_lessons->stop();
}

void MainWindow::setEventTap(std::function<void(const rdt::engine::EngineEvent&)> tap)
{
    if (m_source.setEventTap) m_source.setEventTap(std::move(tap));
}

QList<QWidget*> MainWindow::focusPanels() const
{
    return m_panelFocus->panels();
}

QWidget* MainWindow::focusNextPanel(bool forward)
{
    return m_panelFocus->focusNext(forward);
}

void MainWindow::resetLayout()
{
    m_layout.reset();
}

bool MainWindow::restoreLayout()
{
    return m_layout.restore();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_layout.save();
    QMainWindow::closeEvent(event);
}

void MainWindow::setRememberRecentFiles(bool on)
{
    m_recent->setRemember(on);
}

void MainWindow::openRecent(const QString& path)
{
    if (!QFileInfo(path).isFile()) {
        statusBar()->showMessage(tr("Cannot open %1: it no longer exists").arg(path), 10000);
        return;
    }
    if (!m_pmu->startFromOptions(path, QString(), false)) openSession(path);
}

// --- connections to an agent ---

QStringList MainWindow::recentConnections()
{
    return RecentConnections::list();
}

QString MainWindow::connectionBannerText() const
{
    return m_connectionBanner ? m_connectionBanner->text() : QString();
}

void MainWindow::connectTo(const AppOptions& options)
{
    statusBar()->showMessage(tr("Connecting to %1\u2026").arg(options.connect));
    // ssh may take seconds (or ask for nothing and time out): never on the GUI thread. The window's one job
    // tracker: a session opened meanwhile makes this connection stale, and the other way round.
    m_jobs.startJob([options] { return std::make_shared<rdt::Result<SourceBundle>>(openConnectedSource(options)); },
        [this, options](std::shared_ptr<rdt::Result<SourceBundle>> result) {
            if (!result->ok()) {
                const QString why = QString::fromStdString(result->error().toString());
                statusBar()->showMessage(tr("Cannot connect: %1").arg(why), 15000);
                Q_EMIT connectFinished(false, why);
                return;
            }
            setSource(std::move(result->value()));
            m_connectedOptions = options;
            usePmuEngineAt(options);
            m_connectionBanner->hide();
            RecentConnections::remember(options.connect);
            showView(QStringLiteral("rdt"));
            statusBar()->clearMessage();
            Q_EMIT connectFinished(true, options.connect);
        });
}

void MainWindow::usePmuEngineAt(const AppOptions& options)
{
    m_pmuAgent->open(options);
}

void MainWindow::showConnectDialog()
{
    QStringList recent = recentConnections();
    if (recent.isEmpty()) recent << QStringLiteral("ssh://root@") << QStringLiteral("local");
    bool ok = false;
    const QString url = QInputDialog::getItem(this, tr("Connect to an agent"),
        tr("rdtscope-agent at (ssh://[USER@]HOST[:PORT], unix:PATH, or local for this machine through pkexec).\n"
           "The source (%1) runs there; the GUI stays unprivileged.")
            .arg(m_startOptions.source),
        recent, 0, /*editable=*/true, &ok)
                            .trimmed();
    if (!ok || url.isEmpty()) return;
    if (auto parsed = rdt::protocol::parseAgentUrl(url.toStdString()); !parsed) {
        statusBar()->showMessage(
            tr("Not an agent address: %1").arg(QString::fromStdString(parsed.error().toString())), 10000);
        return;
    }
    AppOptions options = m_startOptions;
    options.openFile.clear();
    options.connect = url;
    if (url != m_startOptions.connect) options.agentPath.clear(); // --agent named the path on another host
    connectTo(options);
}

// --- menus ---

void MainWindow::buildMenus()
{
    buildFileMenu();
    m_editMenu = new EditMenu(
        menuBar(), m_undoStack, m_allocationModel, m_historyDock, [this] { return m_source.liveEngine; }, this);
    connect(m_editMenu, &EditMenu::cdpRequested, this, &MainWindow::setCdp);
    buildViewMenu();
    buildHelpMenu();
}

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newWindow = file->addAction(tr("&New window"), this, [] { (void)MainWindow::openNewWindow(); });
    newWindow->setObjectName(QStringLiteral("newWindow"));
    newWindow->setShortcut(QKeySequence::New);
    newWindow->setToolTip(tr("Another window, on its start page: each window is about one source or file"));
    QAction* open = file->addAction(tr("&Open session\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open session"), QString(), tr("rdtscope sessions (*.rdts *.sqlite *.db);;All files (*)"));
        if (!path.isEmpty()) openSession(path);
    });
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Replay a session recorded by rdtscope or rdtscope-cli record"));
    m_openPerfAction = file->addAction(tr("Open &perf.data\u2026")); // enabled by PmuPages
    m_openPerfAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction* openDump = m_openCpuidDumpAction = file->addAction(tr("Open CP&UID dump\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open CPUID dump"), QString(), tr("CPUID dumps (*.txt *.json);;All files (*)"));
        QString why;
        if (!path.isEmpty() && !openCpuidDump(path, &why))
            QMessageBox::warning(
                this, tr("Open CPUID dump"), tr("%1 does not read as a CPUID dump: %2").arg(path, why));
    });
    openDump->setObjectName(QStringLiteral("openCpuidDump"));
    openDump->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U)); // U as in CPUID
    openDump->setToolTip(tr("Describe another CPU from a CPUID dump (AIDA64/InstLatx64 text, cpuid -r, rdtscope "
                            "JSON): a window about that CPU's Machine page"));
    QAction* switchAction = file->addAction(tr("S&witch source\u2026"), this, [this] {
        SourceSwitchDialog dialog(m_startOptions, this);
        if (dialog.exec() == QDialog::Accepted) switchSource(dialog.chosen());
    });
    switchAction->setObjectName(QStringLiteral("switchSource"));
    switchAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W)); // W for "where from"
    switchAction->setToolTip(tr("Show another source in this window: a simulated machine (preset and scenario), "
                                "this machine live, or a resctrl tree"));
    QAction* start = file->addAction(tr("Star&t page"), this, &MainWindow::showStartPage);
    start->setObjectName(QStringLiteral("startPage"));
    start->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H)); // H for home
    start->setToolTip(tr("Everything this window can show: this machine, a simulated one, a tree, an agent, a file, "
                         "a lesson"));
    m_recent = new RecentFilesMenu(file, this);
    connect(m_recent, &RecentFilesMenu::openRequested, this, &MainWindow::openRecent);
    QAction* connectAction = file->addAction(tr("Co&nnect to agent\u2026"), this, &MainWindow::showConnectDialog);
    connectAction->setToolTip(tr("Run the source on rdtscope-agent on a server (ssh) or on this machine (pkexec)"));
    connectAction->setShortcut(
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N)); // not Ctrl+K: text fields delete to the line end
    QAction* compare = file->addAction(tr("&Compare with\u2026"), this, [this] {
        const QString filter
            = tr("Sessions and perf.data files (*.rdts *.sqlite *.db *.data *.perfdata);;All files (*)");
        QString a = m_sessionPath;
        if (a.isEmpty()) a = QFileDialog::getOpenFileName(this, tr("Compare: choose A (before)"), QString(), filter);
        if (a.isEmpty()) return;
        const QString b = QFileDialog::getOpenFileName(this, tr("Compare %1 with B (after)").arg(a), QString(), filter);
        if (!b.isEmpty()) compareWith(a, b);
    });
    compare->setToolTip(tr("Compare the open session (or a file) with another session or perf.data file"));
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D)); // D for diff
    m_openPerfAction->setEnabled(false);
    m_recordAction = file->addAction(tr("&Record\u2026"));
    m_recordAction->setCheckable(true);
    m_recordAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_recordAction->setToolTip(tr("Record what the current source shows into a session file"));
    connect(m_recordAction, &QAction::triggered, this, [this](bool on) {
        QString error;
        if (on) {
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Record to"), QStringLiteral("session.rdts"), tr("rdtscope sessions (*.rdts)"));
            if (path.isEmpty() || !startRecording(path, &error)) {
                m_recordAction->setChecked(false);
                if (!error.isEmpty()) QMessageBox::warning(this, tr("Record"), error);
            }
        } else if (!stopRecording(&error)) {
            QMessageBox::warning(this, tr("Record"), error);
        }
    });
    file->addSeparator();
    QAction* screenshot = file->addAction(tr("Save &screenshot\u2026"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save screenshot"), QStringLiteral("rdtscope.png"), tr("PNG image (*.png)"));
        QString error;
        if (!path.isEmpty() && !saveScreenshot(path, &error)) QMessageBox::warning(this, tr("Screenshot"), error);
    });
    screenshot->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)); // the window saved as an image
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcuts(QKeySequence::Quit);
    if (quit->shortcut().isEmpty()) quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q)); // themes without one
    for (QAction* a : file->actions())
        a->setStatusTip(a->toolTip());
    file->setToolTipsVisible(true);
}

void MainWindow::buildViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_pages->count(); ++i) {
        QAction* a = view->addAction(m_pages->tabText(i), this, [this, i] { m_pages->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
    view->addSeparator();
    m_viewMenu = view; // addDockActions() puts the docks' toggles here once PmuPages has added its dock
    QAction* reset = view->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);
    reset->setToolTip(tr("Put the docks, splitters and window size back to the defaults"));
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_docksEnd = reset;
    view->addSeparator();
    QAction* follow = view->addAction(tr("&Follow newest data"));
    follow->setCheckable(true);
    follow->setChecked(m_timelines->follow());
    connect(follow, &QAction::toggled, m_timelines, &TimelineView::setFollow);
    follow->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    connect(m_timelines, &TimelineView::followChanged, follow, &QAction::setChecked);
    view->addSeparator();
    QAction* next = view->addAction(tr("&Next panel"), this, [this] { focusNextPanel(true); });
    next->setShortcut(QKeySequence(Qt::Key_F6));
    next->setToolTip(tr("Move the keyboard focus to the next panel (Groups, heatmap, MB table, timelines, Monitor)"));
    QAction* previous = view->addAction(tr("&Previous panel"), this, [this] { focusNextPanel(false); });
    previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F6));
    previous->setToolTip(tr("Move the keyboard focus to the previous panel"));
    addColourSchemeMenu(view);
    for (QAction* a : view->actions())
        if (a->statusTip().isEmpty()) a->setStatusTip(a->toolTip());
}

void MainWindow::buildHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard shortcuts"), this, [this] { showShortcutsHelp(this, menuBar()); });
    keys->setShortcuts(QKeySequence::HelpContents);
    if (keys->shortcut().isEmpty()) keys->setShortcut(QKeySequence(Qt::Key_F1));
    QAction* about = help->addAction(tr("&About rdtscope"), this, [this] {
        QMessageBox::about(this, tr("About rdtscope"),
            tr("<h3>rdtscope %1</h3><p>How processes share the last-level cache and memory bandwidth of an Intel "
               "CPU (Resource Director Technology), live, recorded or on a simulated Xeon.</p>"
               "<p>Licence: GPL-3.0-or-later. Plots: QCustomPlot.</p>")
                .arg(QApplication::applicationVersion()));
    });
    about->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
}

void MainWindow::addDockActions()
{
    // Every dock can be shown and hidden from the View menu, each with its own key.
    int dockKey = 0;
    for (auto* dock : findChildren<QDockWidget*>()) {
        QAction* toggle = dock->toggleViewAction();
        if (toggle->shortcut().isEmpty()) // the History dock already has Ctrl+H from the Edit menu
            toggle->setShortcut(QKeySequence(Qt::ALT | Qt::SHIFT | static_cast<Qt::Key>(Qt::Key_1 + dockKey++)));
        m_viewMenu->insertAction(m_docksEnd, toggle);
    }
}

bool MainWindow::setCdp(bool on)
{
    rdt::engine::Engine* engine = m_source.liveEngine;
    if (!engine) return false;
    const auto r = engine->setCdp(on);
    if (!r.ok) {
        m_editMenu->cdpAction()->setChecked(!on);
        statusBar()->showMessage(tr("CDP not switched: %1").arg(QString::fromStdString(r.toString())));
        return false;
    }
    // The remount reset every mask: staged edits and the undo history refer to masks that are gone.
    m_undoStack->clear();
    m_allocationModel->revert();
    refreshAllocation();
    statusBar()->showMessage(QString::fromStdString(r.notes.empty() ? std::string() : r.notes.front()));
    return true;
}

// --- the start page ---

void MainWindow::showStartPage()
{
    if (startPageShown()) return;
    m_startPage->refreshRecent();
    // One thing at a time: the docks describe a source, and there is none to describe on the start page.
    m_docksHiddenByStartPage = hideShownDocks(findChildren<QDockWidget*>());
    m_central->setCurrentIndex(0);
    updateTitle();
}

bool MainWindow::startPageShown() const
{
    return m_central->currentIndex() == 0;
}

void MainWindow::showPages()
{
    if (!startPageShown()) return;
    m_central->setCurrentWidget(m_pages);
    showDocksAgain(m_docksHiddenByStartPage);
    // Explain and History share a tab: shown again, the last one shown would be on top; Explain is, as at start.
    if (auto* explain = findChild<QDockWidget*>(QStringLiteral("explainDock")); explain && explain->isVisible())
        explain->raise();
    updateTitle();
}

void MainWindow::connectStartPage()
{
    connect(m_startPage, &StartPage::sourceChosen, this, [this](const AppOptions& chosen) {
        AppOptions options = m_startOptions;
        options.source = chosen.source;
        options.preset = chosen.preset;
        options.scenario = chosen.scenario;
        switchSource(options);
    });
    connect(m_startPage, &StartPage::connectRequested, this, [this](const QString& url) {
        if (url.isEmpty()) {
            showConnectDialog();
            return;
        }
        AppOptions options = m_startOptions;
        options.openFile.clear();
        options.connect = url;
        connectTo(options);
    });
    connect(m_startPage, &StartPage::openSessionRequested, this, [this](const QString& given) {
        const QString path = given.isEmpty() ? QFileDialog::getOpenFileName(this, tr("Open a recording"), QString(),
                                 tr("rdtscope sessions (*.rdts *.sqlite *.db);;All files (*)"))
                                             : given;
        if (!path.isEmpty()) openSession(path);
    });
    connect(m_startPage, &StartPage::openPerfDataRequested, m_openPerfAction, &QAction::trigger);
    connect(m_startPage, &StartPage::openCpuidDumpRequested, m_openCpuidDumpAction, &QAction::trigger);
    connect(m_startPage, &StartPage::openRecentRequested, this, &MainWindow::openRecent);
    connect(m_startPage, &StartPage::lessonRequested, this, [this](const QString& name) {
        QString why;
        if (!startLesson(name, &why)) statusBar()->showMessage(tr("Lesson not started: %1").arg(why), 15000);
    });
    // A perf.data file opened from the start page: the window is about that file, on its call graph.
    // A perf.data file opened without an RDT source (the start page, --open alone): the window is about that file.
    connect(m_pmu->session(), &PmuSession::importFinished, this, [this](bool ok, const QString&) {
        if (!ok || m_pump->source().kind != SourceKind::None) return;
        showDocument(tr("perf.data %1").arg(QFileInfo(m_pmu->session()->importedFile()).fileName()));
        if (startPageShown()) showView(QStringLiteral("callgraph"));
    });
}

// --- a window about one file ---

void MainWindow::showDocument(const QString& what, DocumentKind kind)
{
    if (m_document.isEmpty()) {
        // The RDT pages and docks describe a source, the PMU capture dock starts live captures; the file has neither.
        // The Explain dock stays: it explains.
        QList<QDockWidget*> docks;
        for (const char* name : { "groupsDock", "monitorDock", "coresDock", "historyDock", "pmuDock" })
            if (auto* dock = findChild<QDockWidget*>(QString::fromLatin1(name))) docks << dock;
        m_docksHiddenByDocument = hideShownDocks(docks);
    }
    // A perf.data file has PMU pages; a CPUID dump describes a CPU and has its Machine page only.
    for (int page = 0; page < static_cast<int>(std::size(kPages)); ++page) {
        const QLatin1String id(kPages[page].id);
        const bool pmuPage
            = id == QLatin1String("tma") || id == QLatin1String("callgraph") || id == QLatin1String("latency");
        const bool shown = id == QLatin1String("machine") || (kind == DocumentKind::PerfData && pmuPage);
        m_pages->setTabVisible(page, shown);
    }
    m_document = what;
    m_documentKind = kind;
    updateTitle();
}

bool MainWindow::openNewWindow(const QStringList& arguments)
{
    // A window is one process: its own source, engine and recording; closing one never stops another.
    return QProcess::startDetached(QCoreApplication::applicationFilePath(), arguments);
}

bool MainWindow::openCpuidDump(const QString& path, QString* why)
{
    auto machine = describeMachine(path);
    if (!machine) {
        if (why) *why = QString::fromStdString(machine.error().toString());
        return false;
    }
    // One window, one thing: a window showing a source keeps it, and the dump gets a window of its own.
    if (m_pump->source().kind != SourceKind::None || !m_document.isEmpty()) {
        if (!openNewWindow({ QStringLiteral("--cpuid-dump"), path })) {
            if (why) *why = tr("a new window could not be started");
            return false;
        }
        return true;
    }
    m_startOptions.cpuidDump = path;
    showMachine(machine.value());
    showDocument(tr("CPUID dump %1").arg(QFileInfo(path).fileName()), DocumentKind::CpuidDump);
    showView(QStringLiteral("machine"));
    return true;
}

void MainWindow::leaveDocument()
{
    if (m_document.isEmpty()) return;
    m_document.clear();
    if (m_documentKind == DocumentKind::CpuidDump) { // the Machine page describes the source's machine again
        m_startOptions.cpuidDump.clear();
        showMachine(m_source.remoteMachine ? *m_source.remoteMachine : m_hostMachine);
    }
    showDocksAgain(m_docksHiddenByDocument);
    for (int page = 0; page < static_cast<int>(std::size(kPages)); ++page)
        m_pages->setTabVisible(page, true);
}
