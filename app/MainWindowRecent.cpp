// SPDX-License-Identifier: GPL-3.0-or-later
// File > Open Recent: the sessions and perf.data files opened before (RecentFiles), reopened the way --open
// opens them (a perf.data file into the PMU pages, anything else as a session).
#include "MainWindow.h"
#include "RecentFiles.h"

#include "models/PmuSession.h"
#include "views/PmuPages.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>

void MainWindow::setRememberRecentFiles(bool on)
{
    m_rememberFiles = on;
}

void MainWindow::buildRecentMenu(QMenu* file)
{
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    connect(this, &MainWindow::sessionOpened, this, [this](bool ok, const QString&) {
        if (ok && m_rememberFiles) RecentFiles::remember(m_sessionPath);
    });
}

void MainWindow::rememberImportedFiles()
{
    // A perf.data file imported by any route (File > Open perf.data, --open, Open Recent) joins the list.
    connect(m_pmu->session(), &PmuSession::importFinished, this, [this](bool ok, const QString&) {
        if (ok && m_rememberFiles) RecentFiles::remember(m_pmu->session()->importedFile());
    });
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = RecentFiles::list();
    int n = 0;
    for (const QString& path : files) {
        const QFileInfo info(path);
        ++n;
        QAction* a = m_recentMenu->addAction(
            tr("&%1 %2 (%3)").arg(n % 10).arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())), this,
            [this, path] { openRecent(path); });
        a->setData(path);
        a->setEnabled(info.isFile());
        if (!info.isFile()) a->setToolTip(tr("%1 no longer exists").arg(path));
    }
    if (files.isEmpty()) m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear list"), this, [] { RecentFiles::clear(); })->setEnabled(!files.isEmpty());
}

void MainWindow::openRecent(const QString& path)
{
    if (!QFileInfo(path).isFile()) {
        statusBar()->showMessage(tr("Cannot open %1: it no longer exists").arg(path), 10000);
        return;
    }
    if (!m_pmu->startFromOptions(path, QString(), false)) openSession(path);
}
