// SPDX-License-Identifier: GPL-3.0-or-later
#include "ElidedLabel.h"

#include <QFontMetrics>

ElidedLabel::ElidedLabel(QWidget* parent)
    : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString& text)
{
    m_full = text;
    setToolTip(text);
    elide();
}

QSize ElidedLabel::minimumSizeHint() const
{
    return { fontMetrics().horizontalAdvance(QStringLiteral("Simulated\u2026")), QLabel::minimumSizeHint().height() };
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

QString ElidedLabel::shortenAtClause(const QString& text, const QFontMetrics& metrics, int room)
{
    if (metrics.horizontalAdvance(text) <= room) return text;
    // The longest run of whole clauses that fits, then a marker that more is in the tooltip: a reason is never
    // cut in the middle of a word or a path.
    static const QString more = QStringLiteral(" \u2026");
    qsizetype best = -1;
    for (const QString& boundary :
        { QStringLiteral(" \u2014 "), QStringLiteral("; "), QStringLiteral(" ("), QStringLiteral(", ") }) {
        for (qsizetype at = text.indexOf(boundary); at > 0; at = text.indexOf(boundary, at + 1))
            if (at > best && metrics.horizontalAdvance(text.left(at) + more) <= room) best = at;
    }
    if (best > 0) return text.left(best) + more;
    return metrics.elidedText(text, Qt::ElideRight, std::max(room, 0));
}

void ElidedLabel::elide()
{
    const int room = contentsRect().width() - 2 * margin() - indent();
    QLabel::setText(shortenAtClause(m_full, fontMetrics(), room));
}
