// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecentConnections.h"

#include <QSettings>

namespace {
const char* const kRecentKey = "connect/recent";
}

QStringList RecentConnections::list()
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void RecentConnections::remember(const QString& url)
{
    QStringList recent = list();
    recent.removeAll(url);
    recent.prepend(url);
    while (recent.size() > kMaxConnections)
        recent.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), recent);
}
