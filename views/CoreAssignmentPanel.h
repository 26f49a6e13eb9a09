// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Monitor area's per-core view, what `pqos -s` prints at a glance: cores -> CLOS and RMID (with the control and
// monitor groups behind them) above, classes -> L3/L2 masks and MB values below. Refreshed every two seconds while it
// is shown (rdt::engine::coreAssignments); without a live source it says why.

#include <QWidget>

class CoreAssignmentSource;
class QLabel;
class QTableView;
class QTimer;

class CoreAssignmentPanel : public QWidget {
    Q_OBJECT
public:
    explicit CoreAssignmentPanel(CoreAssignmentSource* source, QWidget* parent = nullptr);

    QTableView* coresView() const { return m_cores; }
    QTableView* classesView() const { return m_classes; }
    QLabel* note() const { return m_note; }

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void showState();

    CoreAssignmentSource* m_source;
    QLabel* m_note;
    QTableView* m_cores;
    QTableView* m_classes;
    QTimer* m_timer;
};
