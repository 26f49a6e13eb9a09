// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QMenuBar;
class QWidget;

/// Help > Keyboard shortcuts: a table generated from the menus, so it cannot fall out of date.
void showShortcutsHelp(QWidget* parent, const QMenuBar* menus);
