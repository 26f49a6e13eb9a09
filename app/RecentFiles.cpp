// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecentFiles.h"

#include <QFileInfo>
#include <QSettings>

namespace {
const QString kKey = QStringLiteral("files/recent");
}

QStringList RecentFiles::list()
{
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::remember(const QString& path)
{
    const QString file = QFileInfo(path).absoluteFilePath();
    QStringList files = list();
    files.removeAll(file);
    files.prepend(file);
    while (files.size() > kMaxFiles)
        files.removeLast();
    QSettings().setValue(kKey, files);
}

void RecentFiles::clear()
{
    QSettings().remove(kKey);
}
