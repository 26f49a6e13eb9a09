// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareWays.h"
#include "core/Text.h"
#include "rdt/GroupNames.h"

#include "GroupColors.h"
#include "compare/CompareFormat.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <bit>
#include <map>

using namespace rdt::compare;

namespace {
constexpr int kTop = 34; ///< below the Domain box and the titles
}

CompareWays::CompareWays(QWidget* parent)
    : QWidget(parent)
    , m_domainBox(new QComboBox(this))
{
    setMinimumHeight(160);
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    bar->addWidget(new QLabel(tr("Domain:"), this));
    bar->addWidget(m_domainBox);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addLayout(bar);
    layout->addStretch(1);
    m_domainBox->setAccessibleName(tr("L3 domain of the compared ways"));
    connect(m_domainBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) setDomain(m_domainBox->itemData(i).toInt());
    });
}

const std::vector<CompareWays::Row>& CompareWays::rows() const
{
    static const std::vector<Row> none;
    const auto it = m_byDomain.find(m_domain);
    return it == m_byDomain.end() ? none : it->second;
}

QStringList CompareWays::groups() const
{
    QStringList out;
    for (const auto& r : rows())
        out << r.group;
    return out;
}

QList<int> CompareWays::domains() const
{
    QList<int> out;
    for (const auto& [d, rows] : m_byDomain)
        out << d;
    return out;
}

void CompareWays::setDomain(int domain)
{
    if (!m_byDomain.count(domain)) return;
    m_domain = domain;
    const int i = m_domainBox->findData(domain);
    if (i >= 0 && i != m_domainBox->currentIndex()) m_domainBox->setCurrentIndex(i);
    update();
}

QString CompareWays::maskText(const QString& group, bool sideB) const
{
    for (const auto& r : rows())
        if (r.group == group) {
            if (!(sideB ? r.inB : r.inA)) return {};
            return QString::fromStdString(rdt::hexDigits(sideB ? r.maskB : r.maskA));
        }
    return {};
}

void CompareWays::setComparison(const Comparison& c)
{
    // Keyed by group and resource: a CDP session has an L3CODE and an L3DATA mask per group (SDM 18.19.6 "Code and
    // Data Prioritization"), each its own row, so a CDP file compared with a non-CDP one shows both forms.
    std::map<int, std::map<std::pair<std::string, std::string>, Row>> byDomain;
    m_bits = 0;
    auto parse = [](const std::string& text) {
        try {
            return static_cast<std::uint64_t>(std::stoull(text, nullptr, 16));
        } catch (const std::exception&) {
            return std::uint64_t { 0 };
        }
    };
    for (const auto& r : c.rows) {
        if (r.section != Section::Allocation || r.metric != "ways") continue;
        if (r.item != "L3" && r.item != "L3CODE" && r.item != "L3DATA") continue;
        Row& row = byDomain[r.domain][{ r.group, r.item }];
        row.group = QString::fromStdString(rdt::displayGroup(r.group));
        if (r.item == "L3CODE") row.group += tr(" (code)");
        if (r.item == "L3DATA") row.group += tr(" (data)");
        if (!r.textA.empty()) row.maskA = parse(r.textA), row.inA = true;
        if (!r.textB.empty()) row.maskB = parse(r.textB), row.inB = true;
        m_bits = std::max(
            { m_bits, static_cast<int>(std::bit_width(row.maskA)), static_cast<int>(std::bit_width(row.maskB)) });
    }
    for (const auto& r : c.rows) {
        if (r.section != Section::Rdt || r.metric != "occupancy_mean") continue;
        auto d = byDomain.find(r.domain);
        if (d == byDomain.end()) continue;
        for (auto& [key, row] : d->second) // every mask row of the group (L3, or code and data)
            if (key.first == r.group) {
                row.occA = r.a.value_or(0);
                row.occB = r.b.value_or(0);
            }
    }
    m_byDomain.clear();
    for (auto& [domain, rows] : byDomain)
        for (auto& [name, row] : rows)
            m_byDomain[domain].push_back(row);
    const QSignalBlocker quiet(m_domainBox);
    m_domainBox->clear();
    for (const auto& [domain, rows] : m_byDomain)
        m_domainBox->addItem(QString::number(domain), domain);
    m_domainBox->setEnabled(m_byDomain.size() > 1);
    m_domain = m_byDomain.count(m_domain) ? m_domain : (m_byDomain.empty() ? 0 : m_byDomain.begin()->first);
    m_domainBox->setCurrentIndex(std::max(0, m_domainBox->findData(m_domain)));
    update();
}

void CompareWays::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    p.setPen(palette().color(QPalette::Text));
    const std::vector<Row>& shown = rows();
    if (shown.empty() || m_bits == 0) {
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
            tr("No L3 allocation in either file (sessions record it; perf.data files do not)."));
        return;
    }
    // Labels as wide as the longest group name (elided only when the window is truly too narrow).
    int labelW = 60;
    for (const Row& r : shown)
        labelW = std::max(labelW, fontMetrics().horizontalAdvance(r.group) + 12);
    labelW = std::min(labelW, std::max(110, width() / 4));
    const int occW = 90, gap = 30, top = kTop;
    const int gridW = std::max(80, (width() - labelW - 2 * occW - gap - 20) / 2);
    const int cell = std::max(8, std::min(28, gridW / m_bits));
    const int rowH = std::min(cell, std::max(14, (height() - top - 30) / static_cast<int>(shown.size())));
    const int xA = labelW, xB = labelW + m_bits * cell + occW + gap;
    p.drawText(QRect(xA, top - 22, m_bits * cell + occW, 20), Qt::AlignLeft,
        tr("A: L3 ways (domain %1), mean occupancy").arg(m_domain));
    p.drawText(QRect(xB, top - 22, m_bits * cell + occW, 20), Qt::AlignLeft,
        tr("B: L3 ways (domain %1), mean occupancy").arg(m_domain));
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const Row& r = shown[i];
        const int y = top + static_cast<int>(i) * (rowH + 4);
        const QColor color = groupColor(static_cast<int>(i), palette());
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(4, y, labelW - 8, rowH), Qt::AlignRight | Qt::AlignVCenter,
            fontMetrics().elidedText(r.group, Qt::ElideMiddle, labelW - 8));
        for (int side = 0; side < 2; ++side) {
            const std::uint64_t mask = side ? r.maskB : r.maskA;
            const bool present = side ? r.inB : r.inA;
            const int x0 = side ? xB : xA;
            for (int bit = m_bits - 1, col = 0; bit >= 0; --bit, ++col) {
                const QRect cellRect(x0 + col * cell, y, cell - 2, rowH);
                const bool on = present && (mask >> bit) & 1u;
                p.fillRect(cellRect, on ? color : palette().color(QPalette::Base));
                // A way changed only where both files have the group: absent is said in words, not outlined.
                const bool differs = side == 1 && r.inA && r.inB && (((r.maskA ^ r.maskB) >> bit) & 1u);
                p.setPen(differs ? QPen(palette().color(QPalette::Text), 2) : QPen(palette().color(QPalette::Mid), 1));
                p.drawRect(cellRect);
            }
            p.setPen(palette().color(QPalette::Text));
            const double occ = side ? r.occB : r.occA;
            p.drawText(QRect(x0 + m_bits * cell + 6, y, occW, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                present ? QString::fromStdString(formatValue(occ, "bytes")) : tr("absent"));
        }
    }
    const int noteY = top + static_cast<int>(shown.size()) * (rowH + 4) + 8;
    p.drawText(QRect(xA, noteY, width() - xA, 20), Qt::AlignLeft,
        tr("Way %1 on the left, way 0 on the right; a thick outline in B marks a way that changed.").arg(m_bits - 1));
}
