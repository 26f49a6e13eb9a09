// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// The agent addresses the GUI connected to, newest first, kept across runs in QSettings ("connect/recent");
/// File > Connect... offers them.
namespace RecentConnections {
inline constexpr int kMaxConnections = 8;
QStringList list();
/// Puts `url` first, dropping an older entry of the same address and any past kMaxConnections.
void remember(const QString& url);
} // namespace RecentConnections
