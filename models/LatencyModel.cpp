// SPDX-License-Identifier: GPL-3.0-or-later
#include "LatencyModel.h"

using rdt::pmu::LatencyRow;
using rdt::pmu::LoadLatencyReport;
using rdt::pmu::MemLevel;

LatencyModel::LatencyModel(Kind kind, QObject* parent)
    : QAbstractTableModel(parent)
    , m_kind(kind)
{
}

void LatencyModel::setReport(const LoadLatencyReport& report)
{
    beginResetModel();
    m_rows = m_kind == Kind::Functions ? report.functions : report.lines;
    endResetModel();
}

QString LatencyModel::binLabel(int bin)
{
    const unsigned long long lo = bin == 0 ? 0 : 1ull << bin, hi = (1ull << (bin + 1)) - 1;
    return QStringLiteral("%1-%2").arg(lo).arg(hi);
}

QString LatencyModel::levelName(int level)
{
    return QString::fromLatin1(rdt::pmu::memLevelName(static_cast<MemLevel>(level)).data(),
        static_cast<qsizetype>(rdt::pmu::memLevelName(static_cast<MemLevel>(level)).size()));
}

std::uint64_t LatencyModel::binCount(const LoadLatencyReport& r, int bin, int level)
{
    if (bin < 0 || bin >= kBins || level < 0 || level >= kLevels)
        return 0;
    return r.histogram[static_cast<std::size_t>(bin)][static_cast<std::size_t>(level)];
}

std::uint64_t LatencyModel::histogramTotal(const LoadLatencyReport& r)
{
    std::uint64_t t = 0;
    for (const auto& bin : r.histogram)
        for (auto v : bin)
            t += v;
    return t;
}

std::uint64_t LatencyModel::levelTotal(const LoadLatencyReport& r, int level)
{
    std::uint64_t t = 0;
    for (int b = 0; b < kBins; ++b)
        t += binCount(r, b, level);
    return t;
}

int LatencyModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LatencyModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LatencyModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LatencyRow& row = m_rows[static_cast<std::size_t>(index.row())];
    const auto& s = row.stats;
    if (role == Qt::TextAlignmentRole && index.column() >= CountColumn && index.column() != SourceColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    const bool display = role != SortRole;
    switch (index.column()) {
    case KeyColumn: return QString::fromStdString(row.key);
    case WhereColumn:
        return QString::fromStdString(m_kind == Kind::Lines ? row.function : row.module);
    case CountColumn: return display ? QVariant(QString::number(s.count)) : QVariant(static_cast<qulonglong>(s.count));
    case MeanColumn: return display ? QVariant(QString::number(s.mean(), 'f', 1)) : QVariant(s.mean());
    case P50Column: return display ? QVariant(QString::number(s.percentile(0.5))) : QVariant(s.percentile(0.5));
    case P99Column: return display ? QVariant(QString::number(s.percentile(0.99))) : QVariant(s.percentile(0.99));
    case HitmColumn: return display ? QVariant(QString::number(s.hitm)) : QVariant(static_cast<qulonglong>(s.hitm));
    case RemoteColumn:
        return display ? QVariant(QString::number(s.remote)) : QVariant(static_cast<qulonglong>(s.remote));
    case SourceColumn: return levelName(static_cast<int>(s.dominantLevel()));
    default: return {};
    }
}

QVariant LatencyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn: return m_kind == Kind::Functions ? tr("Function") : tr("Cache line");
    case WhereColumn: return m_kind == Kind::Functions ? tr("Module") : tr("Hottest function");
    case CountColumn: return tr("Loads");
    case MeanColumn: return tr("Mean (cycles)");
    case P50Column: return tr("p50");
    case P99Column: return tr("p99");
    case HitmColumn: return tr("HITM");
    case RemoteColumn: return tr("Remote");
    case SourceColumn: return tr("Mostly from");
    default: return {};
    }
}
