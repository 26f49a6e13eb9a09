// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The advisor's objective as the Experiments page offers it: the most hits in total, a weighted sum with weights
// typed as the CLI's `advise --weight` takes them ("victim=3,streamer=1", read by experiment/GroupWeight.h), or one
// group protected first. What it gives is checked by the advisor's own rule (experiment::checkObjective), so the
// GUI refuses exactly what the CLI refuses. docs/EXPERIMENTS.md "The advisor".

#include "experiment/Advisor.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

class AdviceObjectiveEditor : public QWidget {
    Q_OBJECT
public:
    explicit AdviceObjectiveEditor(QWidget* parent = nullptr);

    /// The control groups shown (the default group as "default"), offered as the group to protect.
    void setGroups(const QStringList& shownNames);
    /// The objective, its weights and protected group for advising on `groups` (paths), or why they cannot be used.
    rdt::Result<rdt::experiment::AdviceSettings> settings(const std::vector<std::string>& groups) const;

    QComboBox* objectiveBox() const { return m_objective; }
    QLineEdit* weightsEdit() const { return m_weights; }
    QComboBox* protectBox() const { return m_protect; }

private:
    void showChoice();

    QComboBox* m_objective;
    QLineEdit* m_weights;
    QComboBox* m_protect;
    QLabel* m_weightsLabel;
    QLabel* m_protectLabel;
};
