// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;

/// The choice of a simulated machine, as `--preset` and `--scenario` make it: a CPU preset (or the scenario's own
/// CPU) and a built-in scenario, from the engine's catalogue, with a one-line description of the pair. Used by the
/// start page and File > Switch source.
class SimulatedMachinePicker : public QWidget {
    Q_OBJECT
public:
    /// Starts on `preset` ("" = the scenario's own CPU) and `scenario` ("" = the default scenario).
    SimulatedMachinePicker(const QString& preset, const QString& scenario, QWidget* parent = nullptr);

    QString preset() const; ///< "" = the scenario's own CPU
    QString scenario() const;

Q_SIGNALS:
    /// The user picked a preset or a scenario.
    void activated();

private:
    void updateDescription();

    QComboBox* m_preset;
    QComboBox* m_scenario;
    QLabel* m_description;
};
