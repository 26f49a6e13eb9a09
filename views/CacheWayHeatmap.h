// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

#include "models/AllocationModel.h"
class HeatmapGrid;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QToolButton;

/// The cache-way heatmap (issue 6 item 2): a cache and domain selector, "Apply live" or Apply/Revert,
/// undo/redo buttons, a read-only banner with the reason when editing is disabled (item 8), and the grid.
///
/// Integration: create an AllocationModel, give it a writer (the engine adapter) and states, then
/// `heatmap->setModel(model)`. Ctrl+Z / Ctrl+Shift+Z: add `model->undoStack()->createUndoAction(...)` to the
/// main window's Edit menu, or set the window's QUndoStack with `model->setUndoStack()` before setModel().
/// Replay seek: `model->setState(recordedState)` (with writable = false and a reason such as "replaying a
/// recorded session").
class CacheWayHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit CacheWayHeatmap(QWidget* parent = nullptr);

    /// Not owned. Passing another model rewires every control.
    void setModel(AllocationModel* model);
    AllocationModel* model() const { return m_model; }
    HeatmapGrid* grid() const { return m_grid; }
    QSize sizeHint() const override;

    /// The read-only banner's text ("" when editing is enabled); what item 8 shows.
    QString readOnlyText() const;
    /// The last rejection message shown in the status line ("" when none).
    QString statusText() const;
    /// The line below the grid about rows another program changed ("" when none is marked).
    QString externalText() const;
    /// The line above the grid: the cache's size, CBM, bytes per bit, rules (and SNC nodes).
    QString cacheInfoText() const;
    /// The heatmap's own Undo/Redo actions carry Ctrl+Z / Ctrl+Shift+Z while focus is inside it. Turn them off
    /// when the main window puts the same QUndoStack's actions (with those shortcuts) into its Edit menu, or Qt
    /// reports the shortcut as ambiguous.
    void setUndoShortcutsEnabled(bool enabled);

    /// The explain-panel concept for a cell (resources/explain/<id>.md): "shareable-bits" for hardware-shared
    /// bits, "closid0" for the default group, "cdp" for CODE/DATA rows, otherwise "cat".
    static QString conceptForCell(const AllocationModel& model, int row, int bit);

Q_SIGNALS:
    /// A cell was selected: connect to ExplainPanel::showConcept.
    void explainRequested(const QString& conceptId);

private:
    void syncControls();
    void syncSelectors();
    void syncExternal();

    QPointer<AllocationModel> m_model;
    HeatmapGrid* m_grid;
    QComboBox* m_cacheBox;
    QComboBox* m_domainBox;
    QCheckBox* m_live;
    QPushButton* m_apply;
    QPushButton* m_revert;
    QToolButton* m_undo;
    QToolButton* m_redo;
    QLabel* m_banner;
    QLabel* m_status;
    QLabel* m_simulated;
    QLabel* m_cacheLabel = nullptr;
    QLabel* m_info = nullptr;
    QWidget* m_externalBar = nullptr;
    QLabel* m_external = nullptr;
    QList<QMetaObject::Connection> m_connections;
    class QAction* m_undoAction = nullptr;
    class QAction* m_redoAction = nullptr;
};
