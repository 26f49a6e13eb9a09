// SPDX-License-Identifier: GPL-3.0-or-later
#include "DistinctElision.h"

#include <QSet>

#include <algorithm>

namespace {

/// Whether the elided forms of `members` are all different.
bool allDistinct(const QStringList& shown)
{
    return QSet<QString>(shown.begin(), shown.end()).size() == shown.size();
}

/// Each member elided at the right from a few characters before the first place the members differ.
QStringList aroundTheDifference(const QStringList& members, const QFontMetrics& metrics, int width)
{
    qsizetype common = members.front().size();
    for (const auto& m : members) {
        qsizetype i = 0;
        while (i < common && i < m.size() && m[i] == members.front()[i])
            ++i;
        common = i;
    }
    const qsizetype from = std::max<qsizetype>(0, common - 3);
    QStringList out;
    for (const auto& m : members)
        out << metrics.elidedText(from > 0 ? QStringLiteral("\u2026") + m.mid(from) : m, Qt::ElideRight, width);
    return out;
}

} // namespace

QHash<QString, QString> distinctElisions(const QStringList& names, const QFontMetrics& metrics, int width)
{
    QHash<QString, QString> shown;
    QHash<QString, QStringList> byElision;
    for (const auto& name : names) {
        if (shown.contains(name)) continue;
        const QString elided = metrics.elidedText(name, Qt::ElideMiddle, width);
        shown.insert(name, elided);
        byElision[elided] << name;
    }
    for (auto it = byElision.cbegin(); it != byElision.cend(); ++it) {
        const QStringList& members = it.value();
        if (members.size() < 2) continue;
        QStringList candidate;
        for (Qt::TextElideMode mode : { Qt::ElideLeft, Qt::ElideRight }) {
            candidate.clear();
            for (const auto& m : members)
                candidate << metrics.elidedText(m, mode, width);
            if (allDistinct(candidate)) break;
        }
        if (!allDistinct(candidate)) candidate = aroundTheDifference(members, metrics, width);
        if (!allDistinct(candidate)) // no width for the difference: say at least that they are different names
            for (qsizetype i = 0; i < members.size(); ++i)
                candidate[i] = metrics.elidedText(members[i], Qt::ElideMiddle,
                                   std::max(0, width - metrics.horizontalAdvance(QStringLiteral(" #00"))))
                    + QStringLiteral(" #%1").arg(i + 1);
        for (qsizetype i = 0; i < members.size(); ++i)
            shown[members[i]] = candidate[i];
    }
    return shown;
}
