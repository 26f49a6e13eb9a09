// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The compare window's timelines: A above B on one shared relative time axis, each with LLC occupancy (solid,
// MiB, left axis) and MBM total bandwidth (dashed, GB/s, right axis) per group, markers as vertical lines.
// Aligned at the start of each recording, or at a marker chosen by its text (t = 0 at that marker on both).

#include "compare/Timeline.h"

#include <QWidget>

class QCustomPlot;
class QCPAxisRect;

class CompareTimelines : public QWidget {
    Q_OBJECT
public:
    explicit CompareTimelines(QWidget* parent = nullptr);

    void setTimelines(const rdt::compare::Timeline& a, const rdt::compare::Timeline& b);
    /// Marker texts present in both timelines (the choices for alignAt).
    QStringList commonMarkers() const;
    /// "" aligns at the start; otherwise at the first marker with this text in each timeline.
    void alignAt(const QString& markerText);
    /// The offset (seconds) subtracted from each side's times; 0 when aligned at the start.
    double offsetA() const { return m_offsetA; }
    double offsetB() const { return m_offsetB; }
    QCustomPlot* plot() const { return m_plot; }

private:
    void rebuild();
    void fill(QCPAxisRect* rect, const rdt::compare::Timeline& t, double offset, const QString& title);

    QCustomPlot* m_plot;
    rdt::compare::Timeline m_a, m_b;
    double m_offsetA = 0, m_offsetB = 0;
    QString m_marker;
};
