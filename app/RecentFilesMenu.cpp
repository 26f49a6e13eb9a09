// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecentFilesMenu.h"
#include "RecentFiles.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>

RecentFilesMenu::RecentFilesMenu(QMenu* fileMenu, QObject* parent)
    : QObject(parent)
    , m_menu(fileMenu->addMenu(tr("Open &Recent")))
{
    m_menu->setObjectName(QStringLiteral("recentMenu"));
    connect(m_menu, &QMenu::aboutToShow, this, &RecentFilesMenu::fill);
}

void RecentFilesMenu::openedFile(const QString& path)
{
    if (m_remember && !path.isEmpty()) RecentFiles::remember(path);
}

void RecentFilesMenu::fill()
{
    m_menu->clear();
    const QStringList files = RecentFiles::list();
    int n = 0;
    for (const QString& path : files) {
        const QFileInfo info(path);
        ++n;
        QAction* a = m_menu->addAction(
            tr("&%1 %2 (%3)").arg(n % 10).arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())), this,
            [this, path] { Q_EMIT openRequested(path); });
        a->setData(path);
        a->setEnabled(info.isFile());
        if (!info.isFile()) a->setToolTip(tr("%1 no longer exists").arg(path));
    }
    if (files.isEmpty()) m_menu->addAction(tr("No recent files"))->setEnabled(false);
    m_menu->addSeparator();
    m_menu->addAction(tr("&Clear list"), this, [] { RecentFiles::clear(); })->setEnabled(!files.isEmpty());
}
