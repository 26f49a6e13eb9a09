// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QString>

/// Copies a fixture resctrl tree to `to` (created), for the GUI tests that open it as a live source and may write
/// to it: the checked-in fixture stays as it is.
inline bool copyFixtureTree(const QString& from, const QString& to)
{
    if (!QDir().mkpath(to)) return false;
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString dst = to + src.mid(from.size());
        if (it.fileInfo().isDir()) {
            if (!QDir().mkpath(dst)) return false;
        } else if (!QFile::copy(src, dst)) {
            return false;
        }
    }
    return true;
}
