// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineView.h"
#include "rdt/GroupNames.h"

#include "TimelineAxes.h"
#include "TimelineExport.h"
#include "TimelineGroupList.h"
#include "TimelineMarkerLayer.h"
#include "TimelineToolbar.h"

#include "EnvelopePoints.h"
#include "GroupColors.h"
#include "MarginProbeAxisRect.h"
#include "PlotPalette.h"
#include "QCustomPlotInclude.h"
#include "models/FramePump.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QShortcut>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGB = 1e9;

double scaleOf(Metric m)
{
    return m == Metric::Occupancy ? 1.0 / kMiB : 1.0 / kGB;
}

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

TimelineView::TimelineView(FramePump* pump, QWidget* parent)
    : QWidget(parent)
    , m_pump(pump)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_toolbar = new TimelineToolbar(m_metricVisible, this);
    connect(m_toolbar, &TimelineToolbar::followToggled, this, &TimelineView::setFollow);
    connect(m_toolbar, &TimelineToolbar::windowChosen, this, &TimelineView::setWindowSeconds);
    connect(m_toolbar, &TimelineToolbar::metricToggled, this, &TimelineView::setMetricVisible);
    connect(m_toolbar, &TimelineToolbar::clearRangeClicked, this, &TimelineView::clearSelectedRange);
    connect(m_toolbar, &TimelineToolbar::exportRequested, this,
        [this](TimelineToolbar::ExportFormat format, const QString& path) {
            QString error;
            const bool written = format == TimelineToolbar::ExportFormat::Png ? exportPng(path, &error)
                : format == TimelineToolbar::ExportFormat::Svg                ? exportSvg(path, &error)
                                                                              : exportCsv(path, &error);
            if (!written) QMessageBox::warning(this, tr("Export failed"), error);
        });
    layout->addWidget(m_toolbar);
    m_notMeasured = new QLabel(this);
    m_notMeasured->setObjectName(QStringLiteral("timelineNotMeasured"));
    m_notMeasured->setWordWrap(true);
    m_notMeasured->hide();
    layout->addWidget(m_notMeasured);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(2);
    m_plot = new QCustomPlot(this);
    m_plot->setAccessibleName(tr("Occupancy and bandwidth timelines"));
    m_plot->setAccessibleDescription(tr("LLC occupancy (top) and memory bandwidth (bottom) per group over time; the "
                                        "group list beside the plot has the same groups as text."));
    m_plot->setMinimumHeight(260);
    row->addWidget(m_plot, 1);
    m_groupList = new TimelineGroupList(this);
    m_groupList->setMinimumWidth(170);
    m_groupList->setMaximumWidth(320);
    row->addWidget(m_groupList);
    layout->addLayout(row, 1);
    connect(m_groupList, &TimelineGroupList::checkedChanged, this, &TimelineView::setGroupVisible);
    connect(m_groupList, &TimelineGroupList::topRequested, this, &TimelineView::showTopGroups);

    m_plot->plotLayout()->clear();
    m_plot->setNoAntialiasingOnDrag(true);
    // phFastPolylines would make QCustomPlot issue one QPainter::drawLine call per segment (its "fast" path for
    // solid pens); with ~150k segments per frame the per-call setup of the raster engine's cosmetic stroker
    // dominated the frame (callgrind: 69% of the replot). Off, each graph is one drawPolyline call.
    m_plot->setPlottingHint(QCP::phFastPolylines, false);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_export = std::make_unique<TimelineExport>(m_plot);
    m_axes = std::make_unique<TimelineAxes>(m_plot, m_window);
    m_markers = std::make_unique<TimelineMarkerLayer>(m_plot, m_axes->occupancy(), m_axes->bandwidth());
    connect(m_axes->occupancy()->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
        [this] { m_markers->alignLabels(); });
    setupInteraction();
    setupSelection();
    applyPalette();
    if (m_pump) {
        connect(m_pump, &FramePump::frame, this, &TimelineView::refresh);
        connect(m_pump, &FramePump::seriesReset, this, &TimelineView::clearSeries);
    }
}

void TimelineView::setupInteraction()
{
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
    m_selector = new PlotRangeSelector(m_plot, { m_axes->occupancy(), m_axes->bandwidth() });
    connect(m_selector, &PlotRangeSelector::selected, this, [this](double from, double to) {
        m_toolbar->setClearRangeVisible(true);
        Q_EMIT rangeSelected(from, to);
    });
    connect(m_selector, &PlotRangeSelector::cleared, this, [this] {
        m_toolbar->setClearRangeVisible(false);
        Q_EMIT rangeCleared();
    });
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), this, this, &TimelineView::clearSelectedRange);
    esc->setContext(Qt::WidgetWithChildrenShortcut);
}

TimelineView::~TimelineView() = default;

void TimelineView::setFollow(bool follow)
{
    if (m_follow == follow) return;
    m_follow = follow;
    m_toolbar->setFollow(follow);
    Q_EMIT followChanged(follow);
    if (follow) refresh();
}

void TimelineView::setWindowSeconds(double seconds)
{
    if (seconds <= 0) return;
    m_window = seconds;
    m_toolbar->setWindowSeconds(seconds);
    refresh();
}

void TimelineView::setVisibleRange(double t0, double t1)
{
    if (!(t1 > t0)) return;
    setFollow(false);
    m_axes->timeAxis()->setRange(t0, t1);
    refresh();
}

std::pair<double, double> TimelineView::visibleRange() const
{
    const auto r = m_axes->timeAxis()->range();
    return { r.lower, r.upper };
}

int TimelineView::neededAxisLeft() const
{
    return m_axes->neededAxisLeft();
}

void TimelineView::setAxisLeftAtLeast(std::optional<int> x)
{
    m_axes->setAxisLeftAtLeast(x);
}

int TimelineView::markerCount() const
{
    return m_markers->count();
}

QString TimelineView::markerLabel(int i) const
{
    return m_markers->label(i);
}

int TimelineView::markerLabelRow(int i) const
{
    return m_markers->labelRow(i);
}

Qt::Alignment TimelineView::markerLabelAlignment(int i) const
{
    return m_markers->labelAlignment(i);
}

bool TimelineView::exportPng(const QString& path, QString* error)
{
    return m_export->writePng(path, error);
}

bool TimelineView::exportSvg(const QString& path, QString* error)
{
    return m_export->writeSvg(path, error);
}

bool TimelineView::exportCsv(const QString& path, QString* error)
{
    // Only what is plotted: a group unticked in the list is left out.
    return TimelineExport::writeCsv(
        path, m_pump, visibleRange(),
        [this](int storeIndex) { return storeIndex >= m_groups.size() || m_groups[storeIndex].visible; }, error);
}

void TimelineView::setMetricVisible(Metric metric, bool visible)
{
    m_metricVisible[static_cast<std::size_t>(metric)] = visible;
    m_toolbar->setMetricChecked(metric, visible);
    refresh();
}

bool TimelineView::metricVisible(Metric metric) const
{
    return m_metricVisible[static_cast<std::size_t>(metric)];
}

void TimelineView::setGroupVisible(const QString& group, bool visible)
{
    m_userChoice.insert(group, visible);
    for (auto& g : m_groups) {
        if (g.name != group) continue;
        g.visible = visible;
        // Exports list only what is plotted.
        if (visible)
            g.graphs[0]->addToLegend(m_plot->legend);
        else
            g.graphs[0]->removeFromLegend(m_plot->legend);
    }
    m_groupList->setChecked(group, visible);
    refresh();
}

void TimelineView::showTopGroups(int count)
{
    if (!m_pump) return;
    // The groups' total bandwidth over the last 10 s of their data: what "busy now" means on the timeline.
    const TimeSeriesStore& store = m_pump->store();
    std::vector<std::pair<double, int>> ranked;
    for (int gi = 0; gi < store.groupCount(); ++gi) {
        const double t1 = store.newestTime(gi);
        double peak = 0;
        store.forEachRaw(gi, t1 - 10.0, t1, [&](double, const std::array<double, kMetricCount>& v) {
            peak = std::max(peak, v[static_cast<std::size_t>(Metric::BandwidthTotal)]);
        });
        ranked.emplace_back(peak, gi);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = 0; i < ranked.size(); ++i)
        if (ranked[i].second < m_groups.size())
            setGroupVisible(m_groups[ranked[i].second].name, static_cast<int>(i) < count);
}

bool TimelineView::groupVisible(const QString& group) const
{
    for (const auto& g : m_groups) {
        if (g.name == group) return g.visible;
    }
    return false;
}

TimelineView::GroupGraphs& TimelineView::graphsFor(int storeIndex)
{
    while (m_groups.size() <= storeIndex) {
        const int index = static_cast<int>(m_groups.size());
        GroupGraphs g;
        g.name = m_pump ? m_pump->store().groupName(index) : QString();
        const QColor color = groupColor(index, palette());
        for (int m = 0; m < kMetricCount; ++m) {
            auto* rect = m == 0 ? m_axes->occupancy() : m_axes->bandwidth();
            auto* graph = m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            // 1 px pens: the raster engine's fast path (wider pens cost several times more per frame).
            QPen pen(color, 1.0);
            if (m == static_cast<int>(Metric::BandwidthLocal)) pen.setStyle(Qt::DashLine);
            if (m == static_cast<int>(Metric::BandwidthRemote)) pen.setStyle(Qt::DotLine);
            graph->setPen(pen);
            graph->setName(QString::fromStdString(rdt::displayGroup(g.name.toStdString())));
            graph->setProperty("group", g.name);
            graph->setProperty("metric", m);
            graph->setAdaptiveSampling(true);
            if (m != 0) graph->removeFromLegend(); // one export-legend entry per group (removed below if hidden)
            g.graphs[static_cast<std::size_t>(m)] = graph;
        }
        // A server has 100+ groups: the first few are plotted, the list (or Top N) picks the others. A choice the
        // user made survives a reset of the series (a seek in a replay).
        g.visible = m_userChoice.value(g.name, index < kInitiallyPlotted);
        if (!g.visible) g.graphs[0]->removeFromLegend();
        m_groupList->addGroup(
            g.name, QString::fromStdString(rdt::displayGroup(g.name.toStdString())), color, g.visible);
        m_groups.append(g);
    }
    return m_groups[storeIndex];
}

void TimelineView::refresh()
{
    if (!m_pump) return;
    const TimeSeriesStore& store = m_pump->store();
    auto* timeAxis = m_axes->timeAxis();
    if (m_follow) {
        const double now = std::max(m_pump->now(), 0.0);
        // Until a window's worth of data exists, show [0, max(now, 30 s)] rather than squeezing it to the left.
        timeAxis->setRange(std::max(0.0, now - m_window), std::max(now, std::min(m_window, 30.0)));
    }
    const QCPRange range = timeAxis->range();
    // One min/max column per two pixels: a min/max pair already draws a vertical stroke, so finer columns add
    // segments (paint time) without adding information.
    const int columns = std::max(50, m_axes->bandwidth()->width() / 2);

    double occMax = 0;
    double bwMax = 0;
    QVector<QCPGraphData> points;
    std::size_t totalPoints = 0;
    // Pass 1: bring every shown series up to date and find the visible peaks (the value axes depend on them).
    for (int gi = 0; gi < store.groupCount(); ++gi) {
        auto& g = graphsFor(gi);
        for (int m = 0; m < kMetricCount; ++m) {
            const auto mi = static_cast<std::size_t>(m);
            QCPGraph* graph = g.graphs[mi];
            ColumnEnvelope& envelope = g.envelopes[mi];
            const bool show = g.visible && m_metricVisible[mi];
            graph->setVisible(show);
            g.builtTolerance[mi] = -1; // nothing to draw from the envelope unless pass 1 says otherwise
            if (!show) {
                envelope.clear();
                if (!graph->data()->isEmpty()) graph->data()->clear();
                continue;
            }
            const double scale = scaleOf(static_cast<Metric>(m));
            double& axisMax = m == 0 ? occMax : bwMax;
            if (store.sampleCountIn(gi, range.lower, range.upper) <= 2 * static_cast<std::size_t>(columns)) {
                // Sparse: the raw points themselves (a few hundred at most) show more than a column envelope.
                envelope.clear();
                const auto d = store.decimate(gi, static_cast<Metric>(m), range.lower, range.upper, columns);
                points.resize(static_cast<qsizetype>(d.keys.size()));
                for (std::size_t i = 0; i < d.keys.size(); ++i) {
                    points[static_cast<qsizetype>(i)] = QCPGraphData(d.keys[i], d.values[i] * scale);
                    if (d.keys[i] >= range.lower && d.keys[i] <= range.upper)
                        axisMax = std::max(axisMax, d.values[i] * scale);
                }
                graph->data()->set(points, true);
                continue;
            }
            // Dense: the incremental envelope; a series whose columns did not change keeps its plotted data.
            const bool changed = envelope.update(store, gi, static_cast<Metric>(m), range.lower, range.upper, columns);
            g.builtTolerance[mi] = changed ? std::numeric_limits<double>::infinity() : g.pointsTolerance[mi];
            axisMax = std::max(axisMax, envelope.maxIn(range.lower, range.upper) * scale);
        }
    }
    // Value axes fit the visible peaks with headroom; never collapse to zero height.
    auto* occY = m_axes->occupancyAxis();
    auto* bwY = m_axes->bandwidthAxis();
    occY->setRange(0, std::max(occMax * m_markers->occupancyHeadroom(range), 1.0));
    bwY->setRange(0, std::max(bwMax * 1.12, 0.1));
    // Pass 2: plotted points of the envelopes, dropping vertices less than half a pixel from the line already
    // drawn (invisible, and they are most of a smooth series' segments). Points built for a coarser axis are
    // rebuilt when the axis got finer.
    const double occTol = 0.5 * occY->range().size() / std::max(1, m_axes->occupancy()->height());
    const double bwTol = 0.5 * bwY->range().size() / std::max(1, m_axes->bandwidth()->height());
    for (int gi = 0; gi < m_groups.size(); ++gi) {
        auto& g = m_groups[gi];
        for (int m = 0; m < kMetricCount; ++m) {
            const auto mi = static_cast<std::size_t>(m);
            const double tol = m == 0 ? occTol : bwTol;
            if (g.builtTolerance[mi] >= 0 && g.builtTolerance[mi] > tol) {
                envelopePoints(g.envelopes[mi], scaleOf(static_cast<Metric>(m)), tol, points);
                g.graphs[mi]->data()->set(points, true);
                g.pointsTolerance[mi] = tol;
            }
            if (g.graphs[mi]->visible()) totalPoints += static_cast<std::size_t>(g.graphs[mi]->dataCount());
        }
    }
    // Antialiasing costs several times more per segment: keep it for a handful of series, drop it for dashboards
    // with tens of groups (64 groups x 2 series x ~1 point per pixel column is ~150k segments per frame).
    const bool smooth = totalPoints < 40000;
    if (smooth != m_smooth) {
        m_smooth = smooth;
        smooth ? m_plot->setNotAntialiasedElements(QCP::aeNone) : m_plot->setNotAntialiasedElements(QCP::aePlottables);
    }
    m_markers->sync(m_pump->markers(), palette());
    m_markers->alignLabels();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::clearSeries()
{
    m_plot->clearGraphs();
    m_groups.clear();
    m_groupList->clear(); // the rows come back with the series; m_userChoice keeps what the user picked
    m_markers->clear();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int TimelineView::plottedPoints(const QString& group, Metric metric) const
{
    for (const auto& g : m_groups) {
        if (g.name == group) return g.graphs[static_cast<std::size_t>(metric)]->dataCount();
    }
    return 0;
}

void TimelineView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) applyPalette();
}

void TimelineView::applyPalette()
{
    const QPalette pal = palette();
    applyPlotPalette(m_plot, pal); // background, axes, grid and legend text as every plot of the GUI
    m_plot->legend->setBorderPen(Qt::NoPen);
    for (int i = 0; i < m_groups.size(); ++i) {
        const QColor c = groupColor(i, pal);
        for (auto* graph : m_groups[i].graphs) {
            QPen pen = graph->pen();
            pen.setColor(c);
            graph->setPen(pen);
        }
    }
    m_markers->invalidate(); // rebuild markers in the new colours
    if (m_pump) refresh();
}

void TimelineView::setNotMeasured(const QString& why)
{
    m_notMeasured->setText(why.isEmpty() ? QString() : tr("Nothing is measured here: %1.").arg(why));
    m_notMeasured->setVisible(!why.isEmpty());
    // The layout asks a word-wrapped label for one line; the reason may take several at a narrow width, so the plot
    // (which then draws only the write markers) gives up the room rather than reach past the page.
    m_plot->setMinimumHeight(why.isEmpty() ? 260 : 180);
}

QString TimelineView::notMeasured() const
{
    return m_notMeasured->isHidden() ? QString() : m_notMeasured->text();
}
