// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFontMetrics>
#include <QList>
#include <QRect>

/// Where HeatmapGrid draws what: one panel of CLOS x bit cells per cache domain ("small multiples"), side by side
/// while they fit at a readable cell width, wrapped onto more lines otherwise. Every line repeats the group labels on
/// its left; every panel has its domain title above and a mask column (wide enough for the full mask) on its right.
struct HeatmapLayout {
    struct Input {
        int width = 0; ///< widget width
        int labelWidth = 0; ///< x of the first cell (labels and margin included)
        int rows = 0;
        int bits = 0;
        QList<int> domains; ///< at least one
        QFontMetrics metrics;
    };
    struct Panel {
        int domain = 0;
        int left = 0; ///< x of the leftmost (most significant) bit
        int top = 0; ///< y of the first row
        int titleTop = 0; ///< y of the domain title line (above the bit numbers)
        int maskLeft = 0; ///< x of the mask column
        int line = 0;
    };
    static constexpr int MaxCellW = 26;
    static constexpr int MinCellW = 9;
    static constexpr int Margin = 6;
    static constexpr int RowGap = 3;
    static constexpr int PanelGap = 14;

    int cellW = MaxCellW;
    int cellH = 24;
    int maskW = 0; ///< mask column width
    int bits = 0;
    int rows = 0;
    QList<Panel> panels;
    int infoLeft = 0; ///< x right of the last panel of the first line (single-domain occupancy and reasons)
    int bottom = 0; ///< y below the last line of cells

    static HeatmapLayout compute(const Input& in);
    /// The widest line of panels at `cellW`, for size hints.
    static int widthFor(const Input& in, int cellW, int perLine);

    const Panel* panelFor(int domain) const;
    QRect cellRect(const Panel& p, int row, int bit) const;
    /// Panel, row and bit under `pos`, or false. With `clampPanel`, the bit is clamped into `*panel` (drags).
    bool hit(const QPoint& pos, int* panel, int* row, int* bit, bool clampPanel = false) const;
};
