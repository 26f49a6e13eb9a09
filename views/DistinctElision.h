// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Names shortened to a width so that two different names never read the same (issue #47: two monitor groups both
// shown as "goresct...l.group"). Each name is elided in the middle, as Qt does; names whose elisions collide are
// elided instead around where they differ ("...Stale/...", "...Guaranteed/..."), and only when the width leaves
// no room for that are they numbered.

#include <QFontMetrics>
#include <QHash>
#include <QString>
#include <QStringList>

/// The text to show for each of `names` within `width` pixels; names that fit are themselves.
QHash<QString, QString> distinctElisions(const QStringList& names, const QFontMetrics& metrics, int width);
