// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QSize>

class QMainWindow;

/// A main window's layout: the default dock and splitter sizes, the window size clamped to the screen, and the
/// window and dock state saved at close and restored at the next start (QSettings "window/..."); View > Reset
/// layout goes back to the defaults.
class WindowLayout {
public:
    explicit WindowLayout(QMainWindow* window);

    /// The size a new window opens at: 1400x900, or the screen's available area when that is smaller.
    QSize defaultSize() const;
    /// Remembers the docks as built (before any saved state is restored): what reset() goes back to.
    void captureDefaults();
    void applyDefaultDockSizes();
    void reset();
    /// Restores the state saved by save(); false when there is none.
    bool restore();
    void save();

private:
    QMainWindow* m_window;
    QByteArray m_defaultState;
};
