// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareGraphView.h"

#include "GraphvizLayout.h"
#include "models/CompareDiffModel.h"

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

using namespace rdt::compare;

namespace {

/// A gradient strip from "cooler in B" to "hotter in B".
QWidget* legend(QWidget* parent)
{
    auto* w = new QWidget(parent);
    auto* row = new QHBoxLayout(w);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(QObject::tr("cooler in B"), w));
    auto* strip = new QLabel(w);
    QPixmap pix(160, 14);
    QPainter p(&pix);
    QLinearGradient g(0, 0, 160, 0);
    for (int i = 0; i <= 10; ++i)
        g.setColorAt(i / 10.0, CompareDiffModel::changeColor(i / 5.0 - 1.0));
    p.fillRect(pix.rect(), g);
    p.end();
    strip->setPixmap(pix);
    row->addWidget(strip);
    row->addWidget(new QLabel(QObject::tr("hotter in B; dashed: one side only; width: share"), w));
    row->addStretch(1);
    return w;
}

} // namespace

CompareGraphView::CompareGraphView(QWidget* parent)
    : QWidget(parent)
    , m_scene(new QGraphicsScene(this))
    , m_view(new QGraphicsView(m_scene, this))
    , m_status(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(legend(this));
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setDragMode(QGraphicsView::ScrollHandDrag);
    m_status->setWordWrap(true);
}

void CompareGraphView::setComparison(const Comparison& c, int maxEdges)
{
    m_scene->clear();
    m_edges = 0;
    std::vector<const DiffRow*> rows;
    for (const auto& r : c.rows)
        if (r.section == Section::CallEdge && static_cast<int>(rows.size()) < maxEdges) rows.push_back(&r);
    if (rows.empty()) {
        m_status->setText(tr("No LBR call edges in either file (perf record -b or --call-graph lbr)."));
        return;
    }
    LayoutGraph graph;
    graph.rankdir = "TB";
    std::map<std::string, int> nodeIndex;
    auto node = [&](const std::string& name) {
        auto [it, added] = nodeIndex.try_emplace(name, static_cast<int>(graph.nodes.size()));
        if (added) graph.nodes.push_back({ name, std::max(72.0, 7.0 * static_cast<double>(name.size())), 30 });
        return it->second;
    };
    double maxDelta = 0, maxShare = 0;
    for (const auto* r : rows) {
        // "caller -> callee" with an optional " (return)"
        std::string item = r->item;
        if (const auto ret = item.find(" (return)"); ret != std::string::npos) item.erase(ret);
        const auto arrow = item.find(" -> ");
        if (arrow == std::string::npos) continue;
        graph.edges.push_back({ node(item.substr(0, arrow)), node(item.substr(arrow + 4)) });
        maxDelta = std::max(maxDelta, std::fabs(*r->delta()));
        maxShare = std::max({ maxShare, r->a.value_or(0), r->b.value_or(0) });
    }
    const LayoutResult layout = layoutWithDot(graph);
    if (!layout.ok()) {
        m_status->setText(tr("Graphviz could not lay the graph out: %1").arg(QString::fromStdString(layout.error)));
        return;
    }
    const QColor text = palette().color(QPalette::Text);
    for (std::size_t i = 0; i < graph.edges.size() && i < layout.edgeSplines.size(); ++i) {
        const DiffRow& r = *rows[i];
        const auto& pts = layout.edgeSplines[i];
        if (pts.size() < 4) continue;
        QPainterPath path(QPointF(pts[0].x, pts[0].y));
        for (std::size_t k = 1; k + 2 < pts.size(); k += 3)
            path.cubicTo(
                QPointF(pts[k].x, pts[k].y), QPointF(pts[k + 1].x, pts[k + 1].y), QPointF(pts[k + 2].x, pts[k + 2].y));
        const double s = maxDelta > 0 ? *r.delta() / maxDelta : 0;
        QPen pen(CompareDiffModel::changeColor(s, palette().color(QPalette::Mid)),
            1.0 + 5.0 * std::max(r.a.value_or(0), r.b.value_or(0)) / std::max(maxShare, 1e-9));
        if (!r.a || !r.b) pen.setStyle(Qt::DashLine);
        auto* item = m_scene->addPath(path, pen);
        item->setToolTip(QStringLiteral("%1\nshare A %2 %, B %3 %, delta %4 points")
                             .arg(QString::fromStdString(r.item), QString::number(r.a.value_or(0), 'f', 1),
                                 QString::number(r.b.value_or(0), 'f', 1), QString::number(*r.delta(), 'f', 1)));
        const auto& tip = layout.arrowTips[i];
        if (tip.x != 0 || tip.y != 0) {
            const QPointF end(pts.back().x, pts.back().y), head(tip.x, tip.y);
            const QPointF d = head - end;
            const QPointF n(-d.y() * 0.5, d.x() * 0.5);
            m_scene->addPolygon(QPolygonF({ head, end + n, end - n }), QPen(pen.color()), QBrush(pen.color()));
        }
        ++m_edges;
    }
    for (const auto& [name, index] : nodeIndex) {
        const auto& box = layout.nodes[static_cast<std::size_t>(index)];
        const QRectF rect(box.center.x - box.widthPt / 2, box.center.y - box.heightPt / 2, box.widthPt, box.heightPt);
        QPainterPath rounded;
        rounded.addRoundedRect(rect, 6, 6);
        m_scene->addPath(rounded, QPen(text), QBrush(palette().color(QPalette::Base)));
        auto* label = m_scene->addSimpleText(QString::fromStdString(name));
        label->setBrush(text);
        label->setPos(rect.center() - label->boundingRect().center());
    }
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-10, -10, 10, 10));
    m_status->setText(tr("The %1 call edges whose share changed most (of %2 aligned edges).")
                          .arg(m_edges)
                          .arg(std::count_if(c.rows.begin(), c.rows.end(),
                              [](const DiffRow& r) { return r.section == Section::CallEdge; })));
}
