// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AppOptions.h"
#include "SourceBundle.h"
#include "WindowLayout.h"

#include "models/JobTracker.h"
#include "views/ElidedLabel.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>
#include <optional>

class AllocationModel;
class EditMenu;
class LessonController;
class PanelFocus;
class PmuAgentConnection;
class RecentFilesMenu;
class StartPage;
class QStackedWidget;
class CompareWindow;
class CacheWayHeatmap;
class ExperimentRun;
class ExperimentsPage;
class BlameRun;
class InterferencePage;
class ExplainPanel;
class FramePump;
class GroupModel;
class GroupsPanel;
class LessonPanel;
class MachineModel;
class MachinePanel;
class MbaEditor;
class MonitorModel;
class MonitorPanel;
class MonitorTreeModel;
class QAction;
class QLabel;
class QMenu;
class PmuPages;
class QTabWidget;
class QTableView;
class QUndoStack;
class QDockWidget;
class ReplayBar;
class SessionRecording;
class TelemetryTimeline;
class TimelineView;
struct FrameUpdate;
namespace rdt::lesson {
class LessonRun;
}
struct MachineDescription;

/// The main window, composed of its pages, docks, menus and status bar: pages (Machine, RDT dashboard, and the PMU
/// pages, which say they are not available yet), docks (Groups, Monitor, Explain), menus, a status bar naming the
/// source and why it was chosen, and a title saying Live, Simulated or Replay.
class ConnectionBanner;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// This host's description (or a --cpuid-dump's); an agent's source shows the agent's machine instead.
    void setMachine(const MachineDescription& machine);
    /// Where the Machine page's CPUID came from ("live CPUID ... on HOST (the agent's machine)" when connected).
    QString machineSummary() const { return m_machineSummary; }
    /// Takes over an opened source; the previous one is dropped (new frame-pump generation).
    void setSource(SourceBundle bundle);
    /// Shows the "no data" state with the reason (e.g. why no source could be opened).
    void setSourceError(const QString& reason);

    /// The start page (issue #47): what the window can be about, each opening it here. Shown when the command line
    /// names nothing and by File > Start page; the docks hide while it shows and come back with the pages.
    void showStartPage();
    bool startPageShown() const;
    /// The window is about one file and no RDT source (a perf.data file opened on its own): the title names it, the
    /// RDT pages and docks hide. Leaves when a source is set. `what` is "perf.data FILE".
    enum class DocumentKind { PerfData, CpuidDump };
    void showDocument(const QString& what, DocumentKind kind = DocumentKind::PerfData);
    /// The window about one CPUID dump (File > Open CPUID dump, the start page, --cpuid-dump without --source): its
    /// Machine page, no source. False with the reason when the dump does not read.
    bool openCpuidDump(const QString& path, QString* why = nullptr);
    /// File > New window: another rdtscope process with `arguments` (none: its start page).
    static bool openNewWindow(const QStringList& arguments = {});
    QString documentShown() const { return m_document; }
    StartPage* startPage() const { return m_startPage; }
    /// "machine", "rdt", "tma", "callgraph", "latency"; false for an unknown name. Leaves the start page.
    bool showView(const QString& name);
    QString currentView() const;

    /// File > Switch source: opens `options`' source (--source, --preset, --scenario; not --connect) in the
    /// background and, once it is open, the window shows it instead of the current one, without a restart. The
    /// current source keeps running until then, and stays when the new one cannot open (sourceSwitched says why).
    void switchSource(const AppOptions& options);
    /// Opens a recorded session in the background and replays it (a newer open makes an older one stale).
    void openSession(const QString& path);
    /// Sessions and perf.data files opened from now on join File > Open Recent (off for screenshots and tests).
    void setRememberRecentFiles(bool on);
    /// Opens a file of File > Open Recent: a perf.data file into the PMU pages, anything else as a session.
    void openRecent(const QString& path);
    /// Opens `options.source` on the agent at `options.connect` in the background; the URL joins the recent
    /// hosts. connectFinished() says how it went.
    void connectTo(const AppOptions& options);
    /// The options the window was started with: File > Connect... and Reconnect keep their source and scenario.
    void setStartOptions(const AppOptions& options)
    {
        m_startOptions = options;
        if (!options.connect.isEmpty()) {
            m_connectedOptions = options;
            usePmuEngineAt(options);
        }
    }
    /// Live PMU captures of the PMU pages run on the agent at options.connect (PmuAgentConnection); its status
    /// goes to the status bar, and pmuConnectFinished() says how it went.
    void usePmuEngineAt(const AppOptions& options);
    /// Recent agent URLs, newest first (QSettings "connect/recent").
    static QStringList recentConnections();
    QString connectionBannerText() const;
    /// File > Compare with...: a compare window of A and B (issue #20); A defaults to the session opened last.
    CompareWindow* compareWith(const QString& pathA, const QString& pathB);
    /// Starts / stops recording what the current source delivers. False with the reason in *error.
    bool startRecording(const QString& path, QString* error = nullptr);
    bool stopRecording(QString* error = nullptr);
    bool isRecording() const;

    /// Starts a lesson (a built-in name or a file, docs/LESSONS.md) on a fresh simulated machine running its
    /// scenario's set-up, and shows the Lessons panel on step one (LessonController). False with the reason.
    bool startLesson(const QString& nameOrPath, QString* error = nullptr);
    /// Ends the lesson: its PMU capture stops, the PMU pages let go of it, the Lessons panel empties.
    void stopLesson();
    /// Switches L3 CDP through the live engine (Edit menu): the simulator remounts its resctrl; a real source's
    /// refusal (with the mount command) goes to the status bar. False when it was not switched.
    bool setCdp(bool on);
    LessonPanel* lessonPanel() const;
    const rdt::lesson::LessonRun* lessonRun() const;
    /// The current source's engine when it is a live engine (null for a replay or no source).
    rdt::engine::Engine* liveEngine() const { return m_source.liveEngine; }
    /// Routes every event the frame pump drains to `tap` first (a lesson run); no-op for a source without events.
    void setEventTap(std::function<void(const rdt::engine::EngineEvent&)> tap);
    /// Reads the allocation picture again (heatmap, MB table, counter status) now.
    void refreshAllocation();

    /// Renders the window (offscreen too) into a PNG. False with the reason in *error.
    bool saveScreenshot(const QString& path, QString* error = nullptr);

    FramePump* pump() const { return m_pump; }
    TimelineView* timelines() const { return m_timelines; }
    TelemetryTimeline* telemetryTimeline() const { return m_telemetry; }
    MachineModel* machineModel() const { return m_machineModel; }
    MonitorModel* monitorModel() const { return m_monitorModel; }
    MonitorTreeModel* monitorTree() const { return m_monitorTree; }
    MonitorPanel* monitorPanel() const { return m_monitorPanel; }
    GroupsPanel* groupsPanel() const { return m_groupsPanel; }
    /// Puts docks, splitters and the window size back to the defaults (View > Reset layout).
    void resetLayout();
    /// Restores the window and dock state saved by the last run (QSettings); false when there is none.
    bool restoreLayout();
    GroupModel* groupModel() const { return m_groupModel; }
    AllocationModel* allocationModel() const { return m_allocationModel; }
    ExplainPanel* explainPanel() const { return m_explain; }
    QString sourceStatusText() const;
    PmuPages* pmuPages() const { return m_pmu; }
    ExperimentsPage* experimentsPage() const { return m_experiments; }
    InterferencePage* interferencePage() const { return m_interference; }
    QUndoStack* undoStack() const { return m_undoStack; }
    CacheWayHeatmap* heatmap() const { return m_heatmap; }
    MbaEditor* mbaEditor() const { return m_mba; }
    /// The panels in keyboard order (Tab, F6): Groups, heatmap, MB table, timelines, Monitor, Explain.
    QList<QWidget*> focusPanels() const;
    /// View > Next panel (F6) / Previous panel (Shift+F6): focus moves to the next visible panel's entry widget
    /// (the heatmap's grid, the MB table). Returns the panel that got the focus, or nullptr.
    QWidget* focusNextPanel(bool forward = true);

Q_SIGNALS:
    /// openSession() finished: ok, or the reason it failed.
    void sessionOpened(bool ok, const QString& message);
    void connectFinished(bool ok, const QString& message);
    /// switchSource() finished: ok with the new source's name, or the reason it did not open.
    void sourceSwitched(bool ok, const QString& message);
    /// The PMU pages' own connection to the agent (usePmuEngineAt) is open, or the reason it is not.
    void pmuConnectFinished(bool ok, const QString& message);

private:
    void buildMenus();
    void buildFileMenu();
    void buildViewMenu();
    void buildHelpMenu();
    void addDockActions();
    void buildDocks();
    void onFrame(const FrameUpdate& update);
    void updateTitle();
    void showConnectDialog();
    /// Gives the PMU pages the local simulated source's engine (when their capture allows: a live one keeps its own
    /// until it stops), so a simulated program can run in one of the machine's groups.
    void sharePmuEngine();
    void showMachine(const MachineDescription& machine);
    void showPages();
    void leaveDocument();
    void connectStartPage();
    void closeEvent(QCloseEvent* event) override;

    FramePump* m_pump;
    QUndoStack* m_undoStack; ///< the window's one history of allocation edits (Edit menu, History dock)
    MachineModel* m_machineModel;
    GroupModel* m_groupModel;
    MonitorModel* m_monitorModel;
    AllocationModel* m_allocationModel;
    QStackedWidget* m_central;
    StartPage* m_startPage;
    QTabWidget* m_pages;
    QAction* m_openCpuidDumpAction = nullptr;
    DocumentKind m_documentKind = DocumentKind::PerfData;
    QString m_document; ///< what showDocument() named; "" when the window shows a source or nothing
    QList<class QDockWidget*> m_docksHiddenByDocument;
    QList<class QDockWidget*> m_docksHiddenByStartPage; ///< visible when the start page came, shown again after it
    MachinePanel* m_machinePanel;
    TimelineView* m_timelines;
    TelemetryTimeline* m_telemetry = nullptr;
    CacheWayHeatmap* m_heatmap;
    MbaEditor* m_mba = nullptr;
    GroupsPanel* m_groupsPanel;
    ExplainPanel* m_explain;
    MonitorTreeModel* m_monitorTree;
    MonitorPanel* m_monitorPanel;
    ReplayBar* m_replayBar;
    ElidedLabel* m_sourceLabel; ///< what the data source is and why, elided before the frame counter
    QLabel* m_frameLabel;
    QAction* m_recordAction = nullptr;
    class QMenu* m_viewMenu = nullptr;
    QAction* m_docksEnd = nullptr; ///< the View menu entry the dock toggles go before
    QDockWidget* m_historyDock = nullptr;
    SessionRecording* m_recording;
    QString m_machineSummary;
    MachineDescription m_hostMachine; ///< this host (or --cpuid-dump), shown unless the source is an agent's
    JobTracker m_jobs { this };
    QAction* m_openPerfAction = nullptr;
    QString m_sessionPath; ///< the session opened last (A of File > Compare with...)
    QPointer<CompareWindow> m_compare;
    PmuPages* m_pmu = nullptr;
    ExperimentRun* m_experimentRun = nullptr;
    ExperimentsPage* m_experiments = nullptr;
    BlameRun* m_blameRun = nullptr;
    InterferencePage* m_interference = nullptr;
    SourceBundle m_source;
    AppOptions m_startOptions;
    AppOptions m_connectedOptions; ///< the last connection made, for Reconnect
    ConnectionBanner* m_connectionBanner = nullptr;
    QString m_sourceError;
    int m_framesSinceAllocationRead = 0;
    WindowLayout m_layout { this };
    RecentFilesMenu* m_recent = nullptr;
    PmuAgentConnection* m_pmuAgent = nullptr;
    EditMenu* m_editMenu = nullptr;
    LessonController* m_lessons = nullptr;
    std::unique_ptr<PanelFocus> m_panelFocus;
};
