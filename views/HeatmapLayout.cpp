// SPDX-License-Identifier: GPL-3.0-or-later
#include "HeatmapLayout.h"

#include <QString>

#include <algorithm>

namespace {
int maskColumnWidth(const QFontMetrics& fm, int bits)
{
    // The full mask, never clipped: "0x" and one hex digit per four bits, each as wide as the widest hex digit (in
    // a proportional font "0xff800" is wider than "0xfffff").
    int digit = 0;
    for (const QChar c : QStringLiteral("0123456789abcdef"))
        digit = std::max(digit, fm.horizontalAdvance(c));
    return fm.horizontalAdvance(QStringLiteral("0x")) + (bits + 3) / 4 * digit + 8;
}
int headerHeight(const QFontMetrics& fm, bool titled)
{
    return (titled ? fm.height() + 2 : 0) + fm.height() + 6;
}
} // namespace

int HeatmapLayout::widthFor(const Input& in, int cellW, int perLine)
{
    const int panelW = in.bits * cellW + maskColumnWidth(in.metrics, in.bits) + PanelGap;
    return in.labelWidth + perLine * panelW + Margin;
}

HeatmapLayout HeatmapLayout::compute(const Input& in)
{
    HeatmapLayout l;
    l.bits = in.bits;
    l.rows = in.rows;
    l.maskW = maskColumnWidth(in.metrics, in.bits);
    const int n = std::max<int>(1, static_cast<int>(in.domains.size()));
    const int avail = std::max(0, in.width - in.labelWidth - Margin);
    const int fixed = l.maskW + PanelGap;
    auto cellFor
        = [&](int perLine) { return in.bits > 0 ? (avail - perLine * fixed) / (perLine * in.bits) : MaxCellW; };
    int perLine = n;
    if (n > 1) {
        // As many panels per line as fit with readable cells; the rest wrap, balanced (4 domains: 2 x 2, not 3 + 1).
        while (perLine > 1 && cellFor(perLine) < MinCellW)
            --perLine;
        const int lines = (n + perLine - 1) / perLine;
        perLine = (n + lines - 1) / lines;
    }
    l.cellW = n == 1 ? MaxCellW : std::clamp(cellFor(perLine), MinCellW, MaxCellW);
    // Several domains: flatter cells, so four stacked domains of a few groups fit the dashboard's upper half.
    l.cellH = n == 1 ? (in.rows <= 8 ? 24 : 18) : (in.rows <= 8 ? 18 : 14);
    const bool titled = n > 1;
    const int header = headerHeight(in.metrics, titled);
    const int lineH = header + in.rows * (l.cellH + RowGap) + 10;
    for (int i = 0; i < n; ++i) {
        Panel p;
        p.domain = in.domains.isEmpty() ? 0 : in.domains[i];
        p.line = i / perLine;
        const int column = i % perLine;
        p.left = in.labelWidth + column * (in.bits * l.cellW + fixed);
        p.titleTop = Margin + p.line * lineH;
        p.top = p.titleTop + header;
        p.maskLeft = p.left + in.bits * l.cellW + 6;
        l.panels << p;
    }
    const int lines = (n + perLine - 1) / perLine;
    l.infoLeft = l.panels.first().left + std::min(n, perLine) * (in.bits * l.cellW + fixed) - PanelGap + 6;
    l.bottom = Margin + lines * lineH - 10;
    return l;
}

const HeatmapLayout::Panel* HeatmapLayout::panelFor(int domain) const
{
    for (const Panel& p : panels) {
        if (p.domain == domain) return &p;
    }
    return panels.isEmpty() ? nullptr : &panels.first();
}

QRect HeatmapLayout::cellRect(const Panel& p, int row, int bit) const
{
    if (row < 0 || row >= rows || bit < 0 || bit >= bits) return {};
    const int column = bits - 1 - bit; // most significant bit on the left, as masks are written
    return QRect(p.left + column * cellW, p.top + row * (cellH + RowGap), cellW, cellH);
}

bool HeatmapLayout::hit(const QPoint& pos, int* panel, int* row, int* bit, bool clampPanel) const
{
    if (bits <= 0 || rows <= 0) return false;
    auto rowAt = [&](const Panel& p) {
        const int r = (pos.y() - p.top) / (cellH + RowGap);
        return pos.y() >= p.top && r < rows ? r : -1;
    };
    if (clampPanel && *panel >= 0 && *panel < panels.size()) {
        const Panel& p = panels[*panel];
        const int column = pos.x() < p.left ? 0 : std::clamp((pos.x() - p.left) / std::max(1, cellW), 0, bits - 1);
        *bit = bits - 1 - column;
        return true;
    }
    for (int i = 0; i < panels.size(); ++i) {
        const Panel& p = panels[i];
        if (pos.x() < p.left || pos.x() >= p.left + bits * cellW) continue;
        const int r = rowAt(p);
        if (r < 0) continue;
        *panel = i;
        *row = r;
        *bit = bits - 1 - (pos.x() - p.left) / cellW;
        return true;
    }
    return false;
}
