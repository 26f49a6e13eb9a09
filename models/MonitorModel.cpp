// SPDX-License-Identifier: GPL-3.0-or-later
#include "MonitorModel.h"
#include "rdt/GroupNames.h"

#include "core/Units.h"
#include "rdt/SampleFlags.h"

#include <QStringList>

MonitorModel::MonitorModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void MonitorModel::update(const rdt::RdtSampleBatch& batch)
{
    bool sameShape = static_cast<std::size_t>(m_rows.size()) == batch.samples.size();
    for (std::size_t i = 0; sameShape && i < batch.samples.size(); ++i) {
        const auto& row = m_rows[static_cast<qsizetype>(i)];
        sameShape = row.group == batch.samples[i].group && row.domain == batch.samples[i].domain;
    }
    if (!sameShape) {
        beginResetModel();
        m_rows = QList<rdt::RdtSample>(batch.samples.cbegin(), batch.samples.cend());
        endResetModel();
        return;
    }
    if (m_rows.isEmpty()) return;
    for (std::size_t i = 0; i < batch.samples.size(); ++i)
        m_rows[static_cast<qsizetype>(i)] = batch.samples[i];
    Q_EMIT dataChanged(index(0, 0), index(static_cast<int>(m_rows.size()) - 1, ColumnCount - 1));
}

void MonitorModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

QString MonitorModel::valueText(const rdt::RdtSample& s, int column)
{
    // Sample.h's rules decide when a reading is unknown; it is then "unknown", never 0.
    const auto known = [&](std::uint32_t unknownFlags, const std::string& text) {
        return (s.flags & unknownFlags) ? tr("unknown") : QString::fromStdString(text);
    };
    switch (column) {
    case OccupancyColumn:
        return known(rdt::kOccupancyUnknown, rdt::formatBytes(static_cast<double>(s.occupancyBytes)));
    case TotalColumn:
        return known(rdt::kMbmTotalRateUnknown, rdt::formatBandwidth(s.mbmTotalBps));
    case LocalColumn:
        return known(rdt::kMbmLocalRateUnknown, rdt::formatBandwidth(s.mbmLocalBps));
    case RemoteColumn:
        return known(rdt::kMbmRemoteRateUnknown, rdt::formatBandwidth(s.mbmRemoteBps()));
    default:
        return {};
    }
}

QString MonitorModel::flagsText(std::uint32_t flags)
{
    return QString::fromStdString(rdt::sampleFlagWords(flags));
}

int MonitorModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MonitorModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MonitorModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size()) return {};
    const auto& s = m_rows[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case GroupColumn:
            return QString::fromStdString(rdt::displayGroup(s.group));
        case DomainColumn:
            return s.domain;
        case OccupancyColumn:
        case TotalColumn:
        case LocalColumn:
        case RemoteColumn:
            return valueText(s, index.column());
        case FlagsColumn:
            return flagsText(s.flags & ~static_cast<std::uint32_t>(rdt::SampleFirst));
        default:
            return {};
        }
    }
    if (role == ValueRole) {
        switch (index.column()) {
        case DomainColumn:
            return s.domain;
        case OccupancyColumn:
            return static_cast<double>(s.occupancyBytes);
        case TotalColumn:
            return s.mbmTotalBps;
        case LocalColumn:
            return s.mbmLocalBps;
        case RemoteColumn:
            return s.mbmRemoteBps();
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= DomainColumn && index.column() <= RemoteColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == GroupPathRole) return QString::fromStdString(s.group);
    if (role == FlagsRole) return s.flags;
    if (role == Qt::ToolTipRole) return flagsText(s.flags);
    return {};
}

QVariant MonitorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case GroupColumn:
        return tr("Group");
    case DomainColumn:
        return tr("L3 domain");
    case OccupancyColumn:
        return tr("LLC occupancy");
    case TotalColumn:
        return tr("Total BW");
    case LocalColumn:
        return tr("Local BW");
    case RemoteColumn:
        return tr("Remote BW");
    case FlagsColumn:
        return tr("Flags");
    default:
        return {};
    }
}
