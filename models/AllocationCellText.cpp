// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationCellText.h"

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

AllocationCellText::AllocationCellText(const AllocationModel& model)
    : m_model(model)
{ }

QString AllocationCellText::stateText(AllocationModel::CellState state)
{
    switch (state) {
    case AllocationModel::Allocated:
        return tr("allocated");
    case AllocationModel::Overlapping:
        return tr("overlapping");
    case AllocationModel::Exclusive:
        return tr("exclusive");
    case AllocationModel::Invalid:
        return tr("invalid");
    case AllocationModel::Unused:
        break;
    }
    return tr("unused");
}

QString AllocationCellText::accessibleText(int row, int bit, int domain) const
{
    if (row < 0 || row >= m_model.rowCount() || bit < 0 || bit >= m_model.columnCount()) return {};
    // The same words as the heatmap's legend, so what is heard matches what is seen.
    QString t = tr("%1, domain %2, bit %3: %4")
                    .arg(m_model.rowLabel(row))
                    .arg(domain)
                    .arg(bit)
                    .arg(stateText(m_model.cellState(row, bit, domain)));
    if (const CacheSchema* s = m_model.rowSchema(row); s && ((s->shareableBits >> bit) & 1u))
        t += tr(", hardware-shared");
    if (m_model.hasPendingIn(row, domain)) t += tr(", staged edit");
    if (!m_model.externalChangeIn(row, domain).isEmpty()) t += tr(", changed by another program");
    return t;
}

QString AllocationCellText::toolTip(int row, int bit) const
{
    const GroupAllocation* g = m_model.rowGroup(row);
    const CacheSchema* s = m_model.rowSchema(row);
    const quint64 m = m_model.mask(row);
    const int bits = std::popcount(m);
    QString t = QStringLiteral("%1 (%2) domain %3, bit %4\n")
                    .arg(m_model.rowLabel(row), qs(s->name))
                    .arg(m_model.domain())
                    .arg(bit);
    t += QStringLiteral("mask %1 = %2 bits = %3")
             .arg(qs(rdt::formatHex(m)))
             .arg(bits)
             .arg(bytesText(double(s->bytesPerBit()) * bits));
    if (m_model.hasPending(row))
        t += QStringLiteral(" (pending; live %1)").arg(qs(rdt::formatHex(m_model.liveMask(row))));
    t += QStringLiteral("\nthis bit = %1").arg(bytesText(double(s->bytesPerBit())));
    if (s->ways > 0 && s->cbmLength > 0)
        t += QStringLiteral(" = %1 of %2 ways").arg(double(s->ways) / s->cbmLength, 0, 'g', 3).arg(s->ways);
    QStringList sharers;
    for (int r = 0; r < m_model.rowCount(); ++r) {
        if (m_model.rowGroup(r) != g && ((m_model.mask(r) >> bit) & 1u)) sharers << m_model.rowLabel(r);
    }
    if (!sharers.isEmpty()) t += QStringLiteral("\nalso used by: ") + sharers.join(QStringLiteral(", "));
    if ((s->shareableBits >> bit) & 1u)
        t += QStringLiteral("\nhardware-shared (shareable_bits %1): I/O agents may also fill these ways")
                 .arg(qs(rdt::formatHex(s->shareableBits)));
    if ((s->ioAllocMask(m_model.domain()) >> bit) & 1u)
        t += QStringLiteral("\nI/O (io_alloc %1): devices' writes are allocated into these ways, CLOS %2 held for them")
                 .arg(qs(rdt::formatHex(s->ioAllocMask(m_model.domain()))))
                 .arg(s->ioAllocClosid);
    const QString err = m_model.rowError(row);
    if (!err.isEmpty()) t += QStringLiteral("\nerror: ") + err;
    if (const QString ext = m_model.externalChangeIn(row, m_model.domain()); !ext.isEmpty())
        t += QLatin1Char('\n') + ext;
    return t;
}

QString AllocationCellText::rowToolTip(int row) const
{
    const GroupAllocation* g = m_model.rowGroup(row);
    return QStringLiteral("group %1, CLOSID %2%3\nmask %4")
        .arg(qs(g->displayName()), g->closid >= 0 ? QString::number(g->closid) : QStringLiteral("?"),
            g->exclusive ? QStringLiteral(", exclusive") : QString(), qs(rdt::formatHex(m_model.mask(row))));
}

QString AllocationCellText::columnToolTip(int bit) const
{
    const CacheSchema* s = m_model.rowSchema(0); // every row of the table is one cache
    return QStringLiteral("CBM bit %1: %2 of %3")
        .arg(bit)
        .arg(bytesText(double(s->bytesPerBit())), bytesText(double(s->cacheBytes)));
}
