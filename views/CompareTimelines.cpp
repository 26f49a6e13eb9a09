// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareTimelines.h"
#include "rdt/GroupNames.h"

#include "GroupColors.h"
#include "PlotPalette.h"
#include "QCustomPlotInclude.h"

#include <QVBoxLayout>

#include <algorithm>
#include <set>

using namespace rdt::compare;

CompareTimelines::CompareTimelines(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setAutoAddPlottableToLegend(false); // each axis rect has its own legend (fill)
    keepPlotPalette(m_plot);
}

void CompareTimelines::setTimelines(const Timeline& a, const Timeline& b)
{
    m_a = a;
    m_b = b;
    alignAt(m_marker);
}

QStringList CompareTimelines::commonMarkers() const
{
    std::set<std::string> inA;
    for (const auto& m : m_a.markers)
        inA.insert(m.text);
    QStringList out;
    for (const auto& m : m_b.markers)
        if (inA.count(m.text) && !out.contains(QString::fromStdString(m.text))) out << QString::fromStdString(m.text);
    return out;
}

void CompareTimelines::alignAt(const QString& markerText)
{
    m_marker = markerText;
    auto offset = [&](const Timeline& t) {
        for (const auto& m : t.markers)
            if (!markerText.isEmpty() && QString::fromStdString(m.text) == markerText) return m.timeS;
        return 0.0;
    };
    m_offsetA = offset(m_a);
    m_offsetB = offset(m_b);
    rebuild();
}

void CompareTimelines::fill(QCPAxisRect* rect, const Timeline& t, double offset, const QString& title)
{
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* occ = rect->axis(QCPAxis::atLeft);
    QCPAxis* bw = rect->axis(QCPAxis::atRight);
    bw->setVisible(true);
    occ->setLabel(tr("%1: occupancy (MiB)").arg(title));
    bw->setLabel(tr("bandwidth (GB/s, dashed)"));
    x->setLabel(m_marker.isEmpty() ? tr("seconds since the start") : tr("seconds from \u201c%1\u201d").arg(m_marker));
    // Group colours by name across both sides, so "victim" is the same colour in A and B.
    std::set<std::string> names;
    for (const auto& [g, p] : m_a.groups)
        names.insert(g);
    for (const auto& [g, p] : m_b.groups)
        names.insert(g);
    auto* legend = new QCPLegend;
    rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    legend->setLayer(QStringLiteral("legend"));
    legend->setFont(font());
    legend->setBrush(QBrush(palette().color(QPalette::Base)));
    legend->setTextColor(palette().color(QPalette::Text));
    double occMax = 1, bwMax = 1;
    for (const auto& [group, points] : t.groups) {
        const int index = static_cast<int>(std::distance(names.begin(), names.find(group)));
        const QColor color = groupColor(index, palette());
        QVector<double> xs, ys, bs;
        for (const auto& p : points) {
            xs << p.timeS - offset;
            ys << p.occupancyBytes / 1048576.0;
            bs << p.totalBps / 1e9;
            occMax = std::max(occMax, ys.back());
            bwMax = std::max(bwMax, bs.back());
        }
        const QString name = QString::fromStdString(rdt::displayGroup(group));
        QCPGraph* g = m_plot->addGraph(x, occ);
        g->setData(xs, ys, true);
        g->setPen(QPen(color, 2));
        g->setName(name);
        legend->addItem(new QCPPlottableLegendItem(legend, g));
        QCPGraph* b = m_plot->addGraph(x, bw);
        b->setData(xs, bs, true);
        b->setPen(QPen(color, 1.5, Qt::DashLine));
    }
    occ->setRange(0, occMax * 1.1);
    bw->setRange(0, bwMax * 1.1);
    for (const auto& m : t.markers) {
        if (m.kind != "note" || m.timeS <= 0) continue;
        auto* line = new QCPItemStraightLine(m_plot);
        line->setClipAxisRect(rect);
        line->point1->setAxes(x, occ);
        line->point2->setAxes(x, occ);
        line->point1->setCoords(m.timeS - offset, 0);
        line->point2->setCoords(m.timeS - offset, 1);
        line->setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashDotLine));
        line->setSelectable(false);
    }
}

void CompareTimelines::rebuild()
{
    m_plot->clearItems();
    m_plot->clearGraphs();
    m_plot->plotLayout()->clear();
    auto* top = new QCPAxisRect(m_plot);
    auto* bottom = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(0, 0, top);
    m_plot->plotLayout()->addElement(1, 0, bottom);
    // One shared time axis: both rects keep the same x range and margins line up.
    auto* margins = new QCPMarginGroup(m_plot);
    top->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    bottom->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    connect(top->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
        bottom->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(bottom->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
        top->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    for (auto* rect : { top, bottom }) {
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
    }
    fill(top, m_a, m_offsetA, QStringLiteral("A"));
    fill(bottom, m_b, m_offsetB, QStringLiteral("B"));
    const double from = std::min(-m_offsetA, -m_offsetB);
    const double to = std::max(m_a.lengthS - m_offsetA, m_b.lengthS - m_offsetB);
    top->axis(QCPAxis::atBottom)->setRange(from, std::max(to, from + 1));
    applyPlotPalette(m_plot, palette()); // the axis rects are new
    m_plot->replot();
}
