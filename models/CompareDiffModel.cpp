// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareDiffModel.h"
#include "rdt/GroupNames.h"

#include "compare/CompareFormat.h"

#include <algorithm>
#include <cmath>

using namespace rdt::compare;

CompareDiffModel::CompareDiffModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void CompareDiffModel::setComparison(const Comparison& c)
{
    beginResetModel();
    m_comparison = c;
    rebuild();
    endResetModel();
}

void CompareDiffModel::setSection(std::optional<Section> section)
{
    beginResetModel();
    m_section = section;
    rebuild();
    endResetModel();
}

void CompareDiffModel::rebuild()
{
    m_rows.clear();
    for (const auto& r : m_comparison.rows)
        if (!m_section || r.section == *m_section) m_rows.push_back(&r);
}

const DiffRow* CompareDiffModel::rowAt(int row) const
{
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? m_rows[static_cast<std::size_t>(row)] : nullptr;
}

int CompareDiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CompareDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double CompareDiffModel::changeStrength(const DiffRow& r)
{
    const auto d = r.delta();
    if (!d || *d == 0) return 0;
    if (r.shareRow() || r.unit == "points") return std::clamp(*d / 20.0, -1.0, 1.0); // 20 points = full colour
    const double m = std::max(std::fabs(r.a.value_or(0)), std::fabs(r.b.value_or(0)));
    return m > 0 ? std::clamp(*d / m, -1.0, 1.0) : 0.0;
}

QColor CompareDiffModel::changeColor(double s, const QColor& base)
{
    const QColor end = s < 0 ? QColor(0x21, 0x66, 0xac) : QColor(0xe0, 0x82, 0x14);
    const double t = std::min(1.0, std::fabs(s));
    auto mix = [t](int from, int to) { return static_cast<int>(std::lround(from + (to - from) * t)); };
    return QColor(mix(base.red(), end.red()), mix(base.green(), end.green()), mix(base.blue(), end.blue()));
}

QVariant CompareDiffModel::data(const QModelIndex& index, int role) const
{
    const DiffRow* r = index.isValid() ? rowAt(index.row()) : nullptr;
    if (!r) return {};
    auto text = [](const std::optional<double>& v, const std::string& t, const std::string& unit) {
        // A mask reads as its way count first, the mask beside it: the delta column counts ways too.
        if (!t.empty() && v && unit == "ways")
            return (*v == 1 ? tr("1 way (%1)") : tr("%1 ways (%2)").arg(*v)).arg(QString::fromStdString(t));
        if (!t.empty()) return QString::fromStdString(t);
        return v ? QString::fromStdString(formatValue(*v, unit)) : QStringLiteral("\u2013");
    };
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case ColGroup:
            return r->domain >= 0 ? QString::fromStdString(rdt::displayGroup(r->group)) : QString();
        case ColDomain:
            return r->domain >= 0 ? QVariant(r->domain) : QVariant();
        case ColItem:
            return r->section == Section::Rdt ? QString() : QString::fromStdString(r->item); // RDT: the group
        case ColMetric:
            return QString::fromStdString(metricLabel(*r));
        case ColA:
            return text(r->a, r->textA, r->unit);
        case ColB:
            return text(r->b, r->textB, r->unit);
        case ColDelta: {
            const auto d = r->delta();
            if (!r->a && r->b) return tr("only in B");
            if (r->a && !r->b) return tr("only in A");
            return d ? QString::fromStdString(formatDelta(*d, r->unit)) : QString();
        }
        case ColRatio:
            return r->ratio() ? QString::fromStdString(formatRatio(r->ratio())) : QStringLiteral("\u2013");
        default:
            return {};
        }
    }
    if (role == RawRole) {
        switch (index.column()) {
        case ColA:
            return r->a ? QVariant(*r->a) : QVariant();
        case ColB:
            return r->b ? QVariant(*r->b) : QVariant();
        case ColDelta:
            return r->delta() ? QVariant(*r->delta()) : QVariant();
        case ColRatio:
            return r->ratio() ? QVariant(*r->ratio()) : QVariant();
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= ColDomain && index.column() != ColItem
        && index.column() != ColMetric)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::BackgroundRole && (index.column() == ColDelta || index.column() == ColRatio)) {
        const double s = changeStrength(*r);
        if (s != 0) return changeColor(s * 0.6); // a tint: the text stays readable
    }
    if (role == Qt::ToolTipRole && index.column() == ColMetric)
        return tr("Column \"metric\" of the CSV and JSON export: %1").arg(QString::fromStdString(r->metric));
    if (role == Qt::ToolTipRole && index.column() == ColDelta)
        return tr("B minus A; shares in percentage points (as perf diff's delta). Blue: lower in B, orange: higher.");
    return {};
}

bool CompareDiffModel::columnUsed(int column) const
{
    for (const DiffRow* r : m_rows) {
        const bool used = column == ColItem             ? r->section != Section::Rdt && !r->item.empty()
            : column == ColGroup || column == ColDomain ? r->domain >= 0
                                                        : true;
        if (used) return true;
    }
    return column != ColItem && column != ColGroup && column != ColDomain;
}

QVariant CompareDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const names[ColumnCount]
        = { "Group", "Domain", "Item", "Metric", "A", "B", "Delta (B\u2212A)", "Ratio B/A" };
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}
