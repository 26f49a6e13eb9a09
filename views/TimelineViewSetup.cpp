// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineView's construction: the toolbar, the two stacked axis rects (occupancy over bandwidth) and the range
// selection. What the plot shows and how it refreshes is in TimelineView.cpp.
#include "TimelineView.h"

#include "AxisLabelFit.h"
#include "MarginProbeAxisRect.h"
#include "QCustomPlotInclude.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QMouseEvent>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

namespace {
QString conceptOf(Metric m)
{
    switch (m) {
    case Metric::Occupancy:
        return QStringLiteral("llc-occupancy");
    case Metric::BandwidthTotal:
        return QStringLiteral("mbm-total");
    case Metric::BandwidthLocal:
        return QStringLiteral("mbm-local");
    case Metric::BandwidthRemote:
        return QStringLiteral("mbm-remote");
    }
    return {};
}
} // namespace

void TimelineView::buildToolbar()
{
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    m_followBox = new QCheckBox(tr("Follow"), this);
    m_followBox->setChecked(true);
    m_followBox->setToolTip(tr("Keep the newest data in view; zooming or panning pauses following"));
    connect(m_followBox, &QCheckBox::toggled, this, &TimelineView::setFollow);
    bar->addWidget(m_followBox);

    m_windowBox = new QComboBox(this);
    for (const auto& [label, seconds] : { std::pair { tr("1 min"), 60 }, std::pair { tr("5 min"), 300 },
             std::pair { tr("15 min"), 900 }, std::pair { tr("1 h"), 3600 } })
        m_windowBox->addItem(label, seconds);
    m_windowBox->setCurrentIndex(1);
    m_windowBox->setToolTip(tr("Time window shown while following"));
    m_windowBox->setAccessibleName(tr("Time window"));
    connect(m_windowBox, &QComboBox::currentIndexChanged, this,
        [this](int i) { setWindowSeconds(m_windowBox->itemData(i).toDouble()); });
    bar->addWidget(m_windowBox);
    bar->addSpacing(12);

    const QString names[kMetricCount]
        = { tr("Occupancy"), tr("Total BW"), tr("Local BW"), tr("Remote BW (total \u2212 local)") };
    for (int m = 0; m < kMetricCount; ++m) {
        auto* box = new QCheckBox(names[m], this);
        box->setChecked(m_metricVisible[static_cast<std::size_t>(m)]);
        connect(box, &QCheckBox::toggled, this, [this, m](bool on) { setMetricVisible(static_cast<Metric>(m), on); });
        m_metricBoxes[static_cast<std::size_t>(m)] = box;
        bar->addWidget(box);
    }
    bar->addStretch(1);
    m_clearRangeButton = new QToolButton(this);
    m_clearRangeButton->setText(tr("Clear range"));
    m_clearRangeButton->setToolTip(tr("Clear the selected time range (Esc or a double-click on the plot also clear "
                                      "it); the PMU views show the whole run again"));
    m_clearRangeButton->setVisible(false);
    connect(m_clearRangeButton, &QToolButton::clicked, this, &TimelineView::clearSelectedRange);
    bar->addWidget(m_clearRangeButton);
    m_exportButton = new QToolButton(this);
    m_exportButton->setText(tr("Export"));
    m_exportButton->setToolTip(tr("Export the visible range as PNG, SVG or CSV"));
    m_exportButton->setPopupMode(QToolButton::InstantPopup);
    exportMenu();
    bar->addWidget(m_exportButton);
    static_cast<QVBoxLayout*>(layout())->addLayout(bar);
}

void TimelineView::setupPlot()
{
    m_plot->plotLayout()->clear();
    m_plot->setNoAntialiasingOnDrag(true);
    // phFastPolylines would make QCustomPlot issue one QPainter::drawLine call per segment (its "fast" path for
    // solid pens); with ~150k segments per frame the per-call setup of the raster engine's cosmetic stroker
    // dominated the frame (callgrind: 69% of the replot). Off, each graph is one drawPolyline call.
    m_plot->setPlottingHint(QCP::phFastPolylines, false);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    // Row 0: occupancy; row 1: bandwidth. One margin group aligns the axes. The legend on screen is the group list
    // beside the plot (whole names, check boxes); the in-plot legend below joins the layout only for an export.
    m_plot->legend = new QCPLegend;
    m_plot->legend->setVisible(true);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(4);
    m_plot->legend->setIconSize(18, 8);
    m_exportLegend = new QCPLayoutGrid;
    m_exportLegend->addElement(0, 0, m_plot->legend);
    m_exportLegend->setMargins(QMargins(4, 2, 4, 0));
    // Added to the plot's layout once, so the legend belongs to this plot (addToLegend refuses a legend of no plot,
    // and exports then listed no group), then taken out until an export shows it.
    m_plot->plotLayout()->addElement(0, 0, m_exportLegend);
    m_plot->plotLayout()->take(m_exportLegend);
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
        rect->axis(QCPAxis::atBottom)->setRange(0, m_window);
        rect->axis(QCPAxis::atLeft)->setPadding(4);
    }
    m_occRect->axis(QCPAxis::atLeft)->setLabel(tr("LLC occupancy (MiB)"));
    m_bwRect->axis(QCPAxis::atLeft)->setLabel(tr("Memory bandwidth (GB/s)"));
    // Each title as long as its plot is tall: short plots stacked in a small window keep their titles apart.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        const bool occ = fitAxisLabel(
            m_occRect->axis(QCPAxis::atLeft), { tr("LLC occupancy (MiB)"), tr("Occupancy (MiB)"), tr("MiB") });
        const bool bw = fitAxisLabel(
            m_bwRect->axis(QCPAxis::atLeft), { tr("Memory bandwidth (GB/s)"), tr("Bandwidth (GB/s)"), tr("GB/s") });
        if (occ || bw) m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    m_bwRect->axis(QCPAxis::atBottom)->setLabel(tr("Time (s)"));
    m_occRect->axis(QCPAxis::atBottom)->setTickLabels(false);

    // One shared time axis: whichever rect the user drags or zooms, the other follows.
    auto* occX = m_occRect->axis(QCPAxis::atBottom);
    auto* bwX = m_bwRect->axis(QCPAxis::atBottom);
    connect(
        occX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), bwX, qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(
        bwX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), occX, qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(occX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &TimelineView::alignMarkerLabels);

    // A user's wheel or drag inside a plot pauses following (a legend click does not).
    auto pauseIfInPlot = [this](QMouseEvent* event) {
        if (m_plot->axisRectAt(event->position())) setFollow(false);
    };
    connect(m_plot, &QCustomPlot::mousePress, this, pauseIfInPlot);
    connect(m_plot, &QCustomPlot::mouseWheel, this, [this](QWheelEvent* event) {
        if (m_plot->axisRectAt(event->position())) setFollow(false);
    });
    connect(m_plot, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int, QMouseEvent*) {
        Q_EMIT explainRequested(conceptOf(static_cast<Metric>(p->property("metric").toInt())));
    });
    connect(m_plot, &QCustomPlot::itemClick, this,
        [this](QCPAbstractItem*, QMouseEvent*) { Q_EMIT explainRequested(QStringLiteral("allocation-change")); });
}

void TimelineView::setupSelection()
{
    m_plot->setFocusPolicy(Qt::ClickFocus); // so Esc reaches the view after a click on the plot
    m_plot->setToolTip(tr("Drag to pan, wheel to zoom; Shift+drag selects a time range for the PMU views"));
    m_selector = new PlotRangeSelector(m_plot, { m_occRect, m_bwRect });
    connect(m_selector, &PlotRangeSelector::selected, this, [this](double from, double to) {
        m_clearRangeButton->setVisible(true);
        Q_EMIT rangeSelected(from, to);
    });
    connect(m_selector, &PlotRangeSelector::cleared, this, [this] {
        m_clearRangeButton->setVisible(false);
        Q_EMIT rangeCleared();
    });
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), this, this, &TimelineView::clearSelectedRange);
    esc->setContext(Qt::WidgetWithChildrenShortcut);
}
