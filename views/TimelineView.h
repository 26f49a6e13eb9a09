// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/ColumnEnvelope.h"
#include "models/TimeSeriesStore.h"
#include "views/PlotRangeSelector.h"

#include <QHash>
#include <QPointer>
#include <QVector>
#include <QWidget>

#include <memory>
#include <optional>

class FramePump;
class QCustomPlot;
class TimelineAxes;
class TimelineExport;
class TimelineGroupList;
class TimelineMarkerLayer;
class TimelineToolbar;
class QCPGraph;

/// LLC occupancy (MiB) and memory bandwidth (GB/s: total, local, remote) per group on one shared time axis
/// (QCustomPlot, two axis rects: TimelineAxes), with a labelled marker at every allocation change
/// (TimelineMarkerLayer), the controls above (TimelineToolbar) and exports to files (TimelineExport). The data comes
/// decimated
/// from the FramePump's TimeSeriesStore; the view only draws, at most once per frame (rpQueuedReplot).
/// Follow mode keeps the newest `window` seconds in view; wheel zoom or drag pan (horizontal) pauses it.
/// Shift+drag across a plot selects a time range (a band on both plots; rangeSelected), which the main window
/// applies to the PMU views; Esc, a double-click or the "Clear range" button clears it (rangeCleared).
class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(FramePump* pump, QWidget* parent = nullptr);
    ~TimelineView() override;

    bool follow() const { return m_follow; }
    void setFollow(bool follow);
    void setWindowSeconds(double seconds);
    double windowSeconds() const { return m_window; }
    /// Shows [t0, t1] and pauses following.
    void setVisibleRange(double t0, double t1);
    std::pair<double, double> visibleRange() const;
    void setMetricVisible(Metric metric, bool visible);
    bool metricVisible(Metric metric) const;
    /// Hides or shows every series of a group (what its check box in the group list does).
    void setGroupVisible(const QString& group, bool visible);
    bool groupVisible(const QString& group) const;
    /// Plots the `count` groups with the most total bandwidth in their last 10 s of data, and hides the others.
    void showTopGroups(int count);
    /// Groups plotted when they first appear (the group list picks the others).
    static constexpr int kInitiallyPlotted = 8;
    TimelineGroupList* groupList() const { return m_groupList; }

    /// Selects [from, to] (timeline seconds; swapped when reversed), shows the band and emits rangeSelected.
    void setSelectedRange(double from, double to) { m_selector->select(from, to); }
    /// Clears the selection (band hidden) and emits rangeCleared when there was one.
    void clearSelectedRange() { m_selector->clear(); }
    bool hasSelectedRange() const { return m_selector->hasSelection(); }
    std::pair<double, double> selectedRange() const { return m_selector->selection(); }
    /// Shows (or hides) a range chosen elsewhere, e.g. on the TMA plot, as a grey band; emits nothing.
    void showLinkedRange(double from, double to, bool visible) { m_selector->showLinked(from, to, visible); }
    /// A source that measures nothing (allocation without monitoring): a line above the plots says why; "" hides it.
    void setNotMeasured(const QString& why);
    QString notMeasured() const;
    bool linkedRangeVisible() const { return m_selector->linkedVisible(); }
    std::pair<double, double> linkedRange() const { return m_selector->linked(); }

    /// Re-decimates the visible range and queues one replot (the frame pump's `frame` signal calls it).
    void refresh();

    /// Exports of the visible range. Return false and set *error (what failed, why) on failure.
    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportSvg(const QString& path, QString* error = nullptr);
    bool exportCsv(const QString& path, QString* error = nullptr);

    QCustomPlot* plot() const { return m_plot; }
    /// Global x where the time axis would start with only the timelines' own axes to fit (their tick labels and
    /// titles): a plot below aligned to it (TelemetryTimeline) must not start left of it.
    int neededAxisLeft() const;
    /// Starts the time axis at global x `x` or right of it (room for the labels of a plot aligned below);
    /// std::nullopt: only the timelines' own axes count again.
    void setAxisLeftAtLeast(std::optional<int> x);
    /// Which side of its line marker label @p i sits on (left of it near the right edge, so it stays readable).
    Qt::Alignment markerLabelAlignment(int i) const;
    /// Allocation-change markers drawn (each is two lines and a label); changes within 1 ms share one.
    int markerCount() const;
    /// The text of marker @p i's label as drawn: shortened where the labels of nearby markers crowd (empty when
    /// there is none).
    QString markerLabel(int i) const;
    /// The row (0 = top) marker label i sits in: labels that would overlap step down, distant ones share row 0.
    int markerLabelRow(int i) const;
    /// Points currently plotted for a group's metric (tests check that samples arrived).
    int plottedPoints(const QString& group, Metric metric) const;

Q_SIGNALS:
    /// A series or marker was clicked: the explain panel shows the concept ("llc-occupancy", "mbm-total", ...).
    void explainRequested(const QString& conceptId);
    void followChanged(bool follow);
    /// A time range was selected, in timeline seconds (FramePump::secondsOf), from <= to.
    void rangeSelected(double from, double to);
    void rangeCleared();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct GroupGraphs {
        QString name;
        std::array<QCPGraph*, kMetricCount> graphs {};
        std::array<ColumnEnvelope, kMetricCount> envelopes; ///< what each graph shows, updated incrementally
        std::array<double, kMetricCount> pointsTolerance {}; ///< value tolerance the plotted points were built with
        std::array<double, kMetricCount> builtTolerance {}; ///< per refresh: rebuild points above this (-1: none)
        bool visible = true;
    };
    GroupGraphs& graphsFor(int storeIndex);
    void clearSeries();
    void applyPalette();
    void setupInteraction();
    void setupSelection();

    QPointer<FramePump> m_pump;
    QCustomPlot* m_plot = nullptr;
    std::unique_ptr<TimelineExport> m_export;
    std::unique_ptr<TimelineAxes> m_axes;
    std::unique_ptr<TimelineMarkerLayer> m_markers;
    TimelineToolbar* m_toolbar = nullptr;
    TimelineGroupList* m_groupList = nullptr;
    QHash<QString, bool> m_userChoice; ///< groups the user ticked or unticked, by name
    PlotRangeSelector* m_selector = nullptr; ///< shift+drag selection and the TMA plot's band
    QVector<GroupGraphs> m_groups; // index = TimeSeriesStore group index
    bool m_follow = true;
    bool m_smooth = true;
    double m_window = 300.0;
    std::array<bool, kMetricCount> m_metricVisible { true, true, false, false };
    class QLabel* m_notMeasured = nullptr;
};
