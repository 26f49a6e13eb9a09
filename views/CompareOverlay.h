// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The compare window's distributions, A and B overlaid as paired bars: TMA categories (% of slots, level 1 then
// level 2) and load latency by data source (share of loads, with mean cycles in the tick labels). A and B use
// the colour-blind-safe blue/orange pair of CompareDiffModel::changeColor.

#include "compare/Compare.h"

#include <QWidget>

class QCustomPlot;
class QLabel;

class CompareOverlay : public QWidget {
    Q_OBJECT
public:
    explicit CompareOverlay(QWidget* parent = nullptr);
    void setComparison(const rdt::compare::Comparison& c);
    QCustomPlot* tmaPlot() const { return m_tma; }
    QCustomPlot* latencyPlot() const { return m_latency; }

private:
    /// Paired bars for the rows of `section` with metric `metric` (all when empty); false when there are none.
    bool plotPairs(QCustomPlot* plot, const rdt::compare::Comparison& c, rdt::compare::Section section,
        const QString& yLabel, bool withMean);

    QCustomPlot* m_tma;
    QCustomPlot* m_latency;
    QLabel* m_tmaEmpty;
    QLabel* m_latencyEmpty;
};
