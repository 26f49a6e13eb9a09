// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QFontMetrics>
#include <QStringList>

class AllocationModel;
class QPainter;
class QPalette;

/// The key below the heatmap: a swatch and a word per cell state (the same words the cells' accessible texts use),
/// the occupancy bar, and the I/O ways when a cache has them; wrapped onto more lines in a narrow dock. Its own
/// class: HeatmapGrid's size hints measure it and HeatmapPainter draws it, so both follow one wrapping rule.
class HeatmapLegend {
    Q_DECLARE_TR_FUNCTIONS(HeatmapLegend)
public:
    /// `left`: x of the first swatch (the grid's left edge); `ioAlloc`: name the I/O (io_alloc) ways too.
    HeatmapLegend(const QFontMetrics& metrics, int left, bool ioAlloc);
    /// True when a row's cache in `model` has io_alloc ways to show.
    static bool ioAllocShown(const AllocationModel& model);

    /// Width of the legend on one line.
    int width() const;
    /// Height of the legend wrapped into a widget `widgetWidth` wide.
    int height(int widgetWidth) const;
    /// Draws it from y `top`, wrapped into a widget `widgetWidth` wide.
    void paint(QPainter& p, const QPalette& palette, int top, int widgetWidth) const;

private:
    QFontMetrics m_metrics;
    int m_left;
    QStringList m_texts;
};
