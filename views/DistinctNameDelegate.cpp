// SPDX-License-Identifier: GPL-3.0-or-later
#include "DistinctNameDelegate.h"

void DistinctNameDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const auto it = m_shown.constFind(option->text);
    if (it != m_shown.cend()) option->text = it.value();
}
