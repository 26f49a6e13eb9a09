// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shift+drag selection of an x range across the axis rects of a QCustomPlot (a shared time axis), shown as a
// band on each rect while dragging and once selected; a double-click clears it. A second, passive band shows a
// range chosen elsewhere (the TMA plot's). Plain drags keep panning: QCustomPlot emits mousePress before the axis
// rect starts a drag, so range dragging is switched off for the length of a shift+drag only.

#include <QObject>

#include <utility>
#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPItemRect;
class QMouseEvent;

class PlotRangeSelector : public QObject {
    Q_OBJECT
public:
    /// `rects` share one x axis range; the last one's bottom axis converts pixels to coordinates.
    PlotRangeSelector(QCustomPlot* plot, std::vector<QCPAxisRect*> rects);

    /// Selects [from, to] (swapped when reversed) and emits selected.
    void select(double from, double to);
    /// Hides the selection; emits cleared when there was one.
    void clear();
    bool hasSelection() const { return m_has; }
    std::pair<double, double> selection() const { return { m_from, m_to }; }

    void showLinked(double from, double to, bool visible);
    bool linkedVisible() const;
    std::pair<double, double> linked() const;

Q_SIGNALS:
    void selected(double from, double to);
    void cleared();

private:
    void press(QMouseEvent* e);
    void move(QMouseEvent* e);
    void release(QMouseEvent* e);
    void showBands(const std::vector<QCPItemRect*>& bands, double from, double to, bool visible);
    double coordAt(const QMouseEvent* e) const;

    QCustomPlot* m_plot;
    std::vector<QCPAxisRect*> m_rects;
    std::vector<QCPItemRect*> m_bands; ///< the selection, one per rect
    std::vector<QCPItemRect*> m_linkedBands; ///< a range chosen elsewhere, one per rect
    bool m_dragging = false;
    double m_dragFrom = 0;
    bool m_has = false;
    double m_from = 0, m_to = 0;
};
