// SPDX-License-Identifier: GPL-3.0-or-later
// HeatmapGrid's painting: every domain's panel, the mask column, the occupancy overlay and the legend.
#include "HeatmapGrid.h"

#include "HeatmapPalette.h"
#include "core/Units.h"

#include <QPainter>

#include <algorithm>
#include <bit>

bool HeatmapGrid::ioAllocShown() const
{
    if (!m_model) return false;
    for (int r = 0; r < rowCountSafe(); ++r)
        if (const CacheSchema* s = m_model->rowSchema(r); s && !s->ioAllocMasks.empty()) return true;
    return false;
}

int HeatmapGrid::legendWidth() const
{
    int w = gridLeft();
    for (const QString& t : legendTexts())
        w += fontMetrics().height() - 4 + 4 + fontMetrics().horizontalAdvance(t) + 14;
    return w;
}

int HeatmapGrid::legendHeight(int w) const
{
    // As many lines as paintLegend() wraps into at this width.
    int lines = 1;
    int x = gridLeft();
    for (const QString& t : legendTexts()) {
        const int need = fontMetrics().height() - 4 + 4 + fontMetrics().horizontalAdvance(t) + 14;
        if (x > gridLeft() && x + need - 14 > w - HeatmapLayout::Margin) {
            ++lines;
            x = gridLeft();
        }
        x += need;
    }
    return lines * (fontMetrics().height() + 4) + 10;
}

QStringList HeatmapGrid::legendTexts() const
{
    QStringList t { tr("allocated"), tr("overlapping"), tr("exclusive"), tr("hardware-shared"), tr("unused"),
        tr("invalid"), tr("occupancy (over the group's ways)") };
    if (ioAllocShown()) t << tr("I/O (io_alloc)");
    return t;
}

void HeatmapGrid::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_model || rowCountSafe() == 0 || bitCount() == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No cache allocation (CAT) on this source"));
        return;
    }
    const HeatmapLayout& l = layout();
    const bool titled = l.panels.size() > 1;
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.85));
    const QFontMetrics smallFm(small);
    int lastLine = -1;
    for (const HeatmapLayout::Panel& panel : l.panels) {
        const bool current = panel.domain == m_model->domain();
        if (titled) { // the domain's title, bold for the one keyboard edits go to
            QFont f = font();
            f.setBold(current);
            p.setFont(f);
            p.setPen(palette().color(QPalette::Text));
            p.drawText(QRect(panel.left, panel.titleTop, l.bits * l.cellW + l.maskW, fontMetrics().height()),
                Qt::AlignLeft | Qt::AlignVCenter, tr("domain %1").arg(panel.domain));
        }
        // Bit numbers above the columns: every bit when they fit, else every fourth (and bit 0).
        p.setFont(small);
        p.setPen(palette().color(QPalette::Text));
        const int every = smallFm.horizontalAdvance(QString::number(l.bits - 1)) + 2 <= l.cellW ? 1 : 4;
        for (int b = 0; b < l.bits; b += every) {
            const QRect c = l.cellRect(panel, 0, b);
            const QRect label(c.center().x() - 20, panel.top - smallFm.height() - 4, 40, smallFm.height());
            p.drawText(label, Qt::AlignHCenter | Qt::AlignBottom, QString::number(b));
        }
        p.setFont(font());
        for (int r = 0; r < rowCountSafe(); ++r)
            paintRow(p, panel, r, panel.line != lastLine);
        lastLine = panel.line;
    }
    if (!titled) {
        for (int r = 0; r < rowCountSafe(); ++r)
            paintInfo(p, r);
    }
    paintLegend(p);
}

void HeatmapGrid::paintRow(QPainter& p, const HeatmapLayout::Panel& panel, int row, bool withLabel)
{
    const HeatmapLayout& l = layout();
    const HeatmapPalette colours(palette());
    const int domain = panel.domain;
    const bool pending = m_model->hasPendingIn(row, domain);
    const bool current = domain == m_model->domain();
    const QString error = current ? m_model->rowError(row) : QString();
    const QRect strip = l.cellRect(panel, row, l.bits - 1).united(l.cellRect(panel, row, 0));
    const CacheSchema* schema = m_model->rowSchema(row);
    const bool external = !m_model->externalChangeIn(row, domain).isEmpty();

    const int badgeSize = std::max(6, strip.height() - 6);
    if (withLabel) {
        p.setPen(error.isEmpty() ? palette().color(QPalette::Text) : colours.invalid);
        const int room = external ? badgeSize + 4 : 0; // the label ends before the badge
        const QRect label(
            HeatmapLayout::Margin, strip.top(), gridLeft() - HeatmapLayout::Margin - 8 - room, strip.height());
        p.drawText(label, Qt::AlignVCenter | Qt::AlignRight,
            fontMetrics().elidedText(
                m_model->rowLabel(row) + (pending ? QStringLiteral("*") : QString()), Qt::ElideMiddle, label.width()));
    }
    if (external) { // a badge left of the row in every domain it changed in (the tooltip says what and when)
        const QRect badge(strip.left() - badgeSize - 3, strip.center().y() - badgeSize / 2, badgeSize, badgeSize);
        p.setPen(Qt::NoPen);
        p.setBrush(colours.external);
        p.drawEllipse(badge);
        p.setPen(palette().color(QPalette::Base));
        p.drawText(badge, Qt::AlignCenter, QStringLiteral("!"));
    }
    const quint64 mask = m_model->maskIn(row, domain);
    for (int b = 0; b < l.bits; ++b) {
        const QRect c = l.cellRect(panel, row, b).adjusted(1, 1, -1, -1);
        p.fillRect(c, colours.forState(m_model->cellState(row, b, domain)));
        if (schema && ((schema->shareableBits >> b) & 1u)) p.fillRect(c, QBrush(colours.hatch, Qt::BDiagPattern));
        if (schema && ((schema->ioAllocMask(domain) >> b) & 1u)) { // I/O ways: the other diagonal and a frame
            p.fillRect(c, QBrush(colours.ioAlloc, Qt::FDiagPattern));
            p.setPen(QPen(colours.ioAlloc, 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(c.adjusted(0, 0, -1, -1));
        }
        if (current && hasFocus() && row == m_cursorRow && b == m_cursorBit) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRect(c.adjusted(1, 1, -1, -1));
        }
    }
    // Occupancy drawn over the group's own ways: the bar fills the share of those ways' bytes the group holds.
    quint64 bytes = 0;
    if (schema && mask && m_model->occupancyIn(row, domain, &bytes)) {
        const QRect first = l.cellRect(panel, row, 63 - std::countl_zero(mask));
        const QRect last = l.cellRect(panel, row, std::countr_zero(mask));
        const QRect ways = first.united(last);
        const double owned = double(schema->bytesPerBit()) * std::popcount(mask);
        const double f = owned > 0 ? std::clamp(double(bytes) / owned, 0.0, 1.0) : 0.0;
        p.fillRect(QRect(ways.left() + 1, ways.bottom() - 4, int(f * (ways.width() - 2)), 4), colours.occupancy);
    }
    if (pending) {
        p.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(strip.adjusted(0, 0, -1, -1));
    } else if (external) {
        p.setPen(QPen(colours.external, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(strip.adjusted(1, 1, -1, -1));
    }
    // The mask, in full, in its own column.
    p.setPen(error.isEmpty() ? palette().color(QPalette::Text) : colours.invalid);
    p.drawText(QRect(panel.maskLeft, strip.top(), l.maskW, strip.height()), Qt::AlignVCenter | Qt::AlignLeft,
        QStringLiteral("0x") + QString::number(mask, 16));
}

void HeatmapGrid::paintInfo(QPainter& p, int row)
{
    // One domain: room beside the mask for the occupancy and the reason a row is red or was refused.
    const HeatmapLayout& l = layout();
    const HeatmapPalette colours(palette());
    const QRect c = cellRect(row, 0);
    const QRect info(l.infoLeft + l.maskW, c.top(), width() - l.infoLeft - l.maskW - HeatmapLayout::Margin, c.height());
    QString text;
    quint64 bytes = 0;
    if (m_model->occupancyIn(row, m_model->domain(), &bytes))
        text = QString::fromStdString(rdt::formatBytes(double(bytes)));
    const QString error = m_model->rowError(row);
    if (!error.isEmpty()) text += (text.isEmpty() ? QString() : QStringLiteral("  ")) + error;
    p.setPen(error.isEmpty() ? palette().color(QPalette::Text) : colours.invalid);
    p.drawText(info, Qt::AlignVCenter | Qt::AlignLeft, fontMetrics().elidedText(text, Qt::ElideRight, info.width()));
}

void HeatmapGrid::paintLegend(QPainter& p)
{
    const HeatmapPalette colours(palette());
    int top = layout().bottom + 10;
    const int box = fontMetrics().height() - 4;
    int x = gridLeft();
    const QStringList texts = legendTexts();
    const QColor swatches[] = { colours.allocated, colours.overlapping, colours.exclusive, colours.unused,
        colours.unused, colours.invalid, colours.occupancy, colours.unused };
    for (int i = 0; i < texts.size(); ++i) {
        const int tw = fontMetrics().horizontalAdvance(texts[i]);
        if (x > gridLeft() && x + box + 4 + tw > width() - HeatmapLayout::Margin) {
            x = gridLeft(); // wrap onto a second line in narrow docks
            top += fontMetrics().height() + 4;
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
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(x + box + 4, top, tw + 2, fontMetrics().height()), Qt::AlignVCenter, texts[i]);
        x += box + 4 + tw + 14;
    }
}
