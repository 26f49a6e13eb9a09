// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareWays.h"

#include "GroupColors.h"
#include "compare/CompareFormat.h"

#include <QPainter>

#include <bit>
#include <map>

using namespace rdt::compare;

CompareWays::CompareWays(QWidget* parent)
    : QWidget(parent)
{
    setMinimumHeight(160);
}

QStringList CompareWays::groups() const
{
    QStringList out;
    for (const auto& r : m_rows)
        out << r.group;
    return out;
}

void CompareWays::setComparison(const Comparison& c)
{
    std::map<std::string, Row> rows;
    m_bits = 0;
    auto parse = [](const std::string& text) {
        try {
            return static_cast<std::uint64_t>(std::stoull(text, nullptr, 16));
        } catch (const std::exception&) {
            return std::uint64_t { 0 };
        }
    };
    // Domain 0's L3 masks (the simulator and most servers' first socket); the diff table has every domain.
    for (const auto& r : c.rows) {
        if (r.section != Section::Allocation || r.item != "L3" || r.metric != "ways" || r.domain != 0) continue;
        Row& row = rows[r.group];
        row.group = QString::fromStdString(groupLabel(r.group));
        if (!r.textA.empty()) row.maskA = parse(r.textA), row.inA = true;
        if (!r.textB.empty()) row.maskB = parse(r.textB), row.inB = true;
        m_bits = std::max(
            { m_bits, static_cast<int>(std::bit_width(row.maskA)), static_cast<int>(std::bit_width(row.maskB)) });
    }
    for (const auto& r : c.rows)
        if (r.section == Section::Rdt && r.metric == "occupancy_mean" && r.domain == 0 && rows.count(r.group)) {
            rows[r.group].occA = r.a.value_or(0);
            rows[r.group].occB = r.b.value_or(0);
        }
    m_rows.clear();
    for (auto& [name, row] : rows)
        m_rows.push_back(row);
    update();
}

void CompareWays::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    p.setPen(palette().color(QPalette::Text));
    if (m_rows.empty() || m_bits == 0) {
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
            tr("No L3 allocation in either file (sessions record it; perf.data files do not)."));
        return;
    }
    const int labelW = 110, occW = 90, gap = 30, top = 28;
    const int gridW = std::max(80, (width() - labelW - 2 * occW - gap - 20) / 2);
    const int cell = std::max(8, std::min(28, gridW / m_bits));
    const int rowH = std::min(cell, std::max(14, (height() - top - 30) / static_cast<int>(m_rows.size())));
    const int xA = labelW, xB = labelW + m_bits * cell + occW + gap;
    p.drawText(QRect(xA, 4, m_bits * cell + occW, 20), Qt::AlignLeft, tr("A: L3 ways (domain 0), mean occupancy"));
    p.drawText(QRect(xB, 4, m_bits * cell + occW, 20), Qt::AlignLeft, tr("B: L3 ways (domain 0), mean occupancy"));
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const Row& r = m_rows[i];
        const int y = top + static_cast<int>(i) * (rowH + 4);
        const QColor color = groupColor(static_cast<int>(i), palette());
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(4, y, labelW - 8, rowH), Qt::AlignRight | Qt::AlignVCenter, r.group);
        for (int side = 0; side < 2; ++side) {
            const std::uint64_t mask = side ? r.maskB : r.maskA;
            const bool present = side ? r.inB : r.inA;
            const int x0 = side ? xB : xA;
            for (int bit = m_bits - 1, col = 0; bit >= 0; --bit, ++col) {
                const QRect cellRect(x0 + col * cell, y, cell - 2, rowH);
                const bool on = present && (mask >> bit) & 1u;
                p.fillRect(cellRect, on ? color : palette().color(QPalette::Base));
                const bool differs = side == 1 && (((r.maskA ^ r.maskB) >> bit) & 1u);
                p.setPen(differs ? QPen(palette().color(QPalette::Text), 2) : QPen(palette().color(QPalette::Mid), 1));
                p.drawRect(cellRect);
            }
            p.setPen(palette().color(QPalette::Text));
            const double occ = side ? r.occB : r.occA;
            p.drawText(QRect(x0 + m_bits * cell + 6, y, occW, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                present ? QString::fromStdString(formatValue(occ, "bytes")) : tr("absent"));
        }
    }
    const int noteY = top + static_cast<int>(m_rows.size()) * (rowH + 4) + 8;
    p.drawText(QRect(xA, noteY, width() - xA, 20), Qt::AlignLeft,
        tr("Way %1 on the left, way 0 on the right; a thick outline in B marks a way that changed.").arg(m_bits - 1));
}
