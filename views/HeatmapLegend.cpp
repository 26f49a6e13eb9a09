// SPDX-License-Identifier: GPL-3.0-or-later
#include "HeatmapLegend.h"

#include "HeatmapLayout.h"
#include "HeatmapPalette.h"
#include "models/AllocationModel.h"

#include <QPainter>

HeatmapLegend::HeatmapLegend(const QFontMetrics& metrics, int left, bool ioAlloc)
    : m_metrics(metrics)
    , m_left(left)
    , m_texts { tr("allocated"), tr("overlapping"), tr("exclusive"), tr("hardware-shared"), tr("unused"), tr("invalid"),
        tr("occupancy (over the group's ways)") }
{
    if (ioAlloc) m_texts << tr("I/O (io_alloc)");
}

bool HeatmapLegend::ioAllocShown(const AllocationModel& model)
{
    for (int r = 0; r < model.rowCount(); ++r)
        if (const CacheSchema* s = model.rowSchema(r); s && !s->ioAllocMasks.empty()) return true;
    return false;
}

int HeatmapLegend::width() const
{
    int w = m_left;
    for (const QString& t : m_texts)
        w += m_metrics.height() - 4 + 4 + m_metrics.horizontalAdvance(t) + 14;
    return w;
}

int HeatmapLegend::height(int widgetWidth) const
{
    // As many lines as paint() wraps into at this width.
    int lines = 1;
    int x = m_left;
    for (const QString& t : m_texts) {
        const int need = m_metrics.height() - 4 + 4 + m_metrics.horizontalAdvance(t) + 14;
        if (x > m_left && x + need - 14 > widgetWidth - HeatmapLayout::Margin) {
            ++lines;
            x = m_left;
        }
        x += need;
    }
    return lines * (m_metrics.height() + 4) + 10;
}

void HeatmapLegend::paint(QPainter& p, const QPalette& palette, int top, int widgetWidth) const
{
    const HeatmapPalette colours(palette);
    const int box = m_metrics.height() - 4;
    int x = m_left;
    const QColor swatches[] = { colours.allocated, colours.overlapping, colours.exclusive, colours.unused,
        colours.unused, colours.invalid, colours.occupancy, colours.unused };
    for (int i = 0; i < m_texts.size(); ++i) {
        const int tw = m_metrics.horizontalAdvance(m_texts[i]);
        if (x > m_left && x + box + 4 + tw > widgetWidth - HeatmapLayout::Margin) {
            x = m_left; // wrap onto a second line in narrow docks
            top += m_metrics.height() + 4;
        }
        const QRect sw(x, top + 2, box, box);
        p.fillRect(sw, swatches[i]);
        if (i == 3) p.fillRect(sw, QBrush(colours.hatch, Qt::BDiagPattern));
        if (i == 7) {
            p.fillRect(sw, QBrush(colours.ioAlloc, Qt::FDiagPattern));
            p.setPen(QPen(colours.ioAlloc, 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(sw.adjusted(0, 0, -1, -1));
        }
        p.setPen(palette.color(QPalette::Text));
        p.drawText(QRect(x + box + 4, top, tw + 2, m_metrics.height()), Qt::AlignVCenter, m_texts[i]);
        x += box + 4 + tw + 14;
    }
}
