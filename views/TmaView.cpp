// SPDX-License-Identifier: GPL-3.0-or-later
#include "TmaView.h"

#include "models/PmuSession.h"
#include "models/TmaModel.h"
#include "views/PlotPalette.h"
#include "views/PmuStatusBanner.h"
#include "views/QCustomPlotInclude.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
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
    , m_seriesBox(new QComboBox(this))
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
    keepPlotPalette(m_plot);
    m_rangeItem = new QCPItemRect(m_plot);
    // Mid grey and a translucent blue read on light and dark plots alike.
    m_rangeItem->setPen(QPen(QColor(128, 128, 128), 1, Qt::DashLine));
    m_rangeItem->setBrush(QColor(61, 142, 230, 50));
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
    // Hybrid parts: which core PMU's breakdown to show (hidden with one series, so nothing changes otherwise).
    m_seriesBox->setToolTip(tr("Hybrid CPU: TMA is counted per core type. P-cores (cpu_core) have level 1 and, on "
                               "Sapphire Rapids-class cores, level 2; E-cores (cpu_atom) level 1 only (perf's "
                               "cpu_atom metrics). The same time range applies to both."));
    auto* seriesRow = new QWidget(this);
    auto* sl = new QHBoxLayout(seriesRow);
    sl->setContentsMargins(0, 0, 0, 0);
    sl->addWidget(new QLabel(tr("Core type:"), seriesRow));
    sl->addWidget(m_seriesBox);
    sl->addStretch(1);
    seriesRow->setVisible(false);
    connect(m_seriesBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i < 0 || i == m_series) return;
        m_series = i;
        refresh();
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(new PmuStatusBanner(m_session, this));
    layout->addWidget(seriesRow);
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
    connect(m_session, &PmuSession::dataReset, this, &TmaView::syncSeries);
    connect(m_session, &PmuSession::aggregated, this, &TmaView::refresh);
    connect(m_session, &PmuSession::timeRangeChanged, this, &TmaView::showRange);
    syncSeries();
    refresh();
}

void TmaView::setCurrentSeries(int series)
{
    if (series < 0 || series >= m_seriesBox->count()) return;
    m_seriesBox->setCurrentIndex(series); // refreshes through currentIndexChanged
}

QString TmaView::caption() const
{
    return m_caption->text();
}

void TmaView::syncSeries()
{
    const auto& labels = m_session->data().tmaSeries;
    QStringList names;
    for (const auto& l : labels)
        names << QString::fromStdString(l);
    QStringList current;
    for (int i = 0; i < m_seriesBox->count(); ++i)
        current << m_seriesBox->itemText(i);
    if (names != current) {
        const QSignalBlocker block(m_seriesBox);
        m_seriesBox->clear();
        m_seriesBox->addItems(names);
        if (m_series >= m_seriesBox->count()) m_series = 0; // new data with fewer series: back to the first
        m_seriesBox->setCurrentIndex(names.isEmpty() ? -1 : m_series);
    }
    if (names.isEmpty()) m_series = 0;
    m_seriesBox->parentWidget()->setVisible(names.size() > 1);
}

int TmaView::pointCount() const
{
    return m_plot->graph(0)->dataCount();
}

void TmaView::refresh()
{
    const auto& pmu = m_session->data();
    const auto& points = pmu.tma;
    const auto series = static_cast<std::uint32_t>(m_series);
    const bool several = pmu.tmaSeriesCount() > 1;
    QList<QVector<double>> ys(4);
    QVector<double> xs;
    xs.reserve(static_cast<qsizetype>(points.size()));
    bool anyOfSeries = false;
    for (const auto& p : points) {
        if (p.series != series) continue; // another core type's breakdown
        anyOfSeries = true;
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

    const auto& b = m_session->rangeTma(static_cast<std::size_t>(m_series));
    m_model->setBreakdown(b);
    m_tree->expandAll();
    // With several series the caption names the one shown; E-cores have level 1 only (no level-2 rows).
    const QString source = several ? tr("%1, %2").arg(m_session->sourceLabel(),
                               QString::fromStdString(pmu.tmaSeriesLabel(static_cast<std::size_t>(m_series))))
                                   : m_session->sourceLabel();
    QString what;
    if (pmu.kind == rdt::pmu::PmuSourceKind::None)
        what = tr("No PMU data: start a capture (simulated or live) or open a perf.data file.");
    else if (points.empty())
        what = tr("%1: no TMA counts (this source recorded samples only; TMA needs the counting recipe).")
                   .arg(m_session->sourceLabel());
    else if (!anyOfSeries)
        what = tr("%1: no TMA interval counted yet.").arg(source);
    else if (!b.valid)
        what = tr("%1: no TMA interval in the selected range.").arg(source);
    else
        what = tr("%1 \u2014 %2: share of issue slots by where they went (%3 intervals, %4 slots)%5")
                   .arg(source,
                       m_session->hasTimeRange() ? tr("%1 s to %2 s")
                                                       .arg(m_session->rangeFrom(), 0, 'f', 3)
                                                       .arg(m_session->rangeTo(), 0, 'f', 3)
                                                 : tr("whole run"))
                   .arg(xs.size())
                   .arg(b.slots, 0, 'g', 3)
                   .arg(several && !b.level2.present ? tr("; level 1 only for this core type") : QString());
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
