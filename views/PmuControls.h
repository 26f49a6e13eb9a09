// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Start/stop of the PMU capture recipes on the simulated or the live machine (system-wide, a PID, or a command),
// File > Open perf.data with a progress bar and cancel, and the PMU's advice when it is not available. On a machine
// without a usable PMU (a VM, an AMD CPU for Intel events) the live choice shows why and what would fix it, and
// never shows made-up data.

#include "simpmu/SimPmuModel.h"

#include <QWidget>

class PmuSession;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

class PmuControls : public QWidget {
    Q_OBJECT
public:
    explicit PmuControls(PmuSession* session, QWidget* parent = nullptr);

    /// Starts the selected recipe on the selected machine; false (with the reason shown) when it cannot run.
    bool start();
    void stop();
    /// Asks for a file and imports it (progress and cancel here).
    void openPerfDataDialog();
    /// Imports `path`; binaries are looked up next to the file and in $RDTSCOPE_SYMFS (':'-separated, like --symfs).
    void openPerfData(const QString& path);

    /// The simulated machine's CPU: the simulated PMU uses its generation's events (a running simulation restarts).
    void setSimulatedCpu(const rdt::pmu::SimPmuModel& model);
    const rdt::pmu::SimPmuModel& simulatedCpu() const { return m_simModel; }

    /// The simulated machine's control groups a simulated program may run in (their L3 mask is its L3); empty when
    /// the PMU pages' engine is not the simulated machine's (then the program uses the PMU's own caches). Keeps the
    /// chosen group while it still exists.
    void setCatGroups(const QStringList& groups);
    QStringList catGroups() const;

    enum class Machine { Simulated, Live };
    void setMachine(Machine m);
    QString adviceText() const;
    bool progressVisible() const;

private:
    void updateButtons();

    PmuSession* m_session;
    QComboBox* m_machine;
    QComboBox* m_recipe;
    QComboBox* m_target;
    QComboBox* m_program; ///< the simulated PMU's synthetic program
    QDoubleSpinBox* m_scale; ///< its working sets' scale (PmuRequest::memoryScale)
    QComboBox* m_catGroup; ///< the class of service it runs in: none, or a simulated machine's group
    QLineEdit* m_targetArg;
    QPushButton* m_start;
    QPushButton* m_stop;
    QPushButton* m_open;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_advice;
    QLabel* m_state;
    rdt::pmu::SimPmuModel m_simModel;
};
