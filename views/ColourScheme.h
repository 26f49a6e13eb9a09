// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

#include <functional>

class QWidget;

/// The window's colour scheme (View > Colour scheme): the desktop's palette, or a light or dark one chosen by the
/// user and kept in QSettings. Qt 6.4 has no QStyleHints::colorScheme(), so "follow the desktop" means the palette
/// the platform theme gives (KDE and the Qt platform themes pass a dark scheme on; Qt's GTK theme does not before
/// 6.5, hence the explicit Dark choice).
namespace colourscheme {

enum class Scheme { Desktop, Light, Dark };

/// The saved choice (QSettings "view/colourScheme": "desktop", "light" or "dark"; Desktop when unset or unknown).
Scheme saved();
void save(Scheme scheme);
/// Sets the application palette: the platform's for Desktop (an empty palette resolves to it and keeps following
/// theme changes), the style's standard palette for Light, darkPalette() for Dark.
void apply(Scheme scheme);
Scheme current();

QPalette darkPalette();

/// A palette reads as dark when its Base (the background of views and custom-painted panels) is dark.
bool isDark(const QPalette& palette);
/// Text colours for errors and warnings with enough contrast on the palette's Base (the light-palette red is too
/// dim on a dark base).
QColor errorText(const QPalette& palette);
QColor warningText(const QPalette& palette);
/// A style sheet for a warning banner label (read-only reasons): pale yellow on light palettes, dark amber on dark.
QString warningBannerStyle(const QPalette& palette);
/// Keeps a widget's style sheet in step with the scheme: `style(palette)` now and again on every palette change
/// (a style sheet's colours are fixed strings, so they would otherwise stay those of the scheme at start).
void followPalette(QWidget* widget, std::function<QString(const QPalette&)> style);
/// followPalette() with `QLabel { color: <errorText> }` / `<warningText>`.
void useErrorText(QWidget* label);
void useWarningText(QWidget* label);

} // namespace colourscheme
