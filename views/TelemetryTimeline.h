// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

class FramePump;
class QCustomPlot;
class QLabel;
class TimelineView;

/// Per-group power (W, from resctrl's PERF_PKG_MON core_energy) on the timelines' time axis, one line per group in
/// its timeline colour, summed over the packages; activity (F/s) in each point's tooltip-free legend text. Hidden on
/// machines without PERF_PKG_MON telemetry (it appears with the first telemetry batch). Follows the TimelineView's
/// visible range and x position, so both plots show the same seconds at the same x; redrawn once per frame
/// (rpQueuedReplot).
class TelemetryTimeline : public QWidget {
    Q_OBJECT
public:
    TelemetryTimeline(FramePump* pump, TimelineView* timelines, QWidget* parent = nullptr);

    /// Rebuilds the lines from the pump's TelemetryHistory for the timelines' visible range.
    void refresh();
    QCustomPlot* plot() const { return m_plot; }
    /// Points drawn for a group (tests check that telemetry arrived).
    int plottedPoints(const QString& group) const;

private:
    /// In a QSplitter, a widget shown after the splitter was laid out gets no height: take room from the others.
    void claimSplitterRoom();
    /// Lines the plot's time axis up with the timelines' above it (they leave room for their group list).
    void alignWithTimelines();

    QPointer<FramePump> m_pump;
    QPointer<TimelineView> m_timelines;
    QLabel* m_title = nullptr;
    QCustomPlot* m_plot = nullptr;
};
