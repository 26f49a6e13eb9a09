// SPDX-License-Identifier: GPL-3.0-or-later
#include "HeatmapPainter.h"
#include "core/Text.h"

#include "HeatmapLegend.h"
#include "HeatmapPalette.h"
#include "core/Units.h"
#include "models/AllocationModel.h"

#include <QPainter>
#include <QWidget>

#include <algorithm>
#include <bit>

HeatmapPainter::HeatmapPainter(const AllocationModel& model, const HeatmapLayout& layout, const QWidget& widget,
    int gridLeft, std::optional<Cell> cursor)
    : m_model(model)
    , m_layout(layout)
    , m_widget(widget)
    , m_gridLeft(gridLeft)
    , m_cursor(cursor)
{ }

void HeatmapPainter::paint(QPainter& p) const
{
    const HeatmapLayout& l = m_layout;
    const bool titled = l.panels.size() > 1;
    QFont small = m_widget.font();
    small.setPointSizeF(std::max(6.0, m_widget.font().pointSizeF() * 0.85));
    const QFontMetrics smallFm(small);
    int lastLine = -1;
    for (const HeatmapLayout::Panel& panel : l.panels) {
        const bool current = panel.domain == m_model.domain();
        if (titled) { // the domain's title, bold for the one keyboard edits go to
            QFont f = m_widget.font();
            f.setBold(current);
            p.setFont(f);
            p.setPen(m_widget.palette().color(QPalette::Text));
            p.drawText(QRect(panel.left, panel.titleTop, l.bits * l.cellW + l.maskW, m_widget.fontMetrics().height()),
                Qt::AlignLeft | Qt::AlignVCenter, tr("domain %1").arg(panel.domain));
        }
        // Bit numbers above the columns: every bit when they fit, else every fourth (and bit 0).
        p.setFont(small);
        p.setPen(m_widget.palette().color(QPalette::Text));
        const int every = smallFm.horizontalAdvance(QString::number(l.bits - 1)) + 2 <= l.cellW ? 1 : 4;
        for (int b = 0; b < l.bits; b += every) {
            const QRect c = l.cellRect(panel, 0, b);
            const QRect label(c.center().x() - 20, panel.top - smallFm.height() - 4, 40, smallFm.height());
            p.drawText(label, Qt::AlignHCenter | Qt::AlignBottom, QString::number(b));
        }
        p.setFont(m_widget.font());
        for (int r = 0; r < m_model.rowCount(); ++r)
            paintRow(p, panel, r, panel.line != lastLine);
        lastLine = panel.line;
    }
    if (!titled) {
        for (int r = 0; r < m_model.rowCount(); ++r)
            paintInfo(p, r);
    }
    HeatmapLegend(m_widget.fontMetrics(), m_gridLeft, HeatmapLegend::ioAllocShown(m_model))
        .paint(p, m_widget.palette(), l.bottom + 10, m_widget.width());
}

void HeatmapPainter::paintRow(QPainter& p, const HeatmapLayout::Panel& panel, int row, bool withLabel) const
{
    const HeatmapLayout& l = m_layout;
    const HeatmapPalette colours(m_widget.palette());
    const int domain = panel.domain;
    const bool pending = m_model.hasPendingIn(row, domain);
    const bool current = domain == m_model.domain();
    const QString error = current ? m_model.rowError(row) : QString();
    const QRect strip = l.cellRect(panel, row, l.bits - 1).united(l.cellRect(panel, row, 0));
    const CacheSchema* schema = m_model.rowSchema(row);
    const bool external = !m_model.externalChangeIn(row, domain).isEmpty();

    const int badgeSize = std::max(6, strip.height() - 6);
    if (withLabel) {
        p.setPen(error.isEmpty() ? m_widget.palette().color(QPalette::Text) : colours.invalid);
        const int room = external ? badgeSize + 4 : 0; // the label ends before the badge
        const QRect label(
            HeatmapLayout::Margin, strip.top(), m_gridLeft - HeatmapLayout::Margin - 8 - room, strip.height());
        p.drawText(label, Qt::AlignVCenter | Qt::AlignRight,
            m_widget.fontMetrics().elidedText(
                m_model.rowLabel(row) + (pending ? QStringLiteral("*") : QString()), Qt::ElideMiddle, label.width()));
    }
    if (external) { // a badge left of the row in every domain it changed in (the tooltip says what and when)
        const QRect badge(strip.left() - badgeSize - 3, strip.center().y() - badgeSize / 2, badgeSize, badgeSize);
        p.setPen(Qt::NoPen);
        p.setBrush(colours.external);
        p.drawEllipse(badge);
        p.setPen(m_widget.palette().color(QPalette::Base));
        p.drawText(badge, Qt::AlignCenter, QStringLiteral("!"));
    }
    const quint64 mask = m_model.maskIn(row, domain);
    for (int b = 0; b < l.bits; ++b) {
        const QRect c = l.cellRect(panel, row, b).adjusted(1, 1, -1, -1);
        p.fillRect(c, colours.forState(m_model.cellState(row, b, domain)));
        if (schema && ((schema->shareableBits >> b) & 1u)) p.fillRect(c, QBrush(colours.hatch, Qt::BDiagPattern));
        if (schema && ((schema->ioAllocMask(domain) >> b) & 1u)) { // I/O ways: the other diagonal and a frame
            p.fillRect(c, QBrush(colours.ioAlloc, Qt::FDiagPattern));
            p.setPen(QPen(colours.ioAlloc, 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(c.adjusted(0, 0, -1, -1));
        }
        if (current && m_cursor && row == m_cursor->row && b == m_cursor->bit) {
            p.setPen(QPen(m_widget.palette().color(QPalette::Highlight), 2));
            p.drawRect(c.adjusted(1, 1, -1, -1));
        }
    }
    // Occupancy drawn over the group's own ways: the bar fills the share of those ways' bytes the group holds.
    quint64 bytes = 0;
    if (schema && mask && m_model.occupancyIn(row, domain, &bytes)) {
        const QRect first = l.cellRect(panel, row, 63 - std::countl_zero(mask));
        const QRect last = l.cellRect(panel, row, std::countr_zero(mask));
        const QRect ways = first.united(last);
        const double owned = double(schema->bytesPerBit()) * std::popcount(mask);
        const double f = owned > 0 ? std::clamp(double(bytes) / owned, 0.0, 1.0) : 0.0;
        p.fillRect(QRect(ways.left() + 1, ways.bottom() - 4, int(f * (ways.width() - 2)), 4), colours.occupancy);
    }
    if (pending) {
        p.setPen(QPen(m_widget.palette().color(QPalette::Text), 1, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(strip.adjusted(0, 0, -1, -1));
    } else if (external) {
        p.setPen(QPen(colours.external, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(strip.adjusted(1, 1, -1, -1));
    }
    // The mask, in full, in its own column.
    p.setPen(error.isEmpty() ? m_widget.palette().color(QPalette::Text) : colours.invalid);
    p.drawText(QRect(panel.maskLeft, strip.top(), l.maskW, strip.height()), Qt::AlignVCenter | Qt::AlignLeft,
        QString::fromStdString(rdt::formatHex(mask)));
}

void HeatmapPainter::paintInfo(QPainter& p, int row) const
{
    // One domain: room beside the mask for the occupancy and the reason a row is red or was refused.
    const HeatmapLayout& l = m_layout;
    const HeatmapPalette colours(m_widget.palette());
    const HeatmapLayout::Panel* panel = l.panelFor(m_model.domain());
    const QRect c = panel ? l.cellRect(*panel, row, 0) : QRect();
    const QRect info(
        l.infoLeft + l.maskW, c.top(), m_widget.width() - l.infoLeft - l.maskW - HeatmapLayout::Margin, c.height());
    QString text;
    quint64 bytes = 0;
    if (m_model.occupancyIn(row, m_model.domain(), &bytes))
        text = QString::fromStdString(rdt::formatBytes(double(bytes)));
    const QString error = m_model.rowError(row);
    if (!error.isEmpty()) text += (text.isEmpty() ? QString() : QStringLiteral("  ")) + error;
    p.setPen(error.isEmpty() ? m_widget.palette().color(QPalette::Text) : colours.invalid);
    p.drawText(
        info, Qt::AlignVCenter | Qt::AlignLeft, m_widget.fontMetrics().elidedText(text, Qt::ElideRight, info.width()));
}
