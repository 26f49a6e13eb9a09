// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// TMA over time: the four level-1 categories as a stacked area (fractions of issue slots per interval, which sum to
// 1; SDM 22.2.9.6, docs/PMU.md "TMA"), and below it the breakdown of the selected range as a level-1 -> level-2 tree,
// each category with a one-line explanation. Dragging across the plot selects a time range, which filters every
// PMU view (PmuSession::setTimeRange); a click without a drag clears it. When the data has several TMA series
// (a live capture on a hybrid part: P-cores and E-cores, PmuData::tmaSeries), a selector above the plot chooses
// which one the plot and the tree show; both series are aggregated over the same range.

#include <QWidget>

class PmuSession;
class QCustomPlot;
class QCPItemRect;
class QComboBox;
class QLabel;
class QTreeView;
class TmaModel;

class TmaView : public QWidget {
    Q_OBJECT
public:
    explicit TmaView(PmuSession* session, QWidget* parent = nullptr);

    TmaModel* model() const { return m_model; }
    QCustomPlot* plot() const { return m_plot; }
    /// Number of intervals drawn (for tests).
    int pointCount() const;
    /// The series selector (hidden unless the data has more than one TMA series).
    QComboBox* seriesSelector() const { return m_seriesBox; }
    /// Which TMA series the plot and the tree show (index into PmuData::tmaSeries).
    int currentSeries() const { return m_series; }
    void setCurrentSeries(int series);
    /// The line above the tree: source, series, range, interval and slot counts (for tests).
    QString caption() const;

private:
    void refresh();
    void syncSeries(); ///< fills the selector from the data's series labels
    void showRange(double from, double to, bool active);

    PmuSession* m_session;
    TmaModel* m_model;
    QCustomPlot* m_plot;
    QCPItemRect* m_rangeItem;
    QTreeView* m_tree;
    QLabel* m_caption;
    QComboBox* m_seriesBox;
    int m_series = 0;
    double m_pressX = 0;
    bool m_pressed = false;
};
