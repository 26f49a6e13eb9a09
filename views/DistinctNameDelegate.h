// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Draws one column's names as distinctElisions() shortened them (DistinctElision.h), so a narrow column never
// shows two different groups alike; the tooltip still says the whole name.

#include <QHash>
#include <QStyledItemDelegate>

class DistinctNameDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    /// Whole name -> text to draw; names not in the table are drawn as Qt elides them.
    void setShownNames(QHash<QString, QString> shown) { m_shown = std::move(shown); }
    const QHash<QString, QString>& shownNames() const { return m_shown; }

    /// Draws the shortened text; the size hint (what resizeColumnToContents measures) stays the whole name's.
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    QHash<QString, QString> m_shown;
};
