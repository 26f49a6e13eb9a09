// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QPalette>

/// A stable colour per group index (the first ten from a colour-blind-aware qualitative palette, then golden-angle
/// hues), lightened on dark palettes so lines stay readable on a dark base.
inline QColor groupColor(int index, const QPalette& palette)
{
    static const QRgb base[]
        = { 0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac };
    constexpr int baseCount = static_cast<int>(sizeof(base) / sizeof(base[0]));
    QColor c = index < baseCount ? QColor::fromRgb(base[index])
                                 : QColor::fromHsv(static_cast<int>((index * 137.508)) % 360, 170, 200);
    if (palette.color(QPalette::Base).lightness() < 128) c = c.lighter(125);
    return c;
}
