// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AppOptions.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QVBoxLayout;
class SimulatedMachinePicker;

/// What a window shows when the command line names nothing to look at (issue #47 item 1): one section per kind of
/// thing it can be about, each opening it in this window: this machine live (with why it cannot, when it cannot), a
/// simulated machine (preset x scenario), a resctrl tree, another machine through its agent (recent agents), a
/// recording or a perf.data file (recent files), a lesson. The command-line options open the same things directly.
class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);

    /// Why RDT cannot be used live here ("" when it can): said under "This machine" before the user tries.
    void setHostStatus(const QString& rdtWhyNot);
    /// Lists the recent files and agents again (the page is shown again after File > Start page).
    void refreshRecent();

Q_SIGNALS:
    void sourceChosen(const AppOptions& options);
    void connectRequested(const QString& url); ///< "" = ask for the address
    void openSessionRequested(const QString& path); ///< "" = ask for the file
    void openPerfDataRequested();
    void openCpuidDumpRequested();
    void openRecentRequested(const QString& path);
    void lessonRequested(const QString& name);

private:
    QWidget* section(const QString& title, QVBoxLayout** body);

    QLabel* m_hostStatus;
    SimulatedMachinePicker* m_machine;
    QLineEdit* m_treePath;
    QVBoxLayout* m_recentAgents;
    QVBoxLayout* m_recentFiles;
};
