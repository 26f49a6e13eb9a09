// SPDX-License-Identifier: GPL-3.0-or-later
#include "TelemetryTimeline.h"
#include "rdt/GroupNames.h"

#include "GroupColors.h"
#include "PlotPalette.h"
#include "QCustomPlotInclude.h"
#include "TimelineView.h"
#include "models/FramePump.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

TelemetryTimeline::TelemetryTimeline(FramePump* pump, TimelineView* timelines, QWidget* parent)
    : QWidget(parent)
    , m_pump(pump)
    , m_timelines(timelines)
{
    setObjectName(QStringLiteral("telemetryTimeline"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(tr("Package telemetry (resctrl PERF_PKG_MON): power of each group's cores, summed over "
                            "packages"),
        this);
    layout->addWidget(m_title);
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumHeight(120);
    m_plot->xAxis->setLabel(tr("Time (s)")); // the timelines' label and unit style
    m_plot->yAxis->setLabel(tr("Power (W)"));
    m_plot->legend->setVisible(true);
    keepPlotPalette(m_plot);
    layout->addWidget(m_plot, 1);
    setVisible(false); // until the first telemetry batch
    if (m_pump) {
        connect(m_pump, &FramePump::frame, this, [this] { refresh(); });
        connect(m_pump, &FramePump::seriesReset, this, [this] { refresh(); });
    }
}

void TelemetryTimeline::refresh()
{
    if (!m_pump) return;
    const TelemetryHistory& history = m_pump->telemetry();
    if (history.empty()) {
        if (m_plot->graphCount() > 0) {
            m_plot->clearGraphs();
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
        setVisible(false);
        if (m_timelines) m_timelines->setAxisLeftAtLeast(std::nullopt); // the timelines' own room again
        return;
    }
    if (isHidden()) {
        setVisible(true);
        claimSplitterRoom();
    }
    const auto range = m_timelines ? m_timelines->visibleRange() : std::pair<double, double> { 0.0, m_pump->now() };
    const QStringList groups = history.groups();
    // The timelines' colours: a group keeps its colour across plots (TimeSeriesStore index).
    const QStringList storeGroups = m_pump->store().groupNames();
    m_plot->clearGraphs();
    double top = 1.0;
    for (const QString& group : groups) {
        const auto* points = history.points(group);
        if (!points) continue;
        QVector<double> keys, values;
        double joulesPerSecond = 0, activity = 0;
        for (const auto& p : *points) {
            if (p.t < range.first || p.t > range.second) continue;
            keys << p.t;
            values << p.watts;
            top = std::max(top, p.watts);
            joulesPerSecond = p.watts;
            activity = p.faradsPerSecond;
        }
        QCPGraph* g = m_plot->addGraph();
        const int index = static_cast<int>(storeGroups.indexOf(group));
        g->setPen(QPen(groupColor(index < 0 ? m_plot->graphCount() - 1 : index, palette()), 1.5));
        g->setName(tr("%1: %2 W, %3 F/s")
                       .arg(QString::fromStdString(rdt::displayGroup(group.toStdString())))
                       .arg(joulesPerSecond, 0, 'f', 2)
                       .arg(activity, 0, 'f', 3));
        g->setData(keys, values, true);
    }
    m_plot->xAxis->setRange(range.first, range.second);
    m_plot->yAxis->setRange(0, top * 1.1);
    alignWithTimelines();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TelemetryTimeline::alignWithTimelines()
{
    QCustomPlot* other = m_timelines ? m_timelines->plot() : nullptr;
    if (!other || !other->isVisible()) return;
    // Left: the axis starts where the wider of the two plots' own labels needs it. This plot's minimum comes from
    // what the timelines need by themselves, theirs from where this plot's axis is (so neither holds the other up).
    // Right: the timelines end left of their group list. Laid out by the last replots: a frame behind at most.
    const int plotLeft = m_plot->mapToGlobal(QPoint(0, 0)).x();
    const int plotRight = plotLeft + m_plot->width();
    const QRect rect = other->axisRect()->rect();
    const int otherRight = other->mapToGlobal(rect.topLeft()).x() + rect.width();
    const QMargins want(
        std::max(0, m_timelines->neededAxisLeft() - plotLeft), 0, std::max(0, plotRight - otherRight), 0);
    if (m_plot->axisRect()->minimumMargins() != want) m_plot->axisRect()->setMinimumMargins(want);
    m_timelines->setAxisLeftAtLeast(m_plot->mapToGlobal(m_plot->axisRect()->rect().topLeft()).x());
}

void TelemetryTimeline::claimSplitterRoom()
{
    auto* split = qobject_cast<QSplitter*>(parentWidget());
    if (!split) return;
    const int index = split->indexOf(this);
    QList<int> sizes = split->sizes();
    if (index < 0 || sizes.value(index) > 0) return;
    const int total = std::accumulate(sizes.begin(), sizes.end(), 0);
    if (total <= 0) return; // not laid out yet: the splitter sizes it when it is
    // A quarter of the splitter (at least the plot's minimum), taken from the largest of the other widgets.
    const int want = std::max(minimumSizeHint().height(), total / 4);
    int largest = index == 0 ? 1 : 0;
    for (int i = 0; i < sizes.size(); ++i)
        if (i != index && sizes[i] > sizes[largest]) largest = i;
    const int taken = std::min(want, std::max(0, sizes[largest] - 1));
    sizes[largest] -= taken;
    sizes[index] = taken;
    split->setSizes(sizes);
}

int TelemetryTimeline::plottedPoints(const QString& group) const
{
    const QString prefix = QString::fromStdString(rdt::displayGroup(group.toStdString())) + QStringLiteral(":");
    for (int i = 0; i < m_plot->graphCount(); ++i)
        if (m_plot->graph(i)->name().startsWith(prefix)) return m_plot->graph(i)->dataCount();
    return 0;
}
