// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareOverlay.h"

#include "QCustomPlotInclude.h"
#include "models/CompareDiffModel.h"

#include <QLabel>
#include <QVBoxLayout>

using namespace rdt::compare;

CompareOverlay::CompareOverlay(QWidget* parent)
    : QWidget(parent)
    , m_tma(new QCustomPlot(this))
    , m_latency(new QCustomPlot(this))
    , m_tmaEmpty(new QLabel(tr("No TMA in either file (sessions hold TMA when the PMU was recorded with them)."), this))
    , m_latencyEmpty(new QLabel(tr("No load-latency samples in either file (perf mem record / PEBS)."), this))
{
    auto* layout = new QVBoxLayout(this);
    for (QLabel* l : { m_tmaEmpty, m_latencyEmpty })
        l->setWordWrap(true);
    layout->addWidget(new QLabel(tr("<b>TMA</b> (% of issue slots): A and B side by side"), this));
    layout->addWidget(m_tmaEmpty);
    layout->addWidget(m_tma, 1);
    layout->addWidget(new QLabel(tr("<b>Load latency by data source</b> (share of loads; mean cycles below)"), this));
    layout->addWidget(m_latencyEmpty);
    layout->addWidget(m_latency, 1);
}

bool CompareOverlay::plotPairs(
    QCustomPlot* plot, const Comparison& c, Section section, const QString& yLabel, bool withMean)
{
    plot->clearPlottables();
    QVector<double> ticks, a, b;
    QVector<QString> labels;
    for (const auto& r : c.rows) {
        if (r.section != section || (withMean ? r.metric != "share" : false)) continue;
        QString label = QString::fromStdString(r.item);
        if (section == Section::Tma) label += QStringLiteral(" (L%1)").arg(QString::fromStdString(r.metric).right(1));
        if (withMean) {
            for (const auto& m : c.rows)
                if (m.section == section && m.item == r.item && m.metric == "mean")
                    label += QStringLiteral("\n%1 / %2 cyc")
                                 .arg(m.a ? QString::number(*m.a, 'f', 0) : QStringLiteral("\u2013"),
                                     m.b ? QString::number(*m.b, 'f', 0) : QStringLiteral("\u2013"));
        }
        ticks << static_cast<double>(ticks.size() + 1);
        labels << label;
        a << r.a.value_or(0);
        b << r.b.value_or(0);
    }
    if (ticks.isEmpty()) return false;
    auto* group = new QCPBarsGroup(plot);
    const QColor colorA = CompareDiffModel::changeColor(-1), colorB = CompareDiffModel::changeColor(1);
    const QString nameA = tr("A: %1").arg(QString::fromStdString(c.a.path).section(QLatin1Char('/'), -1));
    const QString nameB = tr("B: %1").arg(QString::fromStdString(c.b.path).section(QLatin1Char('/'), -1));
    for (const auto& [values, color, name] : { std::tuple { &a, colorA, nameA }, std::tuple { &b, colorB, nameB } }) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setData(ticks, *values, true);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130)));
        bars->setName(name);
        bars->setWidth(0.38);
        bars->setBarsGroup(group);
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTicks(ticks, labels);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setTickLabelRotation(ticks.size() > 6 ? 30 : 0);
    plot->xAxis->setRange(0.3, static_cast<double>(ticks.size()) + 0.7);
    plot->yAxis->setLabel(yLabel);
    double top = 1;
    for (double v : a + b)
        top = std::max(top, v);
    plot->yAxis->setRange(0, top * 1.15);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot->replot();
    return true;
}

void CompareOverlay::setComparison(const Comparison& c)
{
    const bool tma = plotPairs(m_tma, c, Section::Tma, tr("% of slots"), false);
    m_tma->setVisible(tma);
    m_tmaEmpty->setVisible(!tma);
    const bool lat = plotPairs(m_latency, c, Section::LatencySource, tr("% of loads"), true);
    m_latency->setVisible(lat);
    m_latencyEmpty->setVisible(!lat);
}
