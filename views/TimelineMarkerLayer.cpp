// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineMarkerLayer.h"

#include "QCustomPlotInclude.h"

#include <algorithm>
#include <array>
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
} // namespace

TimelineMarkerLayer::TimelineMarkerLayer(QCustomPlot* plot, QCPAxisRect* occupancy, QCPAxisRect* bandwidth)
    : m_plot(plot)
    , m_occRect(occupancy)
    , m_bwRect(bandwidth)
{ }

void TimelineMarkerLayer::sync(const std::deque<TimelineMarker>& markers, const QPalette& palette)
{
    const double firstT = markers.empty() ? -1 : markers.front().t;
    if (static_cast<int>(markers.size()) == m_lastMarkerCount && firstT == m_lastMarkerT) return;
    for (auto* item : std::as_const(m_items))
        m_plot->removeItem(item);
    m_items.clear();
    m_labels.clear();
    const QColor okColor = palette.color(QPalette::Text);
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
            m_items.append(line);
        }
        auto* text = new QCPItemText(m_plot);
        text->setClipAxisRect(m_occRect);
        text->position->setAxes(m_occRect->axis(QCPAxis::atBottom), m_occRect->axis(QCPAxis::atLeft));
        text->position->setAxisRect(m_occRect);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        // The row is chosen by alignLabels; long labels are shortened (the CSV has them whole).
        text->position->setCoords(markers[first].t, kMarkerTop);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setPadding(QMargins(3, 1, 3, 1));
        const QString more = end - first > 1 ? tr(" (+%1 more)").arg(end - first - 1) : QString();
        const qsizetype room = 48 - more.size();
        const QString labelText
            = (marker.label.size() > room ? marker.label.left(room - 1) + QStringLiteral("\u2026") : marker.label)
            + more;
        text->setText(labelText);
        text->setProperty("fullText", labelText); // alignLabels may shorten it where labels crowd

        text->setColor(color);
        // Translucent: a series under the label still shows through.
        QColor base = palette.color(QPalette::Base);
        base.setAlpha(150);
        text->setBrush(QBrush(base));
        m_items.append(text);
        m_labels.append(text);
        first = end;
    }
    m_lastMarkerCount = static_cast<int>(markers.size());
    m_lastMarkerT = firstT;
}

void TimelineMarkerLayer::clear()
{
    for (auto* item : std::as_const(m_items))
        m_plot->removeItem(item);
    m_items.clear();
    m_labels.clear();
    m_lastMarkerCount = 0;
    m_lastMarkerT = -1;
}

void TimelineMarkerLayer::alignLabels()
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
    const int leftEdge = m_occRect->left();
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
    for (auto* label : std::as_const(m_labels)) { // in time order, as the markers came
        const QString full = label->property("fullText").toString();
        if (label->text() != full) label->setText(full);
        label->setVisible(true);
        const QFontMetrics metrics(label->font());
        const int padding = label->padding().left() + label->padding().right();
        const double x = time->coordToPixel(label->position->coords().x());
        int width = metrics.horizontalAdvance(full) + padding;
        // Right of the line when it fits, else left of it; when it fits on neither side it takes the wider one and is
        // shortened to end at the plot's edge, never cut off there.
        const double roomRight = rightEdge - x;
        const double roomLeft = x - leftEdge;
        const Qt::Alignment side = width <= roomRight || roomRight >= roomLeft ? Qt::AlignLeft : Qt::AlignRight;
        const double room = side == Qt::AlignLeft ? roomRight : roomLeft;
        if (width > room && room - padding >= kShortestLabelPx) { // (a plot not laid out yet has no room at all)
            label->setText(metrics.elidedText(full, Qt::ElideRight, static_cast<int>(room) - padding));
            width = metrics.horizontalAdvance(label->text()) + padding;
        }
        if (label->positionAlignment() != (side | Qt::AlignTop)) label->setPositionAlignment(side | Qt::AlignTop);
        const double left = side == Qt::AlignRight ? x - width : x;
        auto row = std::find_if(
            rows.begin(), rows.end(), [&](const std::vector<Placed>& r) { return rowEnd(r) + kMarkerGapPx <= left; });
        if (row == rows.end()) {
            row = std::min_element(
                rows.begin(), rows.end(), [&](const std::vector<Placed>& one, const std::vector<Placed>& other) {
                    return rowEnd(one) < rowEnd(other);
                });
            // Make room in that row: shorten the last label there if it starts at its line, else hide it and look
            // at the one before (a label left of its line reaches back over earlier ones).
            while (!row->empty() && row->back().end + kMarkerGapPx > left) {
                Placed& previous = row->back();
                const int space = static_cast<int>(left - kMarkerGapPx - previous.left) - padding;
                if (previous.fromLine && space >= kShortestLabelPx) {
                    previous.label->setText(metrics.elidedText(previous.label->text(), Qt::ElideRight, space));
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

int TimelineMarkerLayer::labelRow(int i) const
{
    const QCPItemText* label = m_labels.value(i);
    return label ? label->property("markerRow").toInt() : -1;
}

Qt::Alignment TimelineMarkerLayer::labelAlignment(int i) const
{
    return m_labels.value(i) ? m_labels[i]->positionAlignment() : Qt::Alignment();
}

double TimelineMarkerLayer::occupancyHeadroom(const QCPRange& visible) const
{
    // The rows of marker labels in view sit in the headroom, clear of the highest line (the labels hid a group's
    // occupancy near the top). At most half the plot: past that the lines would be too flat to read.
    constexpr double kHeadroom = 1.12;
    double lowest = 0; // the lowest label bottom in view, as a fraction of the plot's height from its top
    for (const QCPItemText* label : m_labels) {
        if (!visible.contains(label->position->coords().x())) continue;
        lowest = std::max(lowest,
            label->position->coords().y() + static_cast<double>(markerRowPx(label)) / std::max(1, m_occRect->height()));
    }
    return std::max(kHeadroom, 1.0 / std::max(0.5, 1.0 - lowest));
}

QString TimelineMarkerLayer::label(int i) const
{
    return m_labels.value(i) ? m_labels[i]->text() : QString();
}
