// SPDX-License-Identifier: GPL-3.0-or-later
#include "LatencyView.h"
#include "CountText.h"

#include "models/LatencyModel.h"
#include "models/PmuSession.h"
#include "views/PlotPalette.h"
#include "views/PmuStatusBanner.h"
#include "views/QCustomPlotInclude.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

using rdt::pmu::MemLevel;

namespace {

QColor levelColour(int level)
{
    switch (static_cast<MemLevel>(level)) {
    case MemLevel::L1:
        return QColor(90, 180, 90);
    case MemLevel::Lfb:
        return QColor(170, 210, 110);
    case MemLevel::L2:
        return QColor(240, 200, 70);
    case MemLevel::L3:
        return QColor(245, 140, 60);
    case MemLevel::LocalDram:
        return QColor(210, 70, 60);
    case MemLevel::RemoteDram:
        return QColor(140, 40, 100);
    case MemLevel::RemoteCache:
        return QColor(190, 90, 180);
    case MemLevel::Pmem:
        return QColor(100, 80, 60);
    case MemLevel::Io:
        return QColor(90, 120, 160);
    case MemLevel::Uncached:
        return QColor(60, 60, 60);
    case MemLevel::Cxl:
        return QColor(40, 150, 170);
    default:
        return QColor(170, 170, 170);
    }
}

QTableView* makeTable(LatencyModel* model, QWidget* parent)
{
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(LatencyModel::SortRole);
    auto* t = new QTableView(parent);
    t->setModel(proxy);
    t->setSortingEnabled(true);
    t->sortByColumn(-1, Qt::AscendingOrder); // the report's order (total latency) until the user sorts
    t->verticalHeader()->hide();
    t->setAlternatingRowColors(true);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->horizontalHeader()->setStretchLastSection(true);
    t->horizontalHeader()->setDefaultSectionSize(80);
    t->setColumnWidth(LatencyModel::KeyColumn, 190);
    t->setColumnWidth(LatencyModel::WhereColumn, 150);
    // The figures' columns at least as wide as their headers ("Mean (cycles)" was cut at the default 80 px).
    for (int c = LatencyModel::CountColumn; c < LatencyModel::SourceColumn; ++c)
        t->setColumnWidth(c, std::max(t->columnWidth(c), t->horizontalHeader()->sectionSizeHint(c)));
    return t;
}

} // namespace

LatencyView::LatencyView(PmuSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_functions(new LatencyModel(LatencyModel::Kind::Functions, this))
    , m_lines(new LatencyModel(LatencyModel::Kind::Lines, this))
    , m_plot(new QCustomPlot(this))
    , m_caption(new QLabel(this))
    , m_clear(new QPushButton(tr("Clear filter"), this))
{
    // Bins are log2 latency ranges, so the x axis is logarithmic by construction: bin b covers [2^b, 2^(b+1)).
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int b = 0; b < LatencyModel::kBins; ++b)
        ticker->addTick(b, QString::number(1ull << b));
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(tr("load latency (core cycles, log2 bins)"));
    m_plot->yAxis->setLabel(tr("loads sampled"));
    // A count has no fractions: ticks at whole multiples (1, 2, 5, 10, ...) even when few loads were sampled.
    auto wholeCounts = QSharedPointer<QCPAxisTickerFixed>::create();
    wholeCounts->setTickStep(1.0);
    wholeCounts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(wholeCounts);
    m_plot->legend->setVisible(true);
    m_plot->legend->setSelectableParts(QCPLegend::spItems);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->setMinimumHeight(220);
    keepPlotPalette(m_plot);
    QCPBars* below = nullptr;
    for (int l = 0; l < LatencyModel::kLevels; ++l) {
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(LatencyModel::levelName(l));
        bars->setWidth(0.8);
        bars->setPen(QPen(levelColour(l).darker(140)));
        bars->setBrush(levelColour(l));
        bars->setStackingGap(0);
        if (below) bars->moveAbove(below);
        below = bars;
        m_bars.push_back(bars);
    }

    auto* tabs = new QTabWidget(this);
    tabs->addTab(makeTable(m_functions, this), tr("Functions"));
    tabs->addTab(makeTable(m_lines, this), tr("Cache lines"));
    auto* head = new QHBoxLayout;
    m_caption->setWordWrap(true);
    head->addWidget(m_caption, 1);
    head->addWidget(m_clear);
    auto* bottom = new QWidget(this);
    auto* bl = new QVBoxLayout(bottom);
    bl->setContentsMargins(0, 0, 0, 0);
    bl->addLayout(head);
    bl->addWidget(tabs, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_plot);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({ 450, 400 });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(new PmuStatusBanner(m_session, this));
    layout->addWidget(split);

    connect(m_plot, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int dataIndex, QMouseEvent*) {
        auto* bars = qobject_cast<QCPBars*>(p);
        const int level = static_cast<int>(m_bars.indexOf(bars));
        if (!bars || level < 0 || dataIndex < 0 || dataIndex >= bars->dataCount()) return;
        filterBy(static_cast<int>(std::lround((bars->data()->begin() + dataIndex)->key)), level);
    });
    connect(m_plot, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
        if (auto* pl = qobject_cast<QCPPlottableLegendItem*>(item))
            filterBy(-1, static_cast<int>(m_bars.indexOf(qobject_cast<QCPBars*>(pl->plottable()))));
    });
    connect(m_clear, &QPushButton::clicked, this, [this] { filterBy(-1, -1); });
    connect(m_session, &PmuSession::aggregated, this, &LatencyView::refresh);
    refresh();
}

QCPBars* LatencyView::bars(int level) const
{
    return level >= 0 && level < m_bars.size() ? m_bars[level] : nullptr;
}

double LatencyView::plottedTotal() const
{
    double t = 0;
    for (auto* b : m_bars)
        for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it)
            t += it->value;
    return t;
}

void LatencyView::filterBy(int bin, int level)
{
    m_session->setLatencyFilter(bin, level);
}

void LatencyView::refresh()
{
    const auto& r = m_session->latency();
    int lo = LatencyModel::kBins, hi = -1;
    double top = 0;
    for (int b = 0; b < LatencyModel::kBins; ++b) {
        double sum = 0;
        for (int l = 0; l < LatencyModel::kLevels; ++l)
            sum += static_cast<double>(LatencyModel::binCount(r, b, l));
        if (sum > 0) {
            lo = std::min(lo, b);
            hi = std::max(hi, b);
            top = std::max(top, sum);
        }
    }
    for (int l = 0; l < LatencyModel::kLevels; ++l) {
        QVector<double> keys, values;
        for (int b = 0; b < LatencyModel::kBins; ++b) {
            const auto n = LatencyModel::binCount(r, b, l);
            if (n) {
                keys.push_back(b);
                values.push_back(static_cast<double>(n));
            }
        }
        m_bars[l]->setData(keys, values, true);
        // Only sources that served a load are listed.
        const bool listed = m_plot->legend->hasItemWithPlottable(m_bars[l]);
        if (listed && keys.isEmpty())
            m_bars[l]->removeFromLegend();
        else if (!listed && !keys.isEmpty())
            m_bars[l]->addToLegend();
    }
    if (hi >= 0)
        m_plot->xAxis->setRange(lo - 0.7, hi + 0.7);
    else
        m_plot->xAxis->setRange(-0.7, 10.7);
    m_plot->yAxis->setRange(0, std::max(1.0, top * 1.45)); // headroom: the legend sits above the bars
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    refreshTables();
}

void LatencyView::refreshTables()
{
    m_functions->setReport(m_session->latencyTables());
    m_lines->setReport(m_session->latencyTables());
    const int bin = m_session->latencyBucket(), level = m_session->latencyLevel();
    QString filter;
    if (bin >= 0 || level >= 0)
        filter = tr(" \u2014 tables: %1%2%3 (%4)")
                     .arg(bin >= 0 ? tr("%1 cycles").arg(LatencyModel::binLabel(bin)) : QString(),
                         bin >= 0 && level >= 0 ? QStringLiteral(", ") : QString(),
                         level >= 0 ? tr("from %1").arg(LatencyModel::levelName(level)) : QString())
                     .arg(countText(
                         static_cast<long long>(m_session->latencyTables().total.count), tr("load"), tr("loads")));
    const auto& total = m_session->latency().total;
    if (m_session->data().kind == rdt::pmu::PmuSourceKind::None)
        m_caption->setText(tr("No PMU data: start a capture (simulated or live) or open a perf.data file."));
    else if (total.count == 0)
        m_caption->setText(
            tr("%1: no load-latency samples%2.")
                .arg(m_session->sourceLabel(), m_session->hasTimeRange() ? tr(" in the selected range") : QString()));
    else {
        // mem_region (Linux 7.0, Diamond Rapids): the engine's per-region counts, as `report --mem` lists them.
        QString regions;
        const auto& byRegion = m_session->latency().byRegion;
        for (std::size_t g = 1; g < byRegion.size(); ++g)
            if (byRegion[g])
                regions += (regions.isEmpty() ? tr(", regions: ") : QStringLiteral(", "))
                    + QString::fromStdString(rdt::pmu::memRegionName(static_cast<std::uint8_t>(g)))
                    + QStringLiteral(" ") + QString::number(byRegion[g]);
        m_caption->setText(tr("%1: %2, mean %3 cycles, p99 %4, %5 HITM%6%7")
                               .arg(m_session->sourceLabel())
                               .arg(countText(static_cast<long long>(total.count), tr("load"), tr("loads")))
                               .arg(total.mean(), 0, 'f', 1)
                               .arg(total.percentile(0.99))
                               .arg(total.hitm)
                               .arg(regions, filter));
    }
    m_clear->setEnabled(bin >= 0 || level >= 0);
}
