// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QMenu;

/// View > Colour scheme: follow the desktop by default; a choice is kept for the next start (views/ColourScheme).
void addColourSchemeMenu(QMenu* view);
