// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// The files the GUI opened (sessions and perf.data files), newest first, kept across runs in QSettings
/// ("files/recent"); File > Open Recent lists them.
namespace RecentFiles {
inline constexpr int kMaxFiles = 10;
/// Newest first, as absolute paths; files that no longer exist are listed too (the menu disables them).
QStringList list();
/// Puts `path` (made absolute) first, dropping an older entry of the same file and any past kMaxFiles.
void remember(const QString& path);
void clear();
} // namespace RecentFiles
