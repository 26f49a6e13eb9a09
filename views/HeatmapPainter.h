// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "HeatmapLayout.h"

#include <QCoreApplication>

#include <optional>

class AllocationModel;
class QPainter;
class QWidget;

/// Draws the heatmap's picture of an AllocationModel: per domain panel the title and bit numbers, per row its label,
/// the cells coloured by state (hatched where hardware-shared or I/O-filled), the occupancy bar over the group's
/// ways, the pending or externally-changed frame and the mask; beside a single domain the occupancy and the reason a
/// row is red; then the legend. Its own class: what the grid looks like is apart from how it is edited (HeatmapGrid)
/// and from where its cells are (HeatmapLayout).
class HeatmapPainter {
    Q_DECLARE_TR_FUNCTIONS(HeatmapPainter)
public:
    struct Cell {
        int row = 0;
        int bit = 0;
    };
    /// `widget` gives the palette, font and width; `gridLeft` is where the cells start (row labels end left of it);
    /// `cursor`: the keyboard cursor to frame (in the model's current domain), if the grid has focus.
    HeatmapPainter(const AllocationModel& model, const HeatmapLayout& layout, const QWidget& widget, int gridLeft,
        std::optional<Cell> cursor);

    /// Paints everything but the background (the model has rows and bits).
    void paint(QPainter& p) const;

private:
    void paintRow(QPainter& p, const HeatmapLayout::Panel& panel, int row, bool withLabel) const;
    void paintInfo(QPainter& p, int row) const;

    const AllocationModel& m_model;
    const HeatmapLayout& m_layout;
    const QWidget& m_widget;
    int m_gridLeft;
    std::optional<Cell> m_cursor;
};
