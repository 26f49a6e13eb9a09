// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulated PMU stepped by hand, for the PMU model and view tests: the same samples on every run.

#include "models/PmuSession.h"

#include <QObject>
#include <QString>
#include <QtGlobal>

/// Starts the simulated PMU on `s`, stops its timer and runs `steps` slices, then waits for the aggregation.
inline void simulateSteps(PmuSession& s, int steps)
{
    QString error;
    if (!s.startSimulation(rdt::pmu::PmuSimOptions {}, 1000000, 10'000'000, &error))
        qFatal("simulation: %s", qPrintable(error));
    s.stopSimulation(); // step by hand: deterministic
    for (int i = 0; i < steps; ++i)
        s.stepSimulation();
    s.waitForAggregation();
}

/// A new session owned by `parent`, stepped as simulateSteps() does.
inline PmuSession* simulatedSession(QObject* parent, int steps = 4)
{
    auto* s = new PmuSession(parent);
    simulateSteps(*s, steps);
    return s;
}
