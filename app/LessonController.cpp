// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonController.h"

#include "EngineSource.h"
#include "MainWindow.h"
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

LessonController::LessonController(MainWindow* window, QMenu* viewMenu, QAction* before)
    : QObject(window)
    , m_window(window)
    , m_panel(new LessonPanel(window))
    , m_dock(new QDockWidget(tr("Lessons"), window))
{
    m_panel->setMinimumWidth(300);
    m_dock->setObjectName(QStringLiteral("lessonDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->hide(); // until a lesson starts
    // Every menu action has a key of its own: take the first free ones.
    QSet<QKeySequence> used;
    for (QAction* a : window->findChildren<QAction*>())
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
    QAction* toggle = m_dock->toggleViewAction();
    toggle->setShortcut(freeKey(Qt::AltModifier | Qt::ShiftModifier, 0));
    viewMenu->insertAction(before, toggle);

    // Before Help, which stays last as desktop conventions have it.
    auto* lessons = new QMenu(tr("&Lessons"), window);
    const auto bar = window->menuBar()->actions();
    window->menuBar()->insertMenu(bar.isEmpty() ? nullptr : bar.last(), lessons);
    for (const auto& name : rdt::lesson::builtinLessonNames()) {
        auto lesson = rdt::lesson::loadLesson(name);
        const QString title = lesson ? QString::fromStdString(lesson->title) : QString::fromStdString(name);
        QAction* a = lessons->addAction(title, this, [this, n = QString::fromStdString(name)] {
            QString why;
            if (!start(n, &why)) m_window->statusBar()->showMessage(tr("Lesson not started: %1").arg(why));
        });
        // Ctrl+Alt+1..9 first, then Ctrl+Alt+Shift+1..9: every lesson keeps a key of its own.
        QKeySequence key = freeKey(Qt::ControlModifier | Qt::AltModifier, 0);
        if (key.isEmpty()) key = freeKey(Qt::ControlModifier | Qt::AltModifier | Qt::ShiftModifier, 0);
        a->setShortcut(key);
        if (lesson) a->setToolTip(QString::fromStdString(lesson->conceptText));
    }

    connect(m_panel, &LessonPanel::explainRequested, window->explainPanel(), &ExplainPanel::showConcept);
    connect(m_panel, &LessonPanel::lookRequested, this, &LessonController::lookAt);
    connect(m_panel, &LessonPanel::resetRequested, this, [this] {
        QString why;
        if (!start(m_source, &why)) m_window->statusBar()->showMessage(tr("Lesson not reset: %1").arg(why));
    });
    connect(window->pump(), &FramePump::frame, this, [this](const FrameUpdate&) { onFrame(); });
}

LessonController::~LessonController() = default;

bool LessonController::start(const QString& nameOrPath, QString* error)
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
    m_window->setSource(std::move(source.value())); // stops a running lesson first
    rdt::engine::Engine* engine = m_window->liveEngine();
    m_run = std::make_unique<rdt::lesson::LessonRun>(std::move(lesson.value()));
    if (auto r = m_run->begin(*engine); !r.ok) {
        if (error) *error = QString::fromStdString(r.toString());
        stop();
        return false;
    }
    // begin() may have remounted with or without CDP (the lesson's `cdp` line): the heatmap read before is stale.
    m_window->refreshAllocation();
    m_source = nameOrPath;
    rdt::lesson::LessonRun* run = m_run.get();
    run->setKeepPmuSamples(true); // its PMU steps are shown on the PMU pages (onFrame)
    m_followed.reset();
    // The PMU controls start their captures on the lesson's engine (setSource gave them the simulated machine's), so
    // a recipe the student starts there is announced to the lesson (PmuCaptureStarted) as its own "Do it for me" is.
    m_window->setEventTap([run](const rdt::engine::EngineEvent& e) { run->observe(e); });
    m_panel->setRun(run, engine);
    m_dock->show();
    m_dock->raise();
    // The step's text and what the run measured need room: most of the dock column's height, the rest for the
    // docks beside it (the Lessons panel scrolls when that is still too little).
    m_window->resizeDocks({ m_dock }, { m_window->height() * 3 / 5 }, Qt::Vertical);
    return true;
}

void LessonController::stop()
{
    if (!m_run) return;
    rdt::engine::Engine* engine = m_window->liveEngine();
    // The PMU pages let go of the lesson's capture first: its engine goes with the lesson's source.
    PmuSession* pmu = m_window->pmuPages()->session();
    if (pmu->followedCapture() && pmu->followedCapture() == m_run->pmuCapture()) pmu->stopSimulation();
    // A capture the student started from the PMU controls runs on the lesson's engine too: it stops with the lesson.
    if (engine && pmu->engine() == engine) // the same engine, without the capture
        pmu->setEngine(std::shared_ptr<rdt::engine::Engine>(std::shared_ptr<void>(), engine));
    m_followed.reset();
    if (engine) m_run->end(*engine); // no lesson capture is left running
    m_window->setEventTap(nullptr);
    m_panel->setRun(nullptr, nullptr);
    m_run.reset();
}

void LessonController::onFrame()
{
    rdt::engine::Engine* engine = m_window->liveEngine();
    if (!m_run || !engine) return;
    // A PMU step's capture (started by "Do it for me") is shown on the PMU pages as it runs, once per capture: the
    // student who stops it there keeps it stopped. The lesson leaves its batches to the page while it follows.
    PmuSession* pmu = m_window->pmuPages()->session();
    const auto capture = m_run->pmuCapture();
    // A capture the student started on the PMU pages is already shown there (the lesson adopted it).
    if (capture && capture == pmu->shownCapture()) m_followed = capture;
    if (capture && capture != m_followed) {
        m_followed = capture;
        // Not owned: stop() lets go of the capture before the source (and its engine) goes.
        std::shared_ptr<rdt::engine::Engine> shared(std::shared_ptr<void>(), engine);
        pmu->followCapture(std::move(shared), m_run->pmuCaptureInfo(), m_run->pmuCaptureKind());
    }
    m_run->setPmuBatchesTakenElsewhere(capture && pmu->shownCapture() == capture);
    m_run->update(*engine);
    m_panel->refresh();
}

void LessonController::lookAt(const QString& view, const QStringList& groups)
{
    // The PMU pages show the lesson's PMU captures (onFrame); every other view is on the RDT page.
    static const QStringList ownPages { QStringLiteral("machine"), QStringLiteral("tma"), QStringLiteral("callgraph"),
        QStringLiteral("latency") };
    m_window->showView(ownPages.contains(view) ? view : QStringLiteral("rdt"));
    // The panel's "Look at" line says where; no status-bar message, which (shown before the window is) would be
    // painted over the source label.
    for (const QString& g : groups)
        m_window->timelines()->setGroupVisible(g, true);
}
