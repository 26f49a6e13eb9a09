// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The PMU half of the main window in one place, so MainWindow needs one call: the TMA, call-stack (branch call
// graph, top-down and bottom-up trees, flame graph) and load-latency pages (replacing the placeholder tabs), the "PMU
// capture" dock (shown on those pages only) and File > Open perf.data, all sharing one PmuSession.

#include <QObject>
#include <QString>

class CallGraphView;
class CallStacksPage;
class FramePump;
class TimelineView;
class LatencyView;
class PmuControls;
class PmuSession;
class QAction;
class QDockWidget;
class QMainWindow;
class QTabWidget;
class TmaView;

class PmuPages : public QObject {
    Q_OBJECT
public:
    /// Replaces tabs firstIndex .. firstIndex+2 of `pages` with TMA, call graph and load latency; adds the dock;
    /// enables `openPerfData` (may be null) to import a file.
    PmuPages(QMainWindow* window, QTabWidget* pages, int firstIndex, QAction* openPerfData);

    /// What to show at start: --open FILE when it is a perf.data file; else with --source sim (or auto when a PMU
    /// view was asked for) the simulated PMU; --source live shows the live check's advice. Returns false when
    /// `openFile` was not a perf.data file (the RDT side handles it then). The simulated PMU costs most of a core,
    /// so with --source sim and no PMU view asked for it starts only when a PMU page is first shown.
    bool startFromOptions(const QString& openFile, const QString& source, bool pmuViewRequested);
    /// The simulated PMU is chosen and waits for a PMU page to be shown before it starts.
    bool startPending() const { return m_startWhenShown; }
    /// The simulated PMU is running.
    bool simulating() const;

    /// A range selected on the shared RDT timeline filters every PMU view: the timeline's seconds become this
    /// host's CLOCK_MONOTONIC through the frame pump (live RDT: exact; simulated machine: anchored to the wall
    /// clock), then the PMU data's clock (PmuSession::setTimelineRange). When either side cannot be related (a
    /// replayed recording, an imported perf.data) the PMU views stay unfiltered and say why.
    void linkTimeline(TimelineView* timeline, FramePump* pump);

    PmuSession* session() const { return m_session; }
    TmaView* tmaView() const { return m_tma; }
    CallGraphView* callGraphView() const { return m_graph; }
    CallStacksPage* callStacksPage() const { return m_stacks; }
    LatencyView* latencyView() const { return m_latency; }
    PmuControls* controls() const { return m_controls; }

private:
    PmuSession* m_session;
    TmaView* m_tma;
    CallGraphView* m_graph;
    CallStacksPage* m_stacks;
    LatencyView* m_latency;
    PmuControls* m_controls;
    QDockWidget* m_dock;
    bool m_startWhenShown = false;
};
