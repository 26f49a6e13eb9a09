// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/Sample.h"

#include <QString>
#include <QStringList>

#include <deque>
#include <map>

/// The GUI's PERF_PKG_MON history (rdt/Telemetry.h): per group, the power (core_energy's rate, watts) and the
/// activity rate (farads per second), each summed over the packages, one point per sampler batch, bounded to the
/// last `historySeconds`. Filled by the FramePump beside the TimeSeriesStore; the TelemetryTimeline draws it.
class TelemetryHistory {
public:
    struct Point {
        double t = 0; ///< seconds on the session axis
        double watts = 0;
        double faradsPerSecond = 0;
    };

    explicit TelemetryHistory(double historySeconds = 3600.0)
        : m_history(historySeconds)
    { }
    void setHistorySeconds(double seconds) { m_history = seconds; }

    /// One batch's telemetry at time t. First samples, resets and bad reads carry no rate: they add no point, so a
    /// line never dips to a zero that was not measured.
    void append(double t, const std::vector<rdt::TelemetrySample>& samples);
    void clear() { m_groups.clear(); }

    bool empty() const { return m_groups.empty(); }
    QStringList groups() const;
    const std::deque<Point>* points(const QString& group) const;

private:
    double m_history;
    std::map<QString, std::deque<Point>> m_groups;
};
