// SPDX-License-Identifier: GPL-3.0-or-later
// The timelines' exports: the Export menu, PNG and SVG of what is shown (with a legend for a file without the
// group list beside it), and CSV of the plotted series.
#include "TimelineView.h"

#include "QCustomPlotInclude.h"
#include "core/Csv.h"
#include "models/FramePump.h"
#include "rdt/SampleCsv.h"

#include <QFile>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSvgGenerator>
#include <QTextStream>
#include <QToolButton>

#include <algorithm>
#include <cmath>

void TimelineView::exportMenu()
{
    auto* menu = new QMenu(m_exportButton);
    struct Kind {
        QString label;
        QString filter;
        bool (TimelineView::*fn)(const QString&, QString*);
    };
    const Kind kinds[] = { { tr("PNG image\u2026"), tr("PNG image (*.png)"), &TimelineView::exportPng },
        { tr("SVG drawing\u2026"), tr("SVG drawing (*.svg)"), &TimelineView::exportSvg },
        { tr("CSV data\u2026"), tr("CSV (*.csv)"), &TimelineView::exportCsv } };
    for (const auto& k : kinds) {
        menu->addAction(k.label, this, [this, k] {
            const QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"), QString(), k.filter);
            if (path.isEmpty()) return;
            QString error;
            if (!(this->*k.fn)(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
        });
    }
    m_exportButton->setMenu(menu);
}

void TimelineView::showExportLegend(bool shown)
{
    // The image carries its own legend (the group list is not part of the plot); on screen it stays out of the way.
    if (shown) {
        m_plot->plotLayout()->insertRow(0);
        m_plot->plotLayout()->addElement(0, 0, m_exportLegend);
        m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    } else {
        m_plot->plotLayout()->take(m_exportLegend);
        m_plot->plotLayout()->simplify();
    }
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

bool TimelineView::exportPng(const QString& path, QString* error)
{
    showExportLegend(true);
    const bool saved = m_plot->savePng(path, 0, 0, 1.0);
    showExportLegend(false);
    if (saved) return true;
    if (error) *error = tr("Could not write the PNG image %1: check that the folder exists and is writable.").arg(path);
    return false;
}

bool TimelineView::exportSvg(const QString& path, QString* error)
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
    showExportLegend(true);
    m_plot->toPainter(&painter, m_plot->width(), m_plot->height());
    painter.end();
    showExportLegend(false);
    return QFile::exists(path);
}

bool TimelineView::exportCsv(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
        if (error) *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    QTextStream out(&file);
    const auto [t0, t1] = visibleRange();
    const SourceDescription source = m_pump ? m_pump->source() : SourceDescription {};
    out << "# rdtscope timeline export, source: " << QString::fromStdString(source.name)
        << (source.kind == SourceKind::Simulated ? " (SIMULATED data)" : "") << "\n";
    // The rows of `monitor --csv` (one CSV rule: rdt/SampleCsv.h); the timelines sum every cache domain, so the
    // domain column is empty.
    out << rdt::kSampleCsvHeader << "\n";
    if (m_pump) {
        const auto& store = m_pump->store();
        for (int gi = 0; gi < store.groupCount(); ++gi) {
            if (gi < m_groups.size() && !m_groups[gi].visible) continue;
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
        for (const auto& marker : m_pump->markers()) {
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
