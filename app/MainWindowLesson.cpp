// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's Lessons dock (issue #22, docs/LESSONS.md): starts a lesson on a fresh simulated machine, feeds the
// run the events the frame pump drains and the passing simulated time, and turns a step's "look at" into the page
// it names with its groups shown on the timeline.
#include "MainWindow.h"

#include "EngineSource.h"
#include "lesson/LessonParser.h"
#include "lesson/LessonRun.h"
#include "models/FramePump.h"
#include "models/PmuSession.h"
#include "views/ExplainPanel.h"
#include "views/LessonPanel.h"
#include "views/PmuPages.h"
#include "views/TimelineView.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QStatusBar>

void MainWindow::buildLessonDock()
{
    m_lessonPanel = new LessonPanel(this);
    m_lessonPanel->setMinimumWidth(300);
    m_lessonDock = new QDockWidget(tr("Lessons"), this);
    m_lessonDock->setObjectName(QStringLiteral("lessonDock"));
    m_lessonDock->setWidget(m_lessonPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_lessonDock);
    m_lessonDock->hide(); // until a lesson starts
    // Every menu action has a key of its own: take the first free ones.
    QSet<QKeySequence> used;
    for (QAction* a : findChildren<QAction*>())
        for (const QKeySequence& k : a->shortcuts())
            used.insert(k);
    auto freeKey = [&used](Qt::KeyboardModifiers modifiers, int index) {
        for (int i = index; i < 9; ++i) {
            const QKeySequence k(QKeyCombination(modifiers, static_cast<Qt::Key>(Qt::Key_1 + i)));
            if (!used.contains(k)) {
                used.insert(k);
                return k;
            }
        }
        return QKeySequence();
    };
    QAction* toggle = m_lessonDock->toggleViewAction();
    toggle->setShortcut(freeKey(Qt::AltModifier | Qt::ShiftModifier, 0));
    m_viewMenu->insertAction(m_docksEnd, toggle);

    // Before Help, which stays last as desktop conventions have it.
    auto* lessons = new QMenu(tr("&Lessons"), this);
    const auto bar = menuBar()->actions();
    menuBar()->insertMenu(bar.isEmpty() ? nullptr : bar.last(), lessons);
    for (const auto& name : rdt::lesson::builtinLessonNames()) {
        auto lesson = rdt::lesson::loadLesson(name);
        const QString title = lesson ? QString::fromStdString(lesson->title) : QString::fromStdString(name);
        QAction* a = lessons->addAction(title, this, [this, n = QString::fromStdString(name)] {
            QString why;
            if (!startLesson(n, &why)) statusBar()->showMessage(tr("Lesson not started: %1").arg(why));
        });
        a->setShortcut(freeKey(Qt::ControlModifier | Qt::AltModifier, 0));
        if (lesson) a->setToolTip(QString::fromStdString(lesson->conceptText));
    }

    connect(m_lessonPanel, &LessonPanel::explainRequested, m_explain, &ExplainPanel::showConcept);
    connect(m_lessonPanel, &LessonPanel::lookRequested, this, &MainWindow::lookAt);
    connect(m_lessonPanel, &LessonPanel::resetRequested, this, [this] {
        QString why;
        if (!startLesson(m_lessonSource, &why)) statusBar()->showMessage(tr("Lesson not reset: %1").arg(why));
    });
    connect(m_pump, &FramePump::frame, this, [this](const FrameUpdate&) { lessonFrame(); });
}

bool MainWindow::startLesson(const QString& nameOrPath, QString* error)
{
    auto lesson = rdt::lesson::loadLesson(nameOrPath.toStdString());
    if (!lesson) {
        if (error) *error = QString::fromStdString(lesson.error().toString());
        return false;
    }
    // The scenario's set-up only: the student performs the changes its timed steps would make.
    auto source = openEngineSource(lesson->rdtSource, lesson->scenario, 10.0, /*scenarioSetupOnly=*/true);
    if (!source) {
        if (error) *error = QString::fromStdString(source.error().toString());
        return false;
    }
    setSource(std::move(source.value()));
    rdt::engine::Engine* engine = m_source.liveEngine;
    m_lessonRun = std::make_unique<rdt::lesson::LessonRun>(std::move(lesson.value()));
    if (auto r = m_lessonRun->begin(*engine); !r.ok) {
        if (error) *error = QString::fromStdString(r.toString());
        stopLesson();
        return false;
    }
    // begin() may have remounted with or without CDP (the lesson's `cdp` line): the heatmap read before is stale.
    refreshAllocation();
    m_lessonSource = nameOrPath;
    rdt::lesson::LessonRun* run = m_lessonRun.get();
    run->setKeepPmuSamples(true); // its PMU steps are shown on the PMU pages (lessonFrame)
    m_lessonFollowed.reset();
    // The PMU controls start their captures on the lesson's engine (setSource gave them the simulated machine's), so
    // a recipe the student starts there is announced to the lesson (PmuCaptureStarted) as its own "Do it for me" is.
    m_source.setEventTap([run](const rdt::engine::EngineEvent& e) { run->observe(e); });
    m_lessonPanel->setRun(run, engine);
    m_lessonDock->show();
    m_lessonDock->raise();
    // The step's text and what the run measured need room: most of the dock column's height, the rest for the
    // docks beside it (the Lessons panel scrolls when that is still too little).
    resizeDocks({ m_lessonDock }, { height() * 3 / 5 }, Qt::Vertical);
    return true;
}

void MainWindow::stopLesson()
{
    if (!m_lessonRun) return;
    // The PMU pages let go of the lesson's capture first: its engine goes with the lesson's source.
    PmuSession* pmu = m_pmu->session();
    if (pmu->followedCapture() && pmu->followedCapture() == m_lessonRun->pmuCapture()) pmu->stopSimulation();
    // A capture the student started from the PMU controls runs on the lesson's engine too: it stops with the lesson.
    if (m_source.liveEngine && pmu->engine() == m_source.liveEngine) // the same engine, without the capture
        pmu->setEngine(std::shared_ptr<rdt::engine::Engine>(std::shared_ptr<void>(), m_source.liveEngine));
    m_lessonFollowed.reset();
    if (m_source.liveEngine) m_lessonRun->end(*m_source.liveEngine); // no lesson capture is left running
    if (m_source.setEventTap) m_source.setEventTap(nullptr);
    m_lessonPanel->setRun(nullptr, nullptr);
    m_lessonRun.reset();
}

void MainWindow::lessonFrame()
{
    if (!m_lessonRun || !m_source.liveEngine) return;
    // A PMU step's capture (started by "Do it for me") is shown on the PMU pages as it runs, once per capture: the
    // student who stops it there keeps it stopped. The lesson leaves its batches to the page while it follows.
    PmuSession* pmu = m_pmu->session();
    const auto capture = m_lessonRun->pmuCapture();
    // A capture the student started on the PMU pages is already shown there (the lesson adopted it).
    if (capture && capture == pmu->shownCapture()) m_lessonFollowed = capture;
    if (capture && capture != m_lessonFollowed) {
        m_lessonFollowed = capture;
        // Not owned: stopLesson() lets go of the capture before the source (and its engine) goes.
        std::shared_ptr<rdt::engine::Engine> engine(std::shared_ptr<void>(), m_source.liveEngine);
        pmu->followCapture(std::move(engine), m_lessonRun->pmuCaptureInfo(), m_lessonRun->pmuCaptureKind());
    }
    m_lessonRun->setPmuBatchesTakenElsewhere(capture && pmu->shownCapture() == capture);
    m_lessonRun->update(*m_source.liveEngine);
    m_lessonPanel->refresh();
}

void MainWindow::lookAt(const QString& view, const QStringList& groups)
{
    // The PMU pages show the lesson's PMU captures (lessonFrame); every other view is on the RDT page.
    static const QStringList ownPages { QStringLiteral("machine"), QStringLiteral("tma"), QStringLiteral("callgraph"),
        QStringLiteral("latency") };
    if (ownPages.contains(view))
        showView(view);
    else
        showView(QStringLiteral("rdt")); // timeline, allocation (heatmap, MB table) and the Monitor's groups
    // The panel's "Look at" line says where; no status-bar message, which (shown before the window is) would be
    // painted over the source label.
    for (const QString& g : groups)
        m_timelines->setGroupVisible(g, true);
}
