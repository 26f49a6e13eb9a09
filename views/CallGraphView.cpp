// SPDX-License-Identifier: GPL-3.0-or-later
#include "CallGraphView.h"
#include "CountText.h"
#include "ElidedLabel.h"

#include "models/CallGraphModel.h"
#include "models/PmuSession.h"
#include "views/PmuStatusBanner.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainterPath>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QThreadPool>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <memory>

namespace {

/// Mispredict rate to colour: green at 0, yellow at 10 %, red from 20 % (a well-predicted branch is < 1-2 %).
QColor mispredictColour(double rate)
{
    const double t = std::clamp(rate / 0.2, 0.0, 1.0);
    const int r = t < 0.5 ? static_cast<int>(60 + 390 * t) : 255;
    const int g = t < 0.5 ? 170 : static_cast<int>(170 - 2 * 150 * (t - 0.5));
    return QColor(std::clamp(r, 0, 255), std::clamp(g, 0, 255), 40);
}

/// Box and text colours on the palette's Base: pale blue boxes with dark text on light, deep blue with light text
/// on dark (the search hit's orange reads on both).
struct NodeColours {
    QColor pen, fill, text, selected;
};
NodeColours nodeColours(const QPalette& p)
{
    if (p.color(QPalette::Base).lightness() < 128)
        return { QColor(150, 160, 200), QColor(38, 52, 78), QColor(230, 232, 236), QColor(110, 160, 255) };
    return { QColor(60, 60, 90), QColor(214, 228, 250), QColor(20, 20, 24), QColor(20, 60, 200) };
}

QFont nodeFont()
{
    QFont f;
    f.setPointSizeF(9);
    return f;
}

QString elide(const QString& s, int n)
{
    return s.size() <= n ? s : s.left(n - 1) + QChar(0x2026);
}

QTableView* makeTable(CallGraphModel* model, QWidget* parent)
{
    auto* t = new QTableView(parent);
    t->setModel(model);
    t->verticalHeader()->hide();
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    t->horizontalHeader()->setStretchLastSection(true);
    t->horizontalHeader()->setDefaultSectionSize(90);
    t->setColumnWidth(CallGraphModel::FromColumn, 170);
    t->setColumnWidth(CallGraphModel::ToColumn, 170);
    t->setAlternatingRowColors(true);
    return t;
}

} // namespace

CallGraphView::CallGraphView(PmuSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_hot(new CallGraphModel(this))
    , m_callers(new CallGraphModel(this))
    , m_callees(new CallGraphModel(this))
    , m_scene(new QGraphicsScene(this))
    , m_view(new QGraphicsView(m_scene, this))
    , m_search(new QLineEdit(this))
    , m_hops(new QSpinBox(this))
    , m_status(new ElidedLabel(this))
    , m_hotTable(nullptr)
    , m_pool(new QThreadPool(this))
{
    m_pool->setMaxThreadCount(1);
    m_view->setDragMode(QGraphicsView::ScrollHandDrag);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    m_view->setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    m_view->viewport()->installEventFilter(this);
    m_view->setBackgroundBrush(palette().base());

    m_search->setPlaceholderText(tr("Search functions\u2026"));
    m_search->setClearButtonEnabled(true);
    m_hops->setRange(1, 10);
    m_hops->setValue(m_focusHops);
    m_hops->setPrefix(tr("within "));
    m_hops->setSuffix(tr(" hops"));
    auto* focus = new QPushButton(tr("Focus"), this);
    focus->setToolTip(tr("Show only the selected (or searched) function with its callers and callees"));
    auto* all = new QPushButton(tr("Show all"), this);
    auto* fit = new QPushButton(tr("Fit"), this);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_search, 2);
    bar->addWidget(m_hops);
    bar->addWidget(focus);
    bar->addWidget(all);
    bar->addWidget(fit);
    bar->addWidget(m_status, 3);
    // An ElidedLabel: a long text is cut after a whole clause, never mid-word, and never widens the window.

    m_hotTable = makeTable(m_hot, this);
    auto* tabs = new QTabWidget(this);
    tabs->addTab(m_hotTable, tr("Hot branches"));
    tabs->addTab(makeTable(m_callers, this), tr("Callers"));
    tabs->addTab(makeTable(m_callees, this), tr("Callees"));
    m_callers->setMode(CallGraphModel::Mode::Callers);
    m_callees->setMode(CallGraphModel::Mode::Callees);

    // Graph above, tables below: the tables need width for their six columns more than height.
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({ 520, 300 });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(new PmuStatusBanner(m_session, this));
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_search, &QLineEdit::textChanged, this, &CallGraphView::setSearchText);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (!m_highlight.isEmpty()) selectFunction(highlighted().front());
    });
    connect(focus, &QPushButton::clicked, this, [this] {
        QString f = m_selected;
        if (f.isEmpty() && !m_highlight.isEmpty()) f = highlighted().front();
        if (!f.isEmpty()) focusFunction(f, m_hops->value());
    });
    connect(all, &QPushButton::clicked, this, &CallGraphView::showAll);
    connect(fit, &QPushButton::clicked, this,
        [this] { m_view->fitInView(m_scene->itemsBoundingRect(), Qt::KeepAspectRatio); });
    connect(m_hotTable, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        if (const auto* e = m_hot->edgeAt(i.row()))
            selectFunction(
                QString::fromStdString(i.column() == CallGraphModel::ToColumn && e->from != e->to ? e->to : e->from));
    });
    connect(m_session, &PmuSession::aggregated, this, &CallGraphView::rebuild);
    connect(m_session, &PmuSession::dataReset, this, [this] {
        m_focus.clear();
        m_selected.clear();
    });
    rebuild();
}

CallGraphView::~CallGraphView()
{
    ++m_generation; // nothing pending applies any more
    m_pool->waitForDone();
}

void CallGraphView::setMaxNodes(int n)
{
    m_maxNodes = std::max(1, n);
    rebuild();
}

void CallGraphView::focusFunction(const QString& function, int hops)
{
    m_focus = function;
    m_focusHops = hops;
    if (!function.isEmpty()) m_hops->setValue(hops);
    rebuild();
}

void CallGraphView::rebuild()
{
    const bool flags = m_session->data().branchMode == rdt::pmu::BranchGraph::Mode::AnyBranch;
    for (auto* m : { m_hot, m_callers, m_callees })
        m->setHasBranchFlags(flags);
    m_hot->setReport(m_session->branchGraph());
    m_callers->setReport(m_session->branchGraph());
    m_callees->setReport(m_session->branchGraph());
    requestLayout();
}

void CallGraphView::requestLayout()
{
    const auto& report = m_session->branchGraph();
    QSet<QString> keep;
    if (!m_focus.isEmpty()) keep = m_hot->neighbourhood(m_focus, m_focusHops);
    m_drawn.clear();
    m_drawnEdges.clear();
    QHash<QString, int> index;
    int skipped = 0;
    for (const auto& f : report.functions) { // sorted by inclusive then self
        const QString name = QString::fromStdString(f.name);
        if (!keep.isEmpty() && !keep.contains(name)) continue;
        if (static_cast<int>(m_drawn.size()) >= m_maxNodes) {
            ++skipped;
            continue;
        }
        index.insert(name, static_cast<int>(m_drawn.size()));
        m_drawn.push_back({ name, f.self, f.inclusive });
    }
    m_hidden = skipped;
    quint64 maxSamples = 1;
    for (const auto& d : m_drawn)
        maxSamples = std::max({ maxSamples, d.self, d.inclusive });

    auto graph = std::make_shared<LayoutGraph>();
    // dot keeps the requested size (fixedsize): make room for the label as it is drawn (nodeFont()).
    const QFontMetricsF fm(nodeFont());
    for (const auto& d : m_drawn) {
        // Node size = samples: area grows with the function's (inclusive) samples.
        const double s
            = std::sqrt(static_cast<double>(std::max(d.self, d.inclusive)) / static_cast<double>(maxSamples));
        const double textW = fm.horizontalAdvance(elide(d.name, 28)) + 12;
        graph->nodes.push_back({ elide(d.name, 28).toStdString(), std::max(60 + 140 * s, textW),
            std::max(3.3 * fm.height(), 36 + 40 * s) });
    }
    for (const auto& e : report.edges) {
        if (!e.call() || e.from == e.to) continue;
        const auto a = index.find(QString::fromStdString(e.from)), b = index.find(QString::fromStdString(e.to));
        if (a == index.end() || b == index.end()) continue;
        graph->edges.push_back({ a.value(), b.value() });
        m_drawnEdges.push_back(
            { a.value(), b.value(), e.stats.count, e.stats.mispredictRate(), e.stats.averageCycles() });
    }
    const quint64 generation = ++m_generation;
    m_pending = true;
    m_status->setFullText(tr("Laying out %1\u2026")
                              .arg(countText(static_cast<long long>(m_drawn.size()), tr("function"), tr("functions"))));
    // The worker touches only its own copies; the destructor waits for it, so `this` outlives the job, and a
    // queued call to a deleted receiver is discarded by Qt.
    m_pool->start([this, generation, graph] {
        QElapsedTimer t;
        t.start();
        auto result = std::make_shared<LayoutResult>(layoutWithDot(*graph));
        const double ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
        QMetaObject::invokeMethod(
            this, [this, generation, result, ms] { applyLayout(generation, *result, ms); }, Qt::QueuedConnection);
    });
}

void CallGraphView::applyLayout(quint64 generation, const LayoutResult& result, double ms)
{
    if (generation != m_generation) return; // a newer request is on its way: this one describes an older graph
    m_pending = false;
    m_lastLayoutMs = ms;
    m_scene->clear();
    m_nodeItems.clear();
    if (!result.ok() || result.nodes.size() != m_drawn.size()) {
        m_status->setFullText(tr("Layout failed: %1").arg(QString::fromStdString(result.error)));
        Q_EMIT layoutFinished(generation, ms);
        return;
    }
    quint64 maxCount = 1;
    for (const auto& e : m_drawnEdges)
        maxCount = std::max(maxCount, e.count);
    for (std::size_t i = 0; i < m_drawnEdges.size() && i < result.edgeSplines.size(); ++i) {
        const auto& pts = result.edgeSplines[i];
        const auto& e = m_drawnEdges[i];
        if (pts.size() < 2) continue;
        QPainterPath path(QPointF(pts[0].x, pts[0].y));
        std::size_t k = 1;
        for (; k + 2 < pts.size(); k += 3)
            path.cubicTo(
                QPointF(pts[k].x, pts[k].y), QPointF(pts[k + 1].x, pts[k + 1].y), QPointF(pts[k + 2].x, pts[k + 2].y));
        for (; k < pts.size(); ++k)
            path.lineTo(QPointF(pts[k].x, pts[k].y));
        if (i < result.arrowTips.size() && (result.arrowTips[i].x != 0 || result.arrowTips[i].y != 0))
            path.lineTo(QPointF(result.arrowTips[i].x, result.arrowTips[i].y));
        // Edge width = count (1..9 px, sqrt so small edges stay visible), colour = mispredict rate.
        const double w = 1.0 + 8.0 * std::sqrt(static_cast<double>(e.count) / static_cast<double>(maxCount));
        // Call-stack LBR has no mispredict flags (NO_FLAGS): grey, not a fake "never mispredicted" green.
        QPen pen(m_hot->hasBranchFlags() ? mispredictColour(e.mispredictRate) : QColor(120, 120, 140), w);
        pen.setCapStyle(Qt::RoundCap);
        auto* item = m_scene->addPath(path, pen);
        item->setToolTip(
            tr("%1 \u2192 %2\n%3 calls, %4 % mispredicted, %5 cycles on average")
                .arg(m_drawn[static_cast<std::size_t>(e.from)].name, m_drawn[static_cast<std::size_t>(e.to)].name)
                .arg(e.count)
                .arg(e.mispredictRate * 100.0, 0, 'f', 1)
                .arg(e.avgCycles, 0, 'f', 1));
        item->setZValue(0);
    }
    const QFont font = nodeFont();
    for (std::size_t i = 0; i < m_drawn.size(); ++i) {
        const auto& box = result.nodes[i];
        const auto& d = m_drawn[i];
        const QRectF r(box.center.x - box.widthPt / 2, box.center.y - box.heightPt / 2, box.widthPt, box.heightPt);
        const NodeColours colours = nodeColours(palette());
        auto* node = m_scene->addRect(r, QPen(colours.pen, 1.2), colours.fill);
        node->setZValue(1);
        node->setData(0, d.name);
        node->setToolTip(tr("%1\n%2 self samples, %3 inclusive").arg(d.name).arg(d.self).arg(d.inclusive));
        QString label = elide(d.name, 28) + QStringLiteral("\n")
            + countText(static_cast<long long>(d.self), tr("sample"), tr("samples"));
        if (d.inclusive > d.self) label += QStringLiteral("\n") + tr("%1 inclusive").arg(d.inclusive);
        auto* text = new QGraphicsSimpleTextItem(label, node);
        text->setFont(font);
        text->setBrush(colours.text);
        const QRectF tb = text->boundingRect();
        text->setPos(r.center() - QPointF(tb.width() / 2, tb.height() / 2));
        m_nodeItems.insert(d.name, node);
    }
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-20, -20, 20, 20));
    m_view->fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio);
    if (m_view->transform().m11() < 0.7) { // too small to read: zoom to the hottest (top) functions instead
        m_view->resetTransform();
        m_view->scale(0.7, 0.7);
        if (!m_drawn.empty()) m_view->centerOn(m_nodeItems.value(m_drawn.front().name));
    }
    setSearchText(m_search->text());
    if (!m_selected.isEmpty()) selectFunction(m_selected);
    // The counts are the engine's (BranchGraphReport::edgeCount), the ones `rdtscope-cli report --lbr` prints.
    const auto& graph = m_session->branchGraph();
    const auto calls = static_cast<long long>(graph.edgeCount(rdt::pmu::EdgeKind::Call));
    const QString text = tr("%1%2, %3 (%4 drawn), %5 of unknown kind \u00b7 layout %6 ms \u00b7 %7")
                             .arg(countText(static_cast<long long>(m_drawn.size()), tr("function"), tr("functions")))
                             .arg(m_hidden ? tr(" (%1 smaller ones hidden)").arg(m_hidden) : QString())
                             .arg(countText(calls, tr("call edge"), tr("call edges")))
                             .arg(m_drawnEdges.size())
                             .arg(graph.edgeCount(rdt::pmu::EdgeKind::Unknown))
                             .arg(ms, 0, 'f', 0)
                             .arg(countText(static_cast<long long>(graph.samples), tr("sample"), tr("samples")));
    m_status->setFullText(text);
    // After setFullText, which makes the whole text the tooltip: the legend joins it.
    m_status->setToolTip(text + QStringLiteral("\n\n")
        + (m_hot->hasBranchFlags()
                ? tr("Box size: samples. Edge width: count. Edge colour: mispredict rate, green 0 % to red 20 % and "
                     "more.")
                : tr("Box size: samples. Edge width: count. Call-stack LBR records no mispredicts: edges are grey.")));
    Q_EMIT layoutFinished(generation, ms);
}

void CallGraphView::setSearchText(const QString& text)
{
    if (m_search->text() != text) m_search->setText(text); // re-enters once through textChanged
    m_highlight.clear();
    QGraphicsRectItem* first = nullptr;
    for (auto it = m_nodeItems.begin(); it != m_nodeItems.end(); ++it) {
        const bool hit = !text.isEmpty() && it.key().contains(text, Qt::CaseInsensitive);
        const bool selected = it.key() == m_selected;
        it.value()->setPen(QPen(hit ? QColor(220, 120, 0)
                : selected          ? nodeColours(palette()).selected
                                    : nodeColours(palette()).pen,
            hit || selected ? 3.0 : 1.2));
        if (hit) {
            m_highlight.insert(it.key());
            if (!first || it.value()->rect().top() < first->rect().top()) first = it.value();
        }
    }
    if (first) m_view->centerOn(first);
}

QStringList CallGraphView::highlighted() const
{
    QStringList l(m_highlight.begin(), m_highlight.end());
    l.sort();
    return l;
}

void CallGraphView::selectFunction(const QString& function)
{
    m_selected = function;
    m_callers->setMode(CallGraphModel::Mode::Callers, function);
    m_callees->setMode(CallGraphModel::Mode::Callees, function);
    for (auto it = m_nodeItems.begin(); it != m_nodeItems.end(); ++it)
        if (!m_highlight.contains(it.key()))
            it.value()->setPen(QPen(it.key() == function ? nodeColours(palette()).selected : nodeColours(palette()).pen,
                it.key() == function ? 3.0 : 1.2));
    if (auto* item = m_nodeItems.value(function)) m_view->centerOn(item);
}

QString CallGraphView::nodeLabel(const QString& function) const
{
    const auto* item = m_nodeItems.value(function);
    if (!item || item->childItems().isEmpty()) return {};
    const auto* text = dynamic_cast<const QGraphicsSimpleTextItem*>(item->childItems().front());
    return text ? text->text() : QString();
}

QRect CallGraphView::nodeViewportRect(const QString& function) const
{
    const auto* item = m_nodeItems.value(function);
    return item ? m_view->mapFromScene(item->sceneBoundingRect()).boundingRect() : QRect();
}

bool CallGraphView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport()) {
        if (event->type() == QEvent::PaletteChange) restyle();
        if (event->type() == QEvent::Wheel) {
            const auto* w = static_cast<QWheelEvent*>(event);
            const double factor = std::pow(1.0015, w->angleDelta().y());
            m_view->scale(factor, factor);
            return true;
        }
        if (event->type() == QEvent::MouseButtonDblClick) {
            const auto* m = static_cast<QMouseEvent*>(event);
            for (QGraphicsItem* item : m_view->items(m->position().toPoint())) {
                const QString name = item->data(0).toString();
                const QString parentName = item->parentItem() ? item->parentItem()->data(0).toString() : QString();
                if (!name.isEmpty() || !parentName.isEmpty()) {
                    selectFunction(name.isEmpty() ? parentName : name);
                    return true;
                }
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void CallGraphView::restyle()
{
    // The scheme changed: recolour what is drawn (a new layout would cost a Graphviz run for the same picture).
    m_view->setBackgroundBrush(palette().base());
    const NodeColours colours = nodeColours(palette());
    for (auto it = m_nodeItems.begin(); it != m_nodeItems.end(); ++it) {
        QGraphicsRectItem* node = it.value();
        node->setBrush(colours.fill);
        for (QGraphicsItem* child : node->childItems())
            if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(child)) text->setBrush(colours.text);
        // Outlines as setSearchText()/selectFunction() draw them, without moving the view as they do.
        const bool hit = m_highlight.contains(it.key());
        const bool selected = it.key() == m_selected;
        node->setPen(QPen(hit ? QColor(220, 120, 0)
                : selected    ? colours.selected
                              : colours.pen,
            hit || selected ? 3.0 : 1.2));
    }
}
