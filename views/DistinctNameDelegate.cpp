// SPDX-License-Identifier: GPL-3.0-or-later
#include "DistinctNameDelegate.h"

#include <QApplication>
#include <QStyle>

void DistinctNameDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem shown = option;
    initStyleOption(&shown, index);
    const auto it = m_shown.constFind(shown.text);
    if (it != m_shown.cend()) shown.text = it.value();
    const QWidget* widget = shown.widget;
    (widget ? widget->style() : QApplication::style())->drawControl(QStyle::CE_ItemViewItem, &shown, painter, widget);
}
