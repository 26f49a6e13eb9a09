// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPointer>
#include <QWidget>

/// Keyboard movement between a window's panels (issue 16 item 8): an explicit Tab order through the panels as they
/// read on screen, and F6 / Shift+F6 hopping to the next visible panel's entry widget (the heatmap's grid, the MB
/// table: the thing the panel is about, not its first tool button).
class PanelFocus {
public:
    /// `panels` in reading order; Tab and F6 follow it.
    explicit PanelFocus(QList<QWidget*> panels);

    QList<QWidget*> panels() const;
    /// Chains every Tab stop of every panel, whatever order the widgets were created in.
    void setupTabOrder(QWidget* window) const;
    /// Focus moves to the next (or previous) visible panel's entry widget; returns that panel, or nullptr.
    QWidget* focusNext(bool forward) const;

private:
    QList<QPointer<QWidget>> m_panels;
};
