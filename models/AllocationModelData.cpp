// SPDX-License-Identifier: GPL-3.0-or-later
// AllocationModel's item-model face: data() roles, tooltips, headers (split from AllocationModel.cpp for size).
#include "AllocationModel.h"
#include "core/Text.h"

#include "core/Units.h"

#include <bit>

namespace {
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
QString bytesText(double b)
{
    return qs(rdt::formatBytes(b));
}
} // namespace

QVariant AllocationModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const int row = index.row();
    const int bit = index.column();
    const quint64 m = mask(row);
    const bool set = (m >> bit) & 1u;
    const GroupAllocation* g = rowGroup(row);
    const CacheSchema* s = rowSchema(row);
    switch (role) {
    case Qt::DisplayRole:
        return set ? QStringLiteral("1") : QStringLiteral("0");
    case Qt::ToolTipRole:
    case Qt::AccessibleDescriptionRole:
        return cellToolTip(row, bit);
    case Qt::AccessibleTextRole:
        return cellAccessibleText(row, bit, m_domain);
    case CellStateRole:
        return cellState(row, bit, m_domain);
    case HardwareSharedRole:
        return bool((s->shareableBits >> bit) & 1u);
    case IoAllocRole:
        return bool((s->ioAllocMask(m_domain) >> bit) & 1u);
    case MaskRole:
        return m;
    case LiveMaskRole:
        return liveMask(row);
    case PendingRole:
        return hasPending(row);
    case OccupancyBytesRole:
    case OccupancyFractionRole: {
        const auto it = g->occupancyBytes.find(m_domain);
        if (it == g->occupancyBytes.end() || s->cacheName() != "L3") return {};
        if (role == OccupancyBytesRole) return quint64(it->second);
        return s->cacheBytes ? double(it->second) / double(s->cacheBytes) : 0.0;
    }
    case RowErrorRole:
        return rowError(row);
    case GroupRole:
        return qs(g->group);
    case SchemaRole:
        return qs(s->name);
    case ClosidRole:
        return g->closid;
    case ExternalChangeRole:
        return externalChangeIn(row, m_domain);
    default:
        return {};
    }
}

QString AllocationModel::stateText(CellState state)
{
    switch (state) {
    case Allocated:
        return tr("allocated");
    case Overlapping:
        return tr("overlapping");
    case Exclusive:
        return tr("exclusive");
    case Invalid:
        return tr("invalid");
    case Unused:
        break;
    }
    return tr("unused");
}

QString AllocationModel::cellAccessibleText(int row, int bit, int domain) const
{
    if (row < 0 || row >= rowCount() || bit < 0 || bit >= columnCount()) return {};
    // The same words as the heatmap's legend, so what is heard matches what is seen.
    QString t = tr("%1, domain %2, bit %3: %4")
                    .arg(rowLabel(row))
                    .arg(domain)
                    .arg(bit)
                    .arg(stateText(cellState(row, bit, domain)));
    if (const CacheSchema* s = rowSchema(row); s && ((s->shareableBits >> bit) & 1u)) t += tr(", hardware-shared");
    if (hasPendingIn(row, domain)) t += tr(", staged edit");
    if (!externalChangeIn(row, domain).isEmpty()) t += tr(", changed by another program");
    return t;
}

QString AllocationModel::cellToolTip(int row, int bit) const
{
    const GroupAllocation* g = rowGroup(row);
    const CacheSchema* s = rowSchema(row);
    const quint64 m = mask(row);
    const int bits = std::popcount(m);
    QString t = QStringLiteral("%1 (%2) domain %3, bit %4\n").arg(rowLabel(row), qs(s->name)).arg(m_domain).arg(bit);
    t += QStringLiteral("mask %1 = %2 bits = %3")
             .arg(qs(rdt::formatHex(m)))
             .arg(bits)
             .arg(bytesText(double(s->bytesPerBit()) * bits));
    if (hasPending(row)) t += QStringLiteral(" (pending; live %1)").arg(qs(rdt::formatHex(liveMask(row))));
    t += QStringLiteral("\nthis bit = %1").arg(bytesText(double(s->bytesPerBit())));
    if (s->ways > 0 && s->cbmLength > 0)
        t += QStringLiteral(" = %1 of %2 ways").arg(double(s->ways) / s->cbmLength, 0, 'g', 3).arg(s->ways);
    QStringList sharers;
    for (int r = 0; r < rowCount(); ++r) {
        if (rowGroup(r) != g && ((mask(r) >> bit) & 1u)) sharers << rowLabel(r);
    }
    if (!sharers.isEmpty()) t += QStringLiteral("\nalso used by: ") + sharers.join(QStringLiteral(", "));
    if ((s->shareableBits >> bit) & 1u)
        t += QStringLiteral("\nhardware-shared (shareable_bits %1): I/O agents may also fill these ways")
                 .arg(qs(rdt::formatHex(s->shareableBits)));
    if ((s->ioAllocMask(m_domain) >> bit) & 1u)
        t += QStringLiteral("\nI/O (io_alloc %1): devices' writes are allocated into these ways, CLOS %2 held for them")
                 .arg(qs(rdt::formatHex(s->ioAllocMask(m_domain))))
                 .arg(s->ioAllocClosid);
    const QString err = rowError(row);
    if (!err.isEmpty()) t += QStringLiteral("\nerror: ") + err;
    if (const QString ext = externalChangeIn(row, m_domain); !ext.isEmpty()) t += QLatin1Char('\n') + ext;
    return t;
}

QVariant AllocationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= columnCount()) return {};
        if (role == Qt::DisplayRole) return QString::number(section);
        if (role == Qt::ToolTipRole) {
            const CacheSchema* s = m_state.cacheSchema(m_rows.front().schema);
            return QStringLiteral("CBM bit %1: %2 of %3")
                .arg(section)
                .arg(bytesText(double(s->bytesPerBit())), bytesText(double(s->cacheBytes)));
        }
        return {};
    }
    if (section < 0 || section >= rowCount()) return {};
    if (role == Qt::DisplayRole) return rowLabel(section);
    if (role == Qt::ToolTipRole) {
        const GroupAllocation* g = rowGroup(section);
        return QStringLiteral("group %1, CLOSID %2%3\nmask %4")
            .arg(qs(g->displayName()), g->closid >= 0 ? QString::number(g->closid) : QStringLiteral("?"),
                g->exclusive ? QStringLiteral(", exclusive") : QString(), qs(rdt::formatHex(mask(section))));
    }
    return {};
}

QHash<int, QByteArray> AllocationModel::roleNames() const
{
    QHash<int, QByteArray> r = QAbstractTableModel::roleNames();
    r.insert(CellStateRole, "cellState");
    r.insert(HardwareSharedRole, "hardwareShared");
    r.insert(IoAllocRole, "ioAlloc");
    r.insert(MaskRole, "mask");
    r.insert(LiveMaskRole, "liveMask");
    r.insert(PendingRole, "pending");
    r.insert(OccupancyBytesRole, "occupancyBytes");
    r.insert(OccupancyFractionRole, "occupancyFraction");
    r.insert(RowErrorRole, "rowError");
    r.insert(GroupRole, "group");
    r.insert(SchemaRole, "schema");
    r.insert(ClosidRole, "closid");
    return r;
}
