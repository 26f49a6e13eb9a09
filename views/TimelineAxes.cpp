// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineAxes.h"

#include "AxisLabelFit.h"
#include "MarginProbeAxisRect.h"
#include "QCustomPlotInclude.h"

#include <algorithm>

TimelineAxes::TimelineAxes(QCustomPlot* plot, double windowSeconds)
    : m_plot(plot)
{
    // Row 0: occupancy; row 1: bandwidth. One margin group aligns the axes.
    m_occRect = new MarginProbeAxisRect(m_plot);
    m_bwRect = new MarginProbeAxisRect(m_plot);
    m_plot->plotLayout()->addElement(0, 0, m_occRect);
    m_plot->plotLayout()->addElement(1, 0, m_bwRect);
    m_plot->plotLayout()->setRowSpacing(0);
    auto* margins = new QCPMarginGroup(m_plot);
    for (auto* rect : { m_occRect, m_bwRect }) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        rect->axis(QCPAxis::atLeft)->setRange(0, 1);
        rect->axis(QCPAxis::atBottom)->setRange(0, windowSeconds);
        rect->axis(QCPAxis::atLeft)->setPadding(4);
    }
    m_occRect->axis(QCPAxis::atLeft)->setLabel(tr("LLC occupancy (MiB)"));
    m_bwRect->axis(QCPAxis::atLeft)->setLabel(tr("Memory bandwidth (GB/s)"));
    // Each title as long as its plot is tall: short plots stacked in a small window keep their titles apart.
    QObject::connect(m_plot, &QCustomPlot::afterLayout, m_plot, [plot = m_plot, occ = m_occRect, bw = m_bwRect] {
        const bool occFits
            = fitAxisLabel(occ->axis(QCPAxis::atLeft), { tr("LLC occupancy (MiB)"), tr("Occupancy (MiB)"), tr("MiB") });
        const bool bwFits = fitAxisLabel(
            bw->axis(QCPAxis::atLeft), { tr("Memory bandwidth (GB/s)"), tr("Bandwidth (GB/s)"), tr("GB/s") });
        if (occFits || bwFits) plot->replot(QCustomPlot::rpQueuedReplot);
    });
    m_bwRect->axis(QCPAxis::atBottom)->setLabel(tr("Time (s)"));
    m_occRect->axis(QCPAxis::atBottom)->setTickLabels(false);

    // One shared time axis: whichever rect the user drags or zooms, the other follows.
    auto* occX = m_occRect->axis(QCPAxis::atBottom);
    auto* bwX = m_bwRect->axis(QCPAxis::atBottom);
    QObject::connect(
        occX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), bwX, qOverload<const QCPRange&>(&QCPAxis::setRange));
    QObject::connect(
        bwX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), occX, qOverload<const QCPRange&>(&QCPAxis::setRange));
}

QCPAxis* TimelineAxes::timeAxis() const
{
    return m_bwRect->axis(QCPAxis::atBottom);
}

QCPAxis* TimelineAxes::occupancyAxis() const
{
    return m_occRect->axis(QCPAxis::atLeft);
}

QCPAxis* TimelineAxes::bandwidthAxis() const
{
    return m_bwRect->axis(QCPAxis::atLeft);
}

int TimelineAxes::neededAxisLeft() const
{
    // The margin group gives both rects the larger of their needs.
    const int need = std::max(m_occRect->neededMargin(QCP::msLeft), m_bwRect->neededMargin(QCP::msLeft));
    return m_plot->mapToGlobal(QPoint(m_occRect->outerRect().left() + need, 0)).x();
}

void TimelineAxes::setAxisLeftAtLeast(std::optional<int> x)
{
    const int outerLeft = m_plot->mapToGlobal(QPoint(m_occRect->outerRect().left(), 0)).x();
    const int margin = x ? std::max(0, *x - outerLeft) : 0;
    if (m_occRect->minimumMargins().left() == margin) return;
    for (auto* rect : { m_occRect, m_bwRect }) {
        QMargins m = rect->minimumMargins();
        m.setLeft(margin);
        rect->setMinimumMargins(m);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}
