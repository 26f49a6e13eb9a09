// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QCustomPlot;
class QPalette;

/// Colours a QCustomPlot from the widget palette (QCustomPlot paints white with black axes by default, whatever
/// the scheme): background and axis rects in Base, axes, ticks, labels and legend text in Text, grid in Mid.
/// Call it at construction and on QEvent::PaletteChange.
void applyPlotPalette(QCustomPlot* plot, const QPalette& palette);
/// applyPlotPalette() with the plot's palette now and whenever it changes (View > Colour scheme, the desktop's).
void keepPlotPalette(QCustomPlot* plot);
