// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineView.h"

#include "TimelineGroupList.h"

#include "EnvelopePoints.h"
#include "GroupColors.h"
#include "MarginProbeAxisRect.h"
#include "PlotPalette.h"
#include "QCustomPlotInclude.h"
#include "models/FramePump.h"

#include <QHBoxLayout>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace {
constexpr double kMarkerTop = 0.02; ///< the first row of marker labels, as a fraction of the plot's height
constexpr int kMarkerRows = 3; ///< rows of marker labels at most: the headroom above the lines is half the plot
constexpr int kMarkerGapPx = 6; ///< between two labels in one row

int markerRowPx(const QCPItemText* label)
{
    return QFontMetrics(label->font()).height() + label->padding().top() + label->padding().bottom() + 3;
}
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGB = 1e9;

double scaleOf(Metric m)
{
    return m == Metric::Occupancy ? 1.0 / kMiB : 1.0 / kGB;
}

QString groupLabel(const QString& group)
{
    return group.isEmpty() ? QStringLiteral("(default)") : group;
}

} // namespace

TimelineView::TimelineView(FramePump* pump, QWidget* parent)
    : QWidget(parent)
    , m_pump(pump)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    buildToolbar();
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
    setupPlot();
    setupSelection();
    applyPalette();
    if (m_pump) {
        connect(m_pump, &FramePump::frame, this, &TimelineView::refresh);
        connect(m_pump, &FramePump::seriesReset, this, &TimelineView::clearSeries);
    }
}

TimelineView::~TimelineView() = default;

void TimelineView::setFollow(bool follow)
{
    if (m_follow == follow) return;
    m_follow = follow;
    m_followBox->setChecked(follow);
    Q_EMIT followChanged(follow);
    if (follow) refresh();
}

void TimelineView::setWindowSeconds(double seconds)
{
    if (seconds <= 0) return;
    m_window = seconds;
    const int i = m_windowBox->findData(static_cast<int>(seconds));
    if (i >= 0 && i != m_windowBox->currentIndex()) m_windowBox->setCurrentIndex(i);
    refresh();
}

void TimelineView::setVisibleRange(double t0, double t1)
{
    if (!(t1 > t0)) return;
    setFollow(false);
    m_bwRect->axis(QCPAxis::atBottom)->setRange(t0, t1);
    refresh();
}

std::pair<double, double> TimelineView::visibleRange() const
{
    const auto r = m_bwRect->axis(QCPAxis::atBottom)->range();
    return { r.lower, r.upper };
}

int TimelineView::neededAxisLeft() const
{
    // The margin group gives both rects the larger of their needs.
    const int need = std::max(m_occRect->neededMargin(QCP::msLeft), m_bwRect->neededMargin(QCP::msLeft));
    return m_plot->mapToGlobal(QPoint(m_occRect->outerRect().left() + need, 0)).x();
}

void TimelineView::setAxisLeftAtLeast(std::optional<int> x)
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

void TimelineView::setMetricVisible(Metric metric, bool visible)
{
    m_metricVisible[static_cast<std::size_t>(metric)] = visible;
    if (auto* box = m_metricBoxes[static_cast<std::size_t>(metric)]; box->isChecked() != visible)
        box->setChecked(visible);
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
            auto* rect = m == 0 ? m_occRect : m_bwRect;
            auto* graph = m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            // 1 px pens: the raster engine's fast path (wider pens cost several times more per frame).
            QPen pen(color, 1.0);
            if (m == static_cast<int>(Metric::BandwidthLocal)) pen.setStyle(Qt::DashLine);
            if (m == static_cast<int>(Metric::BandwidthRemote)) pen.setStyle(Qt::DotLine);
            graph->setPen(pen);
            graph->setName(groupLabel(g.name));
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
        m_groupList->addGroup(g.name, groupLabel(g.name), color, g.visible);
        m_groups.append(g);
    }
    return m_groups[storeIndex];
}

void TimelineView::refresh()
{
    if (!m_pump) return;
    const TimeSeriesStore& store = m_pump->store();
    auto* timeAxis = m_bwRect->axis(QCPAxis::atBottom);
    if (m_follow) {
        const double now = std::max(m_pump->now(), 0.0);
        // Until a window's worth of data exists, show [0, max(now, 30 s)] rather than squeezing it to the left.
        timeAxis->setRange(std::max(0.0, now - m_window), std::max(now, std::min(m_window, 30.0)));
    }
    const QCPRange range = timeAxis->range();
    // One min/max column per two pixels: a min/max pair already draws a vertical stroke, so finer columns add
    // segments (paint time) without adding information.
    const int columns = std::max(50, m_bwRect->width() / 2);

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
    auto* occY = m_occRect->axis(QCPAxis::atLeft);
    auto* bwY = m_bwRect->axis(QCPAxis::atLeft);
    occY->setRange(0, std::max(occMax * occupancyHeadroom(range), 1.0));
    bwY->setRange(0, std::max(bwMax * 1.12, 0.1));
    // Pass 2: plotted points of the envelopes, dropping vertices less than half a pixel from the line already
    // drawn (invisible, and they are most of a smooth series' segments). Points built for a coarser axis are
    // rebuilt when the axis got finer.
    const double occTol = 0.5 * occY->range().size() / std::max(1, m_occRect->height());
    const double bwTol = 0.5 * bwY->range().size() / std::max(1, m_bwRect->height());
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
    syncMarkers();
    alignMarkerLabels();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::syncMarkers()
{
    const auto& markers = m_pump->markers();
    const double firstT = markers.empty() ? -1 : markers.front().t;
    if (static_cast<int>(markers.size()) == m_lastMarkerCount && firstT == m_lastMarkerT) return;
    for (auto* item : std::as_const(m_markerItems))
        m_plot->removeItem(item);
    m_markerItems.clear();
    m_markerLabels.clear();
    const QColor okColor = palette().color(QPalette::Text);
    const QColor badColor(0xd9, 0x35, 0x35);
    // Changes applied together (one apply writes every resource and domain; a replay opens with each group's
    // initial allocation) share a time: one line and one label for them, naming the first (a failed one if any)
    // and how many more, instead of labels drawn over each other. The CSV export lists each one.
    constexpr double kSameTime = 1e-3; // s
    for (std::size_t first = 0; first < markers.size();) {
        std::size_t end = first + 1;
        while (end < markers.size() && markers[end].t - markers[first].t <= kSameTime)
            ++end;
        std::size_t shown = first;
        for (std::size_t i = first; i < end; ++i)
            if (!markers[i].ok) {
                shown = i;
                break;
            }
        const TimelineMarker& marker = markers[shown];
        const QColor color = marker.ok ? okColor : badColor;
        for (auto* rect : { m_occRect, m_bwRect }) {
            auto* line = new QCPItemStraightLine(m_plot);
            line->setClipAxisRect(rect);
            line->point1->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            line->point2->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            line->point1->setCoords(markers[first].t, 0);
            line->point2->setCoords(markers[first].t, 1);
            line->setPen(QPen(color, 1, Qt::DashDotLine));
            m_markerItems.append(line);
        }
        auto* text = new QCPItemText(m_plot);
        text->setClipAxisRect(m_occRect);
        text->position->setAxes(m_occRect->axis(QCPAxis::atBottom), m_occRect->axis(QCPAxis::atLeft));
        text->position->setAxisRect(m_occRect);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        // The row is chosen by alignMarkerLabels; long labels are shortened (the CSV has them whole).
        text->position->setCoords(markers[first].t, kMarkerTop);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setPadding(QMargins(3, 1, 3, 1));
        const QString more = end - first > 1 ? tr(" (+%1 more)").arg(end - first - 1) : QString();
        const qsizetype room = 48 - more.size();
        const QString labelText
            = (marker.label.size() > room ? marker.label.left(room - 1) + QStringLiteral("\u2026") : marker.label)
            + more;
        text->setText(labelText);
        text->setProperty("fullText", labelText); // alignMarkerLabels may shorten it where labels crowd

        text->setColor(color);
        // Translucent: a series under the label still shows through.
        QColor base = palette().color(QPalette::Base);
        base.setAlpha(150);
        text->setBrush(QBrush(base));
        m_markerItems.append(text);
        m_markerLabels.append(text);
        first = end;
    }
    m_lastMarkerCount = static_cast<int>(markers.size());
    m_lastMarkerT = firstT;
}

void TimelineView::alignMarkerLabels()
{
    // A label that does not fit between its line and the plot's right edge would be cut there: it goes left of the
    // line instead. Each label takes the highest row where it clears the labels already there, so markers far apart
    // all sit in the top row and only neighbours step down. With every row taken (three at most: the headroom above
    // the lines is half the plot), it goes where the row's last label ends first and that label is shortened to end
    // before it, or hidden when too little of it would be left; zooming in gives the text back. Pixels, not times:
    // what collides depends on the zoom.
    constexpr int kShortestLabelPx = 36;
    const QCPAxis* time = m_occRect->axis(QCPAxis::atBottom);
    const int rightEdge = m_occRect->right();
    const double height = std::max(1, m_occRect->height());
    struct Placed {
        QCPItemText* label;
        double left;
        double end;
        bool fromLine; ///< left-aligned: it starts at its line and can be shortened from the right
    };
    std::array<std::vector<Placed>, kMarkerRows> rows;
    auto rowEnd = [](const std::vector<Placed>& row) {
        return row.empty() ? -std::numeric_limits<double>::infinity() : row.back().end;
    };
    for (auto* label : std::as_const(m_markerLabels)) { // in time order, as the markers came
        const QString full = label->property("fullText").toString();
        if (label->text() != full) label->setText(full);
        label->setVisible(true);
        const QFontMetrics metrics(label->font());
        const int padding = label->padding().left() + label->padding().right();
        const double x = time->coordToPixel(label->position->coords().x());
        const int width = metrics.horizontalAdvance(full) + padding;
        const Qt::Alignment side = x + width > rightEdge ? Qt::AlignRight : Qt::AlignLeft;
        if (label->positionAlignment() != (side | Qt::AlignTop)) label->setPositionAlignment(side | Qt::AlignTop);
        const double left = side == Qt::AlignRight ? x - width : x;
        auto row = std::find_if(
            rows.begin(), rows.end(), [&](const std::vector<Placed>& r) { return rowEnd(r) + kMarkerGapPx <= left; });
        if (row == rows.end()) {
            row = std::min_element(rows.begin(), rows.end(),
                [&](const std::vector<Placed>& a, const std::vector<Placed>& b) { return rowEnd(a) < rowEnd(b); });
            // Make room in that row: shorten the last label there if it starts at its line, else hide it and look
            // at the one before (a label left of its line reaches back over earlier ones).
            while (!row->empty() && row->back().end + kMarkerGapPx > left) {
                Placed& previous = row->back();
                const int room = static_cast<int>(left - kMarkerGapPx - previous.left) - padding;
                if (previous.fromLine && room >= kShortestLabelPx) {
                    previous.label->setText(metrics.elidedText(previous.label->text(), Qt::ElideRight, room));
                    previous.end = previous.left + metrics.horizontalAdvance(previous.label->text()) + padding;
                    break;
                }
                previous.label->setVisible(false);
                row->pop_back();
            }
        }
        row->push_back({ label, left, left + width, side == Qt::AlignLeft });
        const auto index = row - rows.begin();
        label->setProperty("markerRow", static_cast<int>(index));
        const double y = kMarkerTop + static_cast<double>(index) * markerRowPx(label) / height;
        if (label->position->coords().y() != y) label->position->setCoords(label->position->coords().x(), y);
    }
}

int TimelineView::markerLabelRow(int i) const
{
    const QCPItemText* label = m_markerLabels.value(i);
    return label ? label->property("markerRow").toInt() : -1;
}

Qt::Alignment TimelineView::markerLabelAlignment(int i) const
{
    return m_markerLabels.value(i) ? m_markerLabels[i]->positionAlignment() : Qt::Alignment();
}

double TimelineView::occupancyHeadroom(const QCPRange& visible) const
{
    // The rows of marker labels in view sit in the headroom, clear of the highest line (the labels hid a group's
    // occupancy near the top). At most half the plot: past that the lines would be too flat to read.
    constexpr double kHeadroom = 1.12;
    double lowest = 0; // the lowest label bottom in view, as a fraction of the plot's height from its top
    for (const QCPItemText* label : m_markerLabels) {
        if (!visible.contains(label->position->coords().x())) continue;
        lowest = std::max(lowest,
            label->position->coords().y() + static_cast<double>(markerRowPx(label)) / std::max(1, m_occRect->height()));
    }
    return std::max(kHeadroom, 1.0 / std::max(0.5, 1.0 - lowest));
}

QString TimelineView::markerLabel(int i) const
{
    return m_markerLabels.value(i) ? m_markerLabels[i]->text() : QString();
}

void TimelineView::clearSeries()
{
    m_plot->clearGraphs();
    m_groups.clear();
    m_groupList->clear(); // the rows come back with the series; m_userChoice keeps what the user picked
    for (auto* item : std::as_const(m_markerItems))
        m_plot->removeItem(item);
    m_markerItems.clear();
    m_markerLabels.clear();
    m_lastMarkerCount = 0;
    m_lastMarkerT = -1;
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
    m_lastMarkerCount = -1; // rebuild markers in the new colours
    if (m_pump) refresh();
}
