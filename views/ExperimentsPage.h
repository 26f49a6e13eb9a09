// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Experiments page: sweep a group's cache ways or bandwidth cap and watch its curve drawn as each step is
// measured (memory bandwidth and occupancy per step, the knee marked), compare it with earlier sweeps, stop at once
// (the original allocation comes back), and "Propose allocation": the advisor's masks for several groups, shown
// with what it expects, staged on the heatmap as a pending edit, applied as one edit, then measured against the
// prediction. "Record into" records a sweep or an advisor run into a session file as `rdtscope-cli sweep/advise
// --record FILE` does. The work runs in models/ExperimentRun; docs/EXPERIMENTS.md explains the method.

#include "experiment/Advise.h"

#include <QWidget>

#include <map>
#include <string>
#include <vector>

class AdviceObjectiveEditor;
class AllocationModel;
class ExperimentRun;
class QCheckBox;
class QComboBox;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

class ExperimentsPage : public QWidget {
    Q_OBJECT
public:
    ExperimentsPage(ExperimentRun* run, AllocationModel* allocation, QWidget* parent = nullptr);

    /// Re-reads the control groups from the run's engine (a new source, a group made elsewhere).
    void refreshGroups();
    /// Selects `group`, a way sweep, alone or not, and starts it (what --sweep GROUP does).
    void startSweepOf(const QString& group, bool alone);
    /// The page's own widgets, for tests and the screenshot: pressing them is what a user does.
    QComboBox* groupBox() const { return m_group; }
    QComboBox* kindBox() const { return m_kind; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* proposeButton() const { return m_propose; }
    QPushButton* applyButton() const { return m_apply; }
    QLineEdit* adviseGroups() const { return m_adviseGroups; }
    AdviceObjectiveEditor* objectiveEditor() const { return m_objective; }
    QCustomPlot* plot() const { return m_plot; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* resultLabel() const { return m_result; }
    QTableWidget* proposalTable() const { return m_proposal; }
    QString kneeText() const;
    QDoubleSpinBox* settleBox() const { return m_settle; }
    QDoubleSpinBox* measureBox() const { return m_measure; }
    /// The session file the next sweep or advisor run is recorded into (empty: not recorded).
    QLineEdit* recordEdit() const { return m_record; }
    QLabel* recordStatus() const { return m_recordStatus; }

private:
    void startSweep();
    void propose();
    void applyProposal();
    void onStep(const QString& group, const rdt::experiment::SweepStep& step, unsigned planned);
    void onSweepDone(const rdt::experiment::SweepResult& result);
    void onAdvice(const rdt::experiment::AdviseResult& result);
    void onMeasured(const std::map<std::string, rdt::experiment::GroupMeasure>& groups);
    void setRunning(bool running);
    /// Hands the "Record into" file to the run (before each start).
    void takeRecordPath();
    void browseRecordPath();
    QCPGraph* newCurve(const QString& name, bool occupancy);
    void clearKnee();
    void markKnee(double x, const QString& text);

    ExperimentRun* m_run;
    AllocationModel* m_allocation;
    QComboBox* m_group;
    QComboBox* m_kind;
    QComboBox* m_victim;
    QCheckBox* m_alone;
    QCheckBox* m_realtime;
    QDoubleSpinBox* m_settle;
    QDoubleSpinBox* m_measure;
    QPushButton* m_start;
    QPushButton* m_stop;
    QProgressBar* m_progress;
    QLabel* m_timeLeft;
    QLabel* m_result;
    QCustomPlot* m_plot;
    QCPGraph* m_bandwidth = nullptr; ///< the running sweep's curves
    QCPGraph* m_occupancy = nullptr;
    QCPItemStraightLine* m_knee = nullptr;
    QCPItemText* m_kneeLabel = nullptr;
    std::vector<rdt::experiment::SweepStep> m_steps; ///< of the running sweep, for the live knee
    rdt::experiment::SweepSettings m_running;
    int m_curves = 0;
    QLineEdit* m_record;
    QPushButton* m_browseRecord;
    QLabel* m_recordStatus;
    QLineEdit* m_adviseGroups;
    AdviceObjectiveEditor* m_objective;
    QString m_objectiveShown; ///< the objective of the proposal shown ("weighted: victim=3,streamer=1")
    QPushButton* m_propose;
    QPushButton* m_apply;
    QTableWidget* m_proposal;
    rdt::experiment::Advice m_advice;
    bool m_applyLiveBefore = true; ///< the heatmap's "apply live" before the proposal was staged
};
