// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuPages.h"

#include "models/FramePump.h"
#include "models/PmuImport.h"
#include "models/PmuSession.h"
#include "views/CallGraphView.h"
#include "views/CallStacksPage.h"
#include "views/LatencyView.h"
#include "views/PmuControls.h"
#include "views/TimelineView.h"
#include "views/TmaView.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QTabWidget>

#include <optional>

PmuPages::PmuPages(QMainWindow* window, QTabWidget* pages, int firstIndex, QAction* openPerfData)
    : QObject(window)
    , m_session(new PmuSession(this))
    , m_tma(new TmaView(m_session, pages))
    , m_graph(new CallGraphView(m_session, pages))
    , m_stacks(new CallStacksPage(m_session, m_graph, pages))
    , m_latency(new LatencyView(m_session, pages))
    , m_controls(new PmuControls(m_session, window))
    , m_dock(new QDockWidget(tr("PMU capture"), window))
{
    QWidget* const ours[] = { m_tma, m_stacks, m_latency };
    for (int i = 0; i < 3; ++i) {
        const QString title = pages->tabText(firstIndex + i);
        QWidget* old = pages->widget(firstIndex + i);
        pages->removeTab(firstIndex + i);
        pages->insertTab(firstIndex + i, ours[i], title);
        delete old; // the placeholder page, no longer in the tab widget
    }
    m_dock->setObjectName(QStringLiteral("pmuDock"));
    m_dock->setWidget(m_controls);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    auto showDock = [this, pages, firstIndex](int current) {
        const bool pmuPage = current >= firstIndex && current < firstIndex + 3;
        m_dock->setVisible(pmuPage);
        if (pmuPage && m_startWhenShown) {
            m_startWhenShown = false;
            m_controls->start();
        }
    };
    connect(pages, &QTabWidget::currentChanged, this, showDock);
    showDock(pages->currentIndex());
    if (openPerfData) {
        openPerfData->setEnabled(true);
        openPerfData->setToolTip(tr("Import a perf.data file (LBR, load latency) into the PMU views"));
        openPerfData->setStatusTip(openPerfData->toolTip());
        connect(openPerfData, &QAction::triggered, m_controls, &PmuControls::openPerfDataDialog);
    }
    connect(m_session, &PmuSession::importFinished, this, [pages, firstIndex, this](bool ok, const QString&) {
        // An imported file shows its content: the call graph when it has branch stacks, the top-down tree when it
        // has only callchains, else load latency.
        if (!ok) return;
        const auto& data = m_session->data();
        const bool graphTab = m_stacks->tabs()->currentIndex() == CallStacksPage::GraphTab; // not chosen otherwise
        if (graphTab && data.branches.empty() && !data.stacks.empty()) m_stacks->showTab(CallStacksPage::TopDownTab);
        if (pages->currentIndex() < firstIndex || pages->currentIndex() >= firstIndex + 3)
            pages->setCurrentIndex(firstIndex + (data.branches.empty() && data.stacks.empty() ? 2 : 1));
    });
}

bool PmuPages::simulating() const
{
    return m_session->simulating();
}

void PmuPages::linkTimeline(TimelineView* timeline, FramePump* pump)
{
    // One time base: the PMU pages count seconds as the timelines do (the engine's clock placed by the pump).
    m_session->setWindowClock([pump](std::uint64_t mono) { return pump->secondsOfMonotonic(mono); });
    connect(timeline, &TimelineView::rangeSelected, this, [this, pump](double from, double to) {
        const auto a = pump->monotonicNsOf(from), b = pump->monotonicNsOf(to);
        if (a && b) {
            m_session->setTimelineRange(*a, *b);
            return;
        }
        m_session->rejectTimelineRange(pump->source().kind == SourceKind::Replay
                ? tr("The timeline's range does not apply to the PMU views: the timeline replays a recording, whose "
                     "clock is the recorded session's, not this host's. The PMU views stay unfiltered.")
                : tr("The timeline's range does not apply to the PMU views: the timeline has no samples yet."));
    });
    connect(timeline, &TimelineView::rangeCleared, m_session, &PmuSession::clearTimelineRange);
    // The other way: a range dragged on the TMA plot shows on the timeline as a grey band, when the clocks relate.
    connect(
        m_session, &PmuSession::timeRangeChanged, timeline, [this, timeline, pump](double from, double to, bool on) {
            std::optional<double> a, b;
            if (on && !m_session->timeRangeFromTimeline() && m_session->onWindowClock()) {
                a = from; // one time base: the TMA plot's seconds are the timelines'
                b = to;
            } else if (on && !m_session->timeRangeFromTimeline()) {
                const auto toTimeline = [this, pump](double seconds) -> std::optional<double> {
                    const auto ns = m_session->dataTimeOfSeconds(seconds);
                    const auto mono = ns ? m_session->monotonicOfDataTime(*ns) : std::nullopt;
                    return mono ? pump->secondsOfMonotonic(*mono) : std::nullopt;
                };
                a = toTimeline(from);
                b = toTimeline(to);
            }
            timeline->showLinkedRange(a.value_or(0), b.value_or(0), a && b);
        });
}

bool PmuPages::startFromOptions(const QString& openFile, const QString& source, bool pmuViewRequested)
{
    if (!openFile.isEmpty()) {
        if (!rdt::pmu::looksLikePerfData(openFile.toStdString())) return false;
        m_controls->openPerfData(openFile);
        return true;
    }
    if (source == QLatin1String("live")) {
        m_controls->setMachine(PmuControls::Machine::Live);
        if (pmuViewRequested) m_controls->start(); // shows the advice when the PMU is not available
        return true;
    }
    if (source == QLatin1String("sim") || (source == QLatin1String("auto") && pmuViewRequested)) {
        m_controls->setMachine(PmuControls::Machine::Simulated);
        if (pmuViewRequested)
            m_controls->start();
        else
            m_startWhenShown = true; // nobody looks at the PMU pages yet: no simulated PMU burning a core
    }
    return true;
}
