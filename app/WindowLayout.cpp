// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's layout: default dock sizes, saving and restoring window and dock state (QSettings), Reset layout.
#include "MainWindow.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QSettings>
#include <QSplitter>

namespace {
constexpr int kLayoutVersion = 2; // bump when docks are added or renamed, so an old saved state is not applied
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kSplitters = QStringLiteral("window/splitters/");
} // namespace

void MainWindow::applyDefaultDockSizes()
{
    auto* groups = findChild<QDockWidget*>(QStringLiteral("groupsDock"));
    auto* monitor = findChild<QDockWidget*>(QStringLiteral("monitorDock"));
    auto* explain = findChild<QDockWidget*>(QStringLiteral("explainDock"));
    if (!groups || !monitor || !explain) return;
    // The Monitor gets the taller half: it lists every group with its figures; the Explain dock is wide enough
    // for sentences, not one word per line.
    resizeDocks({ groups, monitor }, { 260, 440 }, Qt::Vertical);
    resizeDocks({ groups, explain }, { 360, 300 }, Qt::Horizontal);
    if (auto* split = findChild<QSplitter*>(QStringLiteral("dashboardSplit"))) split->setSizes({ 560, 340 });
    if (auto* allocation = findChild<QSplitter*>(QStringLiteral("allocationSplit"));
        allocation && allocation->widget(1)) {
        const int mb = allocation->widget(1)->minimumSizeHint().width();
        allocation->setSizes({ std::max(1, allocation->width() - mb), mb });
    }
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState, kLayoutVersion);
    for (auto* dock : findChildren<QDockWidget*>()) {
        if (dock->objectName() == QLatin1String("historyDock")) continue; // tabbed behind Explain, as at start
        dock->show();
    }
    resize(1400, 900);
    applyDefaultDockSizes();
    QSettings().remove(QStringLiteral("window"));
}

bool MainWindow::restoreLayout()
{
    QSettings settings;
    const QByteArray geometry = settings.value(kGeometry).toByteArray();
    const QByteArray state = settings.value(kState).toByteArray();
    if (geometry.isEmpty() && state.isEmpty()) return false;
    restoreGeometry(geometry);
    const bool ok = restoreState(state, kLayoutVersion);
    for (auto* split : findChildren<QSplitter*>()) {
        if (split->objectName().isEmpty()) continue;
        split->restoreState(settings.value(kSplitters + split->objectName()).toByteArray());
    }
    return ok;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(kGeometry, saveGeometry());
    settings.setValue(kState, saveState(kLayoutVersion));
    for (auto* split : findChildren<QSplitter*>()) {
        if (!split->objectName().isEmpty()) settings.setValue(kSplitters + split->objectName(), split->saveState());
    }
    QMainWindow::closeEvent(event);
}
