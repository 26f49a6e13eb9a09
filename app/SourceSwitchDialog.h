// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AppOptions.h"

#include <QDialog>

class QButtonGroup;
class QLineEdit;
class SimulatedMachinePicker;

/// File > Switch source: the sources a running window can move to without a restart, each as its command-line
/// options would name it: a simulated machine (preset x scenario, each with its one-line description), this machine
/// (live, `auto`: the window says why not when it cannot), or a resctrl tree (the mounted one or a copy of one).
/// An agent is File > Connect to agent; a recording and a perf.data file are File > Open.
class SourceSwitchDialog : public QDialog {
    Q_OBJECT
public:
    /// Starts on the choice `current` names (its source, preset and scenario).
    SourceSwitchDialog(const AppOptions& current, QWidget* parent);

    /// The options of the chosen source (copied from `current`, with source, preset and scenario set).
    AppOptions chosen() const;

private:
    AppOptions m_base;
    QButtonGroup* m_kind;
    SimulatedMachinePicker* m_machine;
    QLineEdit* m_treePath;
};
