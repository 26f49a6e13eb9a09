// SPDX-License-Identifier: GPL-3.0-or-later
#include "EditMenu.h"

#include "engine/Engine.h"
#include "models/AllocationModel.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QUndoStack>

EditMenu::EditMenu(QMenuBar* bar, QUndoStack* undoStack, AllocationModel* allocation, QDockWidget* history,
    std::function<rdt::engine::Engine*()> liveEngine, QObject* parent)
    : QObject(parent)
    , m_liveEngine(std::move(liveEngine))
{
    QMenu* edit = bar->addMenu(tr("&Edit"));
    QAction* undo = undoStack->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName(QStringLiteral("undo"));
    QAction* redo = undoStack->createRedoAction(this, tr("&Redo"));
    QList<QKeySequence> redoKeys { QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z) };
    for (const QKeySequence& k : QKeySequence::keyBindings(QKeySequence::Redo))
        if (!redoKeys.contains(k)) redoKeys << k;
    redo->setShortcuts(redoKeys);
    redo->setObjectName(QStringLiteral("redo"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* apply = edit->addAction(tr("&Apply staged edits"), allocation, [allocation] { allocation->apply(); });
    apply->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    apply->setToolTip(tr("Write every staged mask and bandwidth edit as one undoable change"));
    QAction* revert = edit->addAction(tr("Re&vert staged edits"), allocation, [allocation] { allocation->revert(); });
    revert->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Backspace));
    QAction* applyLive = edit->addAction(tr("Apply &live"));
    applyLive->setCheckable(true);
    applyLive->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    applyLive->setToolTip(tr("Write each edit as soon as a drag ends (default on the simulator only)"));
    connect(applyLive, &QAction::triggered, allocation, &AllocationModel::setApplyLive);
    auto sync = [allocation, apply, revert, applyLive] {
        const bool editable = allocation->isEditable();
        const bool pending = allocation->hasPendingEdits();
        apply->setEnabled(editable && pending && allocation->pendingValid());
        revert->setEnabled(pending);
        applyLive->setEnabled(editable);
        applyLive->setChecked(allocation->applyLive());
    };
    connect(allocation, &AllocationModel::pendingChanged, this, sync);
    connect(allocation, &AllocationModel::editableChanged, this, sync);
    sync();
    edit->addSeparator();
    buildCdpAction(edit);
    edit->addSeparator();
    QAction* historyToggle = history->toggleViewAction();
    historyToggle->setText(tr("Edit &history"));
    historyToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    edit->addAction(historyToggle);
    for (QAction* a : edit->actions())
        a->setStatusTip(a->toolTip());
}

void EditMenu::buildCdpAction(QMenu* menu)
{
    // CDP is a mount option (Documentation/filesystems/resctrl.rst): the simulator remounts its resctrl and keeps
    // the groups; a real source refuses with the mount command, which the status bar shows.
    m_cdp = menu->addAction(tr("L3 &code/data masks (CDP)"));
    m_cdp->setObjectName(QStringLiteral("cdp"));
    m_cdp->setCheckable(true);
    m_cdp->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_cdp->setToolTip(tr("Give every group an L3CODE and an L3DATA mask (SDM 20.19.5); on the simulator this "
                         "remounts resctrl with -o cdp, keeping the groups and resetting their masks"));
    connect(menu, &QMenu::aboutToShow, this, [this] {
        rdt::engine::Engine* engine = m_liveEngine();
        m_cdp->setEnabled(engine != nullptr);
        auto machine = engine ? engine->machine() : rdt::Result<rdt::engine::MachineDescription>(rdt::makeError(""));
        m_cdp->setChecked(machine && machine->capabilities.cdpL3);
    });
    connect(m_cdp, &QAction::triggered, this, &EditMenu::cdpRequested);
}
