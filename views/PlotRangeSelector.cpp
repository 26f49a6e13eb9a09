// SPDX-License-Identifier: GPL-3.0-or-later
#include "PlotRangeSelector.h"

#include "QCustomPlotInclude.h"

#include <cmath>

namespace {

QCPItemRect* makeBand(QCustomPlot* plot, QCPAxisRect* rect, bool linked)
{
    auto* band = new QCPItemRect(plot);
    band->setClipAxisRect(rect);
    for (auto* pos : { band->topLeft, band->bottomRight }) {
        pos->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        pos->setAxisRect(rect);
        pos->setTypeX(QCPItemPosition::ptPlotCoords);
        pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    // Selection: blue, dashed; linked (chosen on the TMA plot): grey, dotted.
    band->setPen(linked ? QPen(QColor(120, 120, 120), 1, Qt::DotLine) : QPen(QColor(40, 110, 200), 1, Qt::DashLine));
    band->setBrush(linked ? QColor(128, 128, 128, 40) : QColor(40, 110, 200, 45));
    band->setSelectable(false);
    band->setVisible(false);
    return band;
}

} // namespace

PlotRangeSelector::PlotRangeSelector(QCustomPlot* plot, std::vector<QCPAxisRect*> rects)
    : QObject(plot)
    , m_plot(plot)
    , m_rects(std::move(rects))
{
    for (auto* rect : m_rects) {
        m_bands.push_back(makeBand(plot, rect, false));
        m_linkedBands.push_back(makeBand(plot, rect, true));
    }
    connect(plot, &QCustomPlot::mousePress, this, &PlotRangeSelector::press);
    connect(plot, &QCustomPlot::mouseMove, this, &PlotRangeSelector::move);
    connect(plot, &QCustomPlot::mouseRelease, this, &PlotRangeSelector::release);
    connect(plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { clear(); });
}

double PlotRangeSelector::coordAt(const QMouseEvent* e) const
{
    return m_rects.back()->axis(QCPAxis::atBottom)->pixelToCoord(e->position().x());
}

void PlotRangeSelector::press(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || !(e->modifiers() & Qt::ShiftModifier) || !m_plot->axisRectAt(e->position()))
        return;
    m_dragging = true;
    m_plot->setInteraction(QCP::iRangeDrag, false); // back on at release
    m_dragFrom = coordAt(e);
    showBands(m_bands, m_dragFrom, m_dragFrom, true);
}

void PlotRangeSelector::move(QMouseEvent* e)
{
    if (m_dragging) showBands(m_bands, m_dragFrom, coordAt(e), true);
}

void PlotRangeSelector::release(QMouseEvent* e)
{
    if (!m_dragging) return;
    m_dragging = false;
    m_plot->setInteraction(QCP::iRangeDrag, true);
    // Less than 3 px is a click, not a range: the previous selection stays as it was.
    const double startPx = m_rects.back()->axis(QCPAxis::atBottom)->coordToPixel(m_dragFrom);
    if (std::abs(e->position().x() - startPx) < 3) {
        showBands(m_bands, m_from, m_to, m_has);
        return;
    }
    select(m_dragFrom, coordAt(e));
}

void PlotRangeSelector::select(double from, double to)
{
    if (from > to) std::swap(from, to);
    m_has = true;
    m_from = from;
    m_to = to;
    showBands(m_bands, from, to, true);
    Q_EMIT selected(from, to);
}

void PlotRangeSelector::clear()
{
    if (m_dragging) {
        m_dragging = false;
        m_plot->setInteraction(QCP::iRangeDrag, true);
    }
    showBands(m_bands, 0, 0, false);
    if (!m_has) return;
    m_has = false;
    Q_EMIT cleared();
}

void PlotRangeSelector::showLinked(double from, double to, bool visible)
{
    showBands(m_linkedBands, from, to, visible);
}

bool PlotRangeSelector::linkedVisible() const
{
    return m_linkedBands.front()->visible();
}

std::pair<double, double> PlotRangeSelector::linked() const
{
    return { m_linkedBands.front()->topLeft->coords().x(), m_linkedBands.front()->bottomRight->coords().x() };
}

void PlotRangeSelector::showBands(const std::vector<QCPItemRect*>& bands, double from, double to, bool visible)
{
    if (from > to) std::swap(from, to);
    for (auto* band : bands) {
        band->setVisible(visible);
        band->topLeft->setCoords(from, 0);
        band->bottomRight->setCoords(to, 1);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}
