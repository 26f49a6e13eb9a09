// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// PEBS load latency (SDM 22.3.1.1.2; docs/PMU.md "PEBS load latency"): a histogram over log2 latency bins, stacked by
// where the load was served (L1, LFB, L2, L3, DRAM, remote, ...), and the top functions and 64-byte cache lines with
// mean, p50, p99, HITM and remote counts. Clicking a bar segment keeps that bin and source in the tables, clicking a
// source in the legend keeps that source; "Clear filter" (or a click on empty plot area) shows everything again.

#include <QWidget>

class LatencyModel;
class PmuSession;
class QCPBars;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableView;

class LatencyView : public QWidget {
    Q_OBJECT
public:
    explicit LatencyView(PmuSession* session, QWidget* parent = nullptr);

    LatencyModel* functions() const { return m_functions; }
    LatencyModel* lines() const { return m_lines; }
    QCustomPlot* plot() const { return m_plot; }
    /// Sum of every bar drawn (tests: equals the number of load samples in the range).
    double plottedTotal() const;
    /// The bars of one data source level (rdt::pmu::MemLevel value).
    QCPBars* bars(int level) const;
    /// What a click on bin `bin` of source `level` does (-1: any), also used by the plot's click handlers.
    void filterBy(int bin, int level);

private:
    void refresh();
    void refreshTables();

    PmuSession* m_session;
    LatencyModel* m_functions;
    LatencyModel* m_lines;
    QCustomPlot* m_plot;
    QList<QCPBars*> m_bars; ///< index = MemLevel
    QLabel* m_caption;
    QPushButton* m_clear;
};
