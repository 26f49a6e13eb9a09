// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

class QMenu;

/// File > Open Recent: lists RecentFiles each time it opens (a file that is gone is shown disabled, with why) and
/// asks for a file to be opened; openedFile() adds a file to the list while remembering is on (off for screenshots
/// and tests, so they leave no trace in the settings).
class RecentFilesMenu : public QObject {
    Q_OBJECT
public:
    /// Adds the "Open Recent" submenu (object name "recentMenu") to `fileMenu`.
    RecentFilesMenu(QMenu* fileMenu, QObject* parent);

    void setRemember(bool on) { m_remember = on; }
    /// A session or perf.data file opened by any route joins the list (when remembering is on).
    void openedFile(const QString& path);

Q_SIGNALS:
    void openRequested(const QString& path);

private:
    void fill();

    QMenu* m_menu;
    bool m_remember = false;
};
