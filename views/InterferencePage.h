// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Interference page: "who is hurting this group?" (docs/BLAME.md). The user picks the victim, how long to watch,
// whether to probe (fence each top suspect briefly) and contain (move the culprit to a best-effort allocation); the
// page shows the victim's harm, the ranking with each suspect's evidence and verdict, and an Undo for the
// containment. Everything is decided by capture/blame through BlameRun; the page only shows it. Probes and
// containment are offered only where the engine says allocations can be written (with its reason otherwise).

#include "blame/BlameTypes.h"

#include <QWidget>

#include <optional>

class BlameRun;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

class InterferencePage : public QWidget {
    Q_OBJECT
public:
    explicit InterferencePage(BlameRun* run, QWidget* parent = nullptr);
    /// Re-reads the control groups and the engine's writability (after a source change).
    void refreshGroups();

private:
    void startRun();
    void showResult(const rdt::blame::BlameResult& result);
    void undo();

    BlameRun* m_run;
    QComboBox* m_victim;
    QDoubleSpinBox* m_duration;
    QCheckBox* m_probe;
    QCheckBox* m_contain;
    QPushButton* m_start;
    QPushButton* m_stop;
    QPushButton* m_undo;
    QLabel* m_status;
    QLabel* m_harm;
    QTableWidget* m_ranking;
    QLabel* m_containment;
    std::optional<rdt::blame::Containment> m_contained;
};
