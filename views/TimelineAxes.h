// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>

#include <optional>

class MarginProbeAxisRect;
class QCPAxis;
class QCustomPlot;

/// The timelines' geometry: two stacked axis rects in one QCustomPlot, LLC occupancy (MiB) over memory bandwidth
/// (GB/s), on one shared time axis (dragging or zooming either moves both), with value-axis titles that shorten to
/// fit a short plot, and a left edge a plot below can be aligned with. Its own class: how the plot is laid out is
/// apart from what TimelineView plots in it.
class TimelineAxes {
    Q_DECLARE_TR_FUNCTIONS(TimelineAxes)
public:
    /// Lays out `plot` (which must be empty) with the time axis showing [0, windowSeconds].
    TimelineAxes(QCustomPlot* plot, double windowSeconds);

    MarginProbeAxisRect* occupancy() const { return m_occRect; }
    MarginProbeAxisRect* bandwidth() const { return m_bwRect; }
    /// The shared time axis (the bandwidth rect's, which carries the tick labels).
    QCPAxis* timeAxis() const;
    QCPAxis* occupancyAxis() const;
    QCPAxis* bandwidthAxis() const;

    /// Global x where the time axis would start with only these axes to fit (their tick labels and titles).
    int neededAxisLeft() const;
    /// Starts the time axis at global x `x` or right of it; std::nullopt: only these axes count again.
    void setAxisLeftAtLeast(std::optional<int> x);

private:
    QCustomPlot* m_plot;
    MarginProbeAxisRect* m_occRect = nullptr;
    MarginProbeAxisRect* m_bwRect = nullptr;
};
