// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/FramePump.h"

#include <QCoreApplication>
#include <QPalette>
#include <QString>
#include <QVector>

#include <deque>

class QCustomPlot;
class QCPAbstractItem;
class QCPAxisRect;
class QCPItemText;
class QCPRange;

/// The allocation-change markers on the timelines: a dashed line on both plots per change (changes within 1 ms share
/// one) and a label above the occupancy lines, placed in rows so that labels never overlap, plus the headroom those
/// rows need. Its own class because placing labels is a layout problem of its own, apart from plotting the series;
/// TimelineView owns one and asks it after every refresh.
class TimelineMarkerLayer {
    Q_DECLARE_TR_FUNCTIONS(TimelineMarkerLayer)
public:
    TimelineMarkerLayer(QCustomPlot* plot, QCPAxisRect* occupancy, QCPAxisRect* bandwidth);

    /// Redraws the markers when `markers` changed since the last call (or after invalidate()), in `palette`'s colours.
    void sync(const std::deque<TimelineMarker>& markers, const QPalette& palette);
    /// The next sync() redraws even when the markers are the same (new colours).
    void invalidate() { m_lastMarkerCount = -1; }
    /// Removes every marker (the series were reset).
    void clear();
    /// Puts each label on the side of its line where it fits and in the highest row where it clears the others.
    void alignLabels();
    /// The occupancy axis's top as a multiple of the visible peak: room for the rows of marker labels in view
    /// (at most half the plot), else 12 %.
    double occupancyHeadroom(const QCPRange& visible) const;

    /// Markers drawn (each is two lines and a label).
    int count() const { return static_cast<int>(m_items.size()) / 3; }
    /// The text of marker @p i's label as drawn (empty when there is none).
    QString label(int i) const;
    /// The row (0 = top) marker label @p i sits in, or -1.
    int labelRow(int i) const;
    /// Which side of its line marker label @p i sits on.
    Qt::Alignment labelAlignment(int i) const;

private:
    QCustomPlot* m_plot;
    QCPAxisRect* m_occRect;
    QCPAxisRect* m_bwRect;
    QVector<QCPAbstractItem*> m_items;
    QVector<QCPItemText*> m_labels; // also in m_items; re-aligned as the visible range moves
    double m_lastMarkerT = -1;
    int m_lastMarkerCount = 0;
};
