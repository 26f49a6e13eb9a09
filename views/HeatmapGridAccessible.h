// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class HeatmapGrid;

/// Screen-reader support for the painted heatmap (issue 16 item 8). The grid is a table whose children are its
/// cells in the current domain; a cell's name says what the keyboard cursor is on ("streamer, domain 0, bit 3:
/// allocated"), the grid's value is the cursor cell's name, and focusChild() is the cursor cell.
namespace heatmapaccessible {
/// Installs the accessibility factory for HeatmapGrid (once per process; HeatmapGrid's constructor calls it).
void install();
/// The cursor moved: tells assistive technology (a value change on the grid, and a focus change to the cell when
/// the grid has the focus). Nothing when no screen reader is active.
void cursorMoved(HeatmapGrid* grid);
} // namespace heatmapaccessible
