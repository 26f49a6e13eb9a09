// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineExport.h"

#include "QCustomPlotInclude.h"
#include "core/Csv.h"
#include "models/FramePump.h"
#include "rdt/SampleCsv.h"

#include <QFile>
#include <QSvgGenerator>
#include <QTextStream>

#include <algorithm>
#include <cmath>

TimelineExport::TimelineExport(QCustomPlot* plot)
    : m_plot(plot)
{
    // The legend on screen is the group list beside the plot (whole names, check boxes); this in-plot legend joins
    // the layout only for an export.
    m_plot->legend = new QCPLegend;
    m_plot->legend->setVisible(true);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(4);
    m_plot->legend->setIconSize(18, 8);
    // Added to the plot's layout once, so the legend belongs to this plot (addToLegend refuses a legend of no plot,
    // and exports then listed no group), then taken out until an export shows it. The grid joins the plot before
    // the legend joins the grid: a layout element adopted by a grid of no plot makes QCustomPlot complain on every
    // start ("initializeParentPlot ... called with parentPlot zero").
    m_legend = new QCPLayoutGrid;
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_legend);
    m_legend->addElement(0, 0, m_plot->legend);
    m_legend->setMargins(QMargins(4, 2, 4, 0));
    m_plot->plotLayout()->take(m_legend);
    m_plot->plotLayout()->simplify();
}

void TimelineExport::showLegend(bool shown) const
{
    // The image carries its own legend (the group list is not part of the plot); on screen it stays out of the way.
    if (shown) {
        m_plot->plotLayout()->insertRow(0);
        m_plot->plotLayout()->addElement(0, 0, m_legend);
        m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    } else {
        m_plot->plotLayout()->take(m_legend);
        m_plot->plotLayout()->simplify();
    }
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

bool TimelineExport::writePng(const QString& path, QString* error) const
{
    showLegend(true);
    const bool saved = m_plot->savePng(path, 0, 0, 1.0);
    showLegend(false);
    if (saved) return true;
    if (error) *error = tr("Could not write the PNG image %1: check that the folder exists and is writable.").arg(path);
    return false;
}

bool TimelineExport::writeSvg(const QString& path, QString* error) const
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(m_plot->size());
    generator.setViewBox(QRect(QPoint(0, 0), m_plot->size()));
    generator.setTitle(tr("rdtscope timeline"));
    QCPPainter painter;
    if (!painter.begin(&generator)) {
        if (error)
            *error = tr("Could not write the SVG drawing %1: check that the folder exists and is writable.").arg(path);
        return false;
    }
    showLegend(true);
    m_plot->toPainter(&painter, m_plot->width(), m_plot->height());
    painter.end();
    showLegend(false);
    return QFile::exists(path);
}

bool TimelineExport::writeCsv(const QString& path, const FramePump* pump, std::pair<double, double> range,
    const std::function<bool(int)>& shown, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
        if (error) *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    QTextStream out(&file);
    const auto [t0, t1] = range;
    const SourceDescription source = pump ? pump->source() : SourceDescription {};
    out << "# rdtscope timeline export, source: " << QString::fromStdString(source.name)
        << (source.kind == SourceKind::Simulated ? " (SIMULATED data)" : "") << "\n";
    // The rows of `monitor --csv` (one CSV rule: rdt/SampleCsv.h); the timelines sum every cache domain, so the
    // domain column is empty.
    out << rdt::kSampleCsvHeader << "\n";
    if (pump) {
        const auto& store = pump->store();
        for (int gi = 0; gi < store.groupCount(); ++gi) {
            if (!shown(gi)) continue;
            const std::string name = store.groupName(gi).toStdString();
            store.forEachRaw(gi, t0, t1, [&](double t, const std::array<double, kMetricCount>& v) {
                const auto metric = [&](Metric m) { return v[static_cast<std::size_t>(m)]; };
                out << QString::fromStdString(rdt::sampleCsvLine({ t, name, std::nullopt,
                    std::isnan(metric(Metric::Occupancy)) ? std::nullopt
                                                          : std::optional<std::uint64_t>(static_cast<std::uint64_t>(
                                                              std::max(0.0, metric(Metric::Occupancy)))),
                    metric(Metric::BandwidthTotal), metric(Metric::BandwidthLocal), {} }));
            });
        }
        for (const auto& marker : pump->markers()) {
            if (marker.t >= t0 && marker.t <= t1)
                out << "# marker," << QString::number(marker.t, 'f', 3) << ','
                    << QString::fromStdString(rdt::csvField(marker.label.toStdString())) << "\n";
        }
    }
    out.flush();
    if (file.error() != QFileDevice::NoError) {
        if (error) *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}
