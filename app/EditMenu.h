// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <functional>

class AllocationModel;
class QAction;
class QDockWidget;
class QMenuBar;
class QUndoStack;
namespace rdt::engine {
class Engine;
}

/// The Edit menu: one undo history for the whole window (Ctrl+Z undoes the last allocation edit from any panel,
/// not only while the heatmap has focus; text fields keep their own Ctrl+Z while they have focus), Apply and Revert of
/// staged edits, Apply live, L3 CDP, and the History dock's toggle.
class EditMenu : public QObject {
    Q_OBJECT
public:
    /// `liveEngine` gives the current source's engine (null for a replay or no source): CDP is switched there.
    EditMenu(QMenuBar* bar, QUndoStack* undo, AllocationModel* allocation, QDockWidget* history,
        std::function<rdt::engine::Engine*()> liveEngine, QObject* parent);

    /// Edit > L3 code/data masks (CDP): checked while the source's L3 has CDP on.
    QAction* cdpAction() const { return m_cdp; }

Q_SIGNALS:
    /// The user asked for CDP on or off (the window switches it and unchecks the action when that fails).
    void cdpRequested(bool on);

private:
    void buildCdpAction(class QMenu* menu);

    std::function<rdt::engine::Engine*()> m_liveEngine;
    QAction* m_cdp = nullptr;
};
