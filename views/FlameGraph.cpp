// SPDX-License-Identifier: GPL-3.0-or-later
#include "FlameGraph.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <functional>

using rdt::pmu::CallTreeNode;

namespace {
constexpr double kMinFrameWidth = 1.0; ///< narrower frames are not drawn (their samples stay in the parent's width)
constexpr int kMargin = 4;

/// A warm colour per function name (stable across repaints and data updates), as flame graphs colour frames.
QColor frameColour(const std::string& function)
{
    const std::size_t h = std::hash<std::string> {}(function);
    const int hue = static_cast<int>(h % 50); // red .. orange-yellow
    const int sat = 150 + static_cast<int>((h >> 8) % 80);
    const int val = 215 + static_cast<int>((h >> 16) % 40);
    return QColor::fromHsv(hue, sat, val);
}
} // namespace

FlameGraph::FlameGraph(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("flameGraph"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_nodes.emplace_back();
}

std::vector<std::int32_t> FlameGraph::pathTo(std::int32_t node) const
{
    std::vector<std::int32_t> path;
    for (std::int32_t i = node; i > 0; i = m_nodes[static_cast<std::size_t>(i)].parent)
        path.push_back(i);
    std::reverse(path.begin(), path.end());
    return path;
}

void FlameGraph::setReport(const rdt::pmu::CallTreeReport& report)
{
    // Keep the zoom on the same call path (names), if it is still there.
    std::vector<std::string> zoomPath;
    for (auto i : pathTo(m_zoom))
        zoomPath.push_back(m_nodes[static_cast<std::size_t>(i)].function);
    m_nodes = report.topDown;
    if (m_nodes.empty()) m_nodes.emplace_back();
    m_depth = report.maxDepth;
    const std::int32_t kept = zoomPath.empty() ? 0 : report.findTopDown(zoomPath);
    const std::int32_t before = m_zoom;
    m_zoom = std::max<std::int32_t>(kept, 0);
    updateGeometry();
    layoutFrames();
    update();
    if (m_zoom != before) Q_EMIT zoomChanged(m_zoom);
}

void FlameGraph::zoomTo(std::int32_t node)
{
    if (node < 0 || static_cast<std::size_t>(node) >= m_nodes.size()) node = 0;
    if (node == m_zoom) return;
    m_zoom = node;
    layoutFrames();
    update();
    Q_EMIT zoomChanged(m_zoom);
}

quint64 FlameGraph::totalSamples() const
{
    return m_nodes.front().inclusive;
}

quint64 FlameGraph::shownSamples() const
{
    return m_nodes[static_cast<std::size_t>(m_zoom)].inclusive;
}

int FlameGraph::rowHeight() const
{
    return fontMetrics().height() + 4;
}

QSize FlameGraph::sizeHint() const
{
    return { 640, static_cast<int>(m_depth + 1) * rowHeight() + 2 * kMargin };
}

QSize FlameGraph::minimumSizeHint() const
{
    return { 200, static_cast<int>(m_depth + 1) * rowHeight() + 2 * kMargin };
}

void FlameGraph::place(std::int32_t node, int depth, double x, double width, double unit)
{
    if (width < kMinFrameWidth) return;
    const int row = rowHeight();
    const double y = height() - kMargin - (depth + 1) * row;
    m_frames.push_back({ node, QRectF(x, y, width, row - 1), false });
    double cx = x;
    for (auto c : m_nodes[static_cast<std::size_t>(node)].children) {
        const double w = static_cast<double>(m_nodes[static_cast<std::size_t>(c)].inclusive) * unit;
        place(c, depth + 1, cx, w, unit);
        cx += w;
    }
}

void FlameGraph::layoutFrames()
{
    m_frames.clear();
    const CallTreeNode& zoomed = m_nodes[static_cast<std::size_t>(m_zoom)];
    if (zoomed.inclusive == 0) return;
    const double full = std::max(0, width() - 2 * kMargin);
    const double unit = full / static_cast<double>(zoomed.inclusive);
    const auto path = pathTo(m_zoom);
    // The zoomed node's callers, full width beneath it.
    const int row = rowHeight();
    for (std::size_t d = 0; d + 1 < path.size(); ++d)
        m_frames.push_back(
            { path[d], QRectF(kMargin, height() - kMargin - (static_cast<int>(d) + 1) * row, full, row - 1), true });
    if (m_zoom == 0) {
        double x = kMargin;
        for (auto c : zoomed.children) {
            const double w = static_cast<double>(m_nodes[static_cast<std::size_t>(c)].inclusive) * unit;
            place(c, 0, x, w, unit);
            x += w;
        }
    } else {
        place(m_zoom, static_cast<int>(path.size()) - 1, kMargin, full, unit);
    }
}

std::int32_t FlameGraph::nodeAt(const QPointF& pos) const
{
    for (const auto& f : m_frames)
        if (f.rect.contains(pos)) return f.node;
    return -1;
}

QRectF FlameGraph::frameRect(std::int32_t node) const
{
    for (const auto& f : m_frames)
        if (f.node == node) return f.rect;
    return {};
}

QString FlameGraph::describe(std::int32_t node) const
{
    if (node <= 0 || static_cast<std::size_t>(node) >= m_nodes.size()) return {};
    const CallTreeNode& n = m_nodes[static_cast<std::size_t>(node)];
    const double total = static_cast<double>(totalSamples());
    QString text = tr("%1\n%2\n%3 samples, %4 % of all (self %5)")
                       .arg(QString::fromStdString(n.function),
                           n.module.empty() ? tr("module unknown") : QString::fromStdString(n.module),
                           QLocale().toString(static_cast<qulonglong>(n.inclusive)),
                           QString::number(total > 0 ? 100.0 * static_cast<double>(n.inclusive) / total : 0.0, 'f', 1),
                           QLocale().toString(static_cast<qulonglong>(n.self)));
    if (m_zoom > 0 && shownSamples() > 0)
        text += tr(", %1 % of the zoomed frame")
                    .arg(QString::number(
                        100.0 * static_cast<double>(n.inclusive) / static_cast<double>(shownSamples()), 'f', 1));
    return text;
}

void FlameGraph::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_frames.empty()) return;
    const QFontMetrics fm = fontMetrics();
    const QColor ancestorColour = palette().color(QPalette::Mid);
    for (const auto& f : m_frames) {
        const CallTreeNode& n = m_nodes[static_cast<std::size_t>(f.node)];
        const QColor fill = f.ancestor ? ancestorColour : frameColour(n.function);
        p.fillRect(f.rect, fill);
        if (f.rect.width() > 2) {
            p.setPen(fill.darker(125));
            p.drawRect(f.rect.adjusted(0, 0, -1, 0));
        }
        if (f.rect.width() < fm.averageCharWidth() * 3) continue;
        p.setPen(Qt::black); // on warm fills and on Mid grey; the fills do not follow the scheme
        const QRectF text = f.rect.adjusted(3, 0, -3, 0);
        p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
            fm.elidedText(QString::fromStdString(n.function), Qt::ElideRight, static_cast<int>(text.width())));
    }
}

void FlameGraph::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    layoutFrames();
}

void FlameGraph::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    const std::int32_t node = nodeAt(event->position());
    if (node > 0) zoomTo(node);
}

void FlameGraph::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (nodeAt(event->position()) < 0) resetZoom();
}

void FlameGraph::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && m_zoom != 0) {
        resetZoom();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool FlameGraph::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = describe(nodeAt(help->pos()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this, frameRect(nodeAt(help->pos())).toAlignedRect());
        return true;
    }
    return QWidget::event(event);
}
