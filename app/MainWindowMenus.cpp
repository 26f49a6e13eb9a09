// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's menus: File, Edit (the window's undo history of allocation edits, CDP), View, Help.
#include "MainWindow.h"

#include "models/AllocationModel.h"
#include "views/TimelineView.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open session\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open session"), QString(), tr("rdtscope sessions (*.rdts *.sqlite *.db);;All files (*)"));
        if (!path.isEmpty()) openSession(path);
    });
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Replay a session recorded by rdtscope or rdtscope-cli record"));
    m_openPerfAction = file->addAction(tr("Open &perf.data\u2026")); // enabled by PmuPages
    m_openPerfAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    buildRecentMenu(file);
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

    buildEditMenu();

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
    buildKeyboardActions(view);
    for (QAction* a : view->actions())
        if (a->statusTip().isEmpty()) a->setStatusTip(a->toolTip());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcutsHelp);
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

void MainWindow::buildEditMenu()
{
    // One history for the whole window: Ctrl+Z undoes the last allocation edit from any panel (heatmap, MB table,
    // timelines), not only while the heatmap has focus. Text fields keep their own Ctrl+Z while they have focus.
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undoStack->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName(QStringLiteral("undo"));
    QAction* redo = m_undoStack->createRedoAction(this, tr("&Redo"));
    QList<QKeySequence> redoKeys { QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z) };
    for (const QKeySequence& k : QKeySequence::keyBindings(QKeySequence::Redo))
        if (!redoKeys.contains(k)) redoKeys << k;
    redo->setShortcuts(redoKeys);
    redo->setObjectName(QStringLiteral("redo"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* apply = edit->addAction(tr("&Apply staged edits"), this, [this] { m_allocationModel->apply(); });
    apply->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    apply->setToolTip(tr("Write every staged mask and bandwidth edit as one undoable change"));
    QAction* revert = edit->addAction(tr("Re&vert staged edits"), this, [this] { m_allocationModel->revert(); });
    revert->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Backspace));
    m_applyLiveAction = edit->addAction(tr("Apply &live"));
    m_applyLiveAction->setCheckable(true);
    m_applyLiveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_applyLiveAction->setToolTip(tr("Write each edit as soon as a drag ends (default on the simulator only)"));
    connect(m_applyLiveAction, &QAction::triggered, m_allocationModel, &AllocationModel::setApplyLive);
    auto sync = [this, apply, revert] {
        const bool editable = m_allocationModel->isEditable();
        const bool pending = m_allocationModel->hasPendingEdits();
        apply->setEnabled(editable && pending && m_allocationModel->pendingValid());
        revert->setEnabled(pending);
        m_applyLiveAction->setEnabled(editable);
        m_applyLiveAction->setChecked(m_allocationModel->applyLive());
    };
    connect(m_allocationModel, &AllocationModel::pendingChanged, this, sync);
    connect(m_allocationModel, &AllocationModel::editableChanged, this, sync);
    sync();
    edit->addSeparator();
    buildCdpAction(edit);
    edit->addSeparator();
    QAction* history = m_historyDock->toggleViewAction();
    history->setText(tr("Edit &history"));
    history->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    edit->addAction(history);
    for (QAction* a : edit->actions())
        a->setStatusTip(a->toolTip());
}

void MainWindow::buildCdpAction(QMenu* menu)
{
    // CDP is a mount option (Documentation/filesystems/resctrl.rst): the simulator remounts its resctrl and keeps
    // the groups; a real source refuses with the mount command, which the status bar shows.
    m_cdpAction = menu->addAction(tr("L3 &code/data masks (CDP)"));
    m_cdpAction->setObjectName(QStringLiteral("cdp"));
    m_cdpAction->setCheckable(true);
    m_cdpAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_cdpAction->setToolTip(tr("Give every group an L3CODE and an L3DATA mask (SDM 20.19.5); on the simulator this "
                               "remounts resctrl with -o cdp, keeping the groups and resetting their masks"));
    connect(menu, &QMenu::aboutToShow, this, [this] {
        rdt::engine::Engine* engine = m_source.liveEngine;
        m_cdpAction->setEnabled(engine != nullptr);
        auto machine = engine ? engine->machine() : rdt::Result<rdt::engine::MachineDescription>(rdt::makeError(""));
        m_cdpAction->setChecked(machine && machine->capabilities.cdpL3);
    });
    connect(m_cdpAction, &QAction::triggered, this, [this](bool on) { setCdp(on); });
}

bool MainWindow::setCdp(bool on)
{
    rdt::engine::Engine* engine = m_source.liveEngine;
    if (!engine) return false;
    const auto r = engine->setCdp(on);
    if (!r.ok) {
        m_cdpAction->setChecked(!on);
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
