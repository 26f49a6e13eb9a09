// SPDX-License-Identifier: GPL-3.0-or-later
#include "TmaView.h"

#include "models/PmuSession.h"
#include "models/TmaModel.h"
#include "views/PmuStatusBanner.h"
#include "views/QCustomPlotInclude.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <array>

namespace {
// One colour per level-1 category, in TmaModel::categories() order: retiring green, bad speculation red,
// frontend bound purple, backend bound blue (the colours toplev and VTune use).
const std::array<QColor, 4> kColours
    = { QColor(80, 170, 90), QColor(210, 80, 70), QColor(150, 100, 190), QColor(70, 130, 200) };
} // namespace

TmaView::TmaView(PmuSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new TmaModel(this))
    , m_plot(new QCustomPlot(this))
    , m_rangeItem(nullptr)
    , m_tree(new QTreeView(this))
    , m_caption(new QLabel(this))
{
    // Stacked area: graph i is the sum of categories 0..i and fills down to graph i-1 (graph 0 to the axis).
    for (int i = 0; i < 4; ++i) {
        QCPGraph* g = m_plot->addGraph();
        g->setName(tr(TmaModel::categories()[static_cast<std::size_t>(i)].name));
        g->setPen(QPen(kColours[static_cast<std::size_t>(i)].darker(130), 1));
        QColor fill = kColours[static_cast<std::size_t>(i)];
        fill.setAlpha(200);
        g->setBrush(fill);
        if (i > 0) g->setChannelFillGraph(m_plot->graph(i - 1));
    }
    m_plot->xAxis->setLabel(tr("time (s)"));
    m_plot->yAxis->setLabel(tr("fraction of issue slots"));
    m_plot->yAxis->setRange(0, 1);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->setMinimumHeight(220);
    m_rangeItem = new QCPItemRect(m_plot);
    m_rangeItem->setPen(QPen(QColor(30, 30, 30), 1, Qt::DashLine));
    m_rangeItem->setBrush(QColor(255, 255, 255, 70));
    m_rangeItem->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
    m_rangeItem->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_rangeItem->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
    m_rangeItem->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_rangeItem->setVisible(false);

    m_tree->setModel(m_model);
    m_tree->setRootIsDecorated(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setSectionResizeMode(TmaModel::CategoryColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(TmaModel::FractionColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    m_caption->setWordWrap(true);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_plot);
    auto* bottom = new QWidget(this);
    auto* bl = new QVBoxLayout(bottom);
    bl->setContentsMargins(0, 0, 0, 0);
    bl->addWidget(m_caption);
    bl->addWidget(m_tree, 1);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({ 500, 330 });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(new PmuStatusBanner(m_session, this));
    layout->addWidget(split);

    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        m_pressed = true;
        m_pressX = m_plot->xAxis->pixelToCoord(e->position().x());
    });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if (!m_pressed) return;
        m_pressed = false;
        const double x = m_plot->xAxis->pixelToCoord(e->position().x());
        const double span = m_plot->xAxis->range().size();
        if (std::abs(x - m_pressX) < span * 0.01)
            m_session->clearTimeRange();
        else
            m_session->setTimeRange(m_pressX, x);
    });
    connect(m_session, &PmuSession::aggregated, this, &TmaView::refresh);
    connect(m_session, &PmuSession::timeRangeChanged, this, &TmaView::showRange);
    refresh();
}

int TmaView::pointCount() const
{
    return m_plot->graph(0)->dataCount();
}

void TmaView::refresh()
{
    const auto& points = m_session->data().tma;
    QList<QVector<double>> ys(4);
    QVector<double> xs;
    xs.reserve(static_cast<qsizetype>(points.size()));
    for (const auto& p : points) {
        if (!p.breakdown.valid) continue; // a gap rather than a fake zero
        xs.push_back(m_session->secondsOf(p.time));
        double sum = 0;
        for (int i = 0; i < 4; ++i) {
            sum += TmaModel::value(p.breakdown, i);
            ys[i].push_back(sum);
        }
    }
    for (int i = 0; i < 4; ++i)
        m_plot->graph(i)->setData(xs, ys[i], true);
    // The legend lists the top of the stack first, as it is drawn.
    if (!xs.isEmpty()) m_plot->xAxis->setRange(std::min(0.0, xs.front()), std::max(xs.back(), 1e-3));
    m_plot->replot(QCustomPlot::rpQueuedReplot);

    const auto& b = m_session->rangeTma();
    m_model->setBreakdown(b);
    m_tree->expandAll();
    QString what;
    if (m_session->data().kind == rdt::pmu::PmuSourceKind::None)
        what = tr("No PMU data: start a capture (simulated or live) or open a perf.data file.");
    else if (points.empty())
        what = tr("%1: no TMA counts (this source recorded samples only; TMA needs the counting recipe).")
                   .arg(m_session->sourceLabel());
    else if (!b.valid)
        what = tr("%1: no TMA interval in the selected range.").arg(m_session->sourceLabel());
    else
        what = tr("%1 \u2014 %2: share of issue slots by where they went (%3 intervals, %4 slots)")
                   .arg(m_session->sourceLabel(),
                       m_session->hasTimeRange() ? tr("%1 s to %2 s")
                                                       .arg(m_session->rangeFrom(), 0, 'f', 3)
                                                       .arg(m_session->rangeTo(), 0, 'f', 3)
                                                 : tr("whole run"))
                   .arg(xs.size())
                   .arg(b.slots, 0, 'g', 3);
    m_caption->setText(what);
}

void TmaView::showRange(double from, double to, bool active)
{
    m_rangeItem->setVisible(active);
    if (active) {
        m_rangeItem->topLeft->setCoords(from, 0);
        m_rangeItem->bottomRight->setCoords(to, 1);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}
