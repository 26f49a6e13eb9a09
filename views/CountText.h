// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A count with its noun in the right number ("1 load", "2 loads"), so no label says "1 samples".

#include <QString>

inline QString countText(long long n, const QString& one, const QString& many)
{
    return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}
