// SPDX-License-Identifier: GPL-3.0-or-later
#include "WindowLayout.h"

#include <QDockWidget>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QSplitter>

#include <algorithm>

namespace {
constexpr int kLayoutVersion = 2; // bump when docks are added or renamed, so an old saved state is not applied
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kSplitters = QStringLiteral("window/splitters/");
} // namespace

WindowLayout::WindowLayout(QMainWindow* window)
    : m_window(window)
{ }

QSize WindowLayout::defaultSize() const
{
    QSize size(1400, 900);
    // A window larger than the screen has its right dock and status bar cut off: never open wider or taller than
    // the area the desktop leaves (panels and task bars excluded). The offscreen platform's fixed 800x600 "screen"
    // is nobody's display: --screenshot there renders the designed size.
    const QScreen* screen = m_window->screen();
    if (screen && QGuiApplication::platformName() != QLatin1String("offscreen"))
        size = size.boundedTo(screen->availableGeometry().size());
    return size;
}

void WindowLayout::captureDefaults()
{
    m_defaultState = m_window->saveState(kLayoutVersion);
}

void WindowLayout::applyDefaultDockSizes()
{
    auto* groups = m_window->findChild<QDockWidget*>(QStringLiteral("groupsDock"));
    auto* monitor = m_window->findChild<QDockWidget*>(QStringLiteral("monitorDock"));
    auto* explain = m_window->findChild<QDockWidget*>(QStringLiteral("explainDock"));
    if (!groups || !monitor || !explain) return;
    // The Monitor gets the taller half: it lists every group with its figures; the Explain dock is wide enough
    // for sentences, not one word per line.
    m_window->resizeDocks({ groups, monitor }, { 260, 440 }, Qt::Vertical);
    // On a small screen the docks give the pages their room: a quarter and a fifth of the width at most, never
    // below what each dock needs.
    const int width = m_window->width();
    const int groupsWidth = std::max(groups->minimumSizeHint().width(), std::min(360, width / 4));
    const int explainWidth = std::max(explain->minimumSizeHint().width(), std::min(300, width / 5));
    m_window->resizeDocks({ groups, explain }, { groupsWidth, explainWidth }, Qt::Horizontal);
    if (auto* split = m_window->findChild<QSplitter*>(QStringLiteral("dashboardSplit"))) split->setSizes({ 560, 340 });
    if (auto* allocation = m_window->findChild<QSplitter*>(QStringLiteral("allocationSplit"));
        allocation && allocation->widget(1) && allocation->orientation() == Qt::Horizontal) {
        // The heatmap first (its bits, masks and occupancy whole), then the MB table: every domain's column when
        // the room is there, else at least two and it scrolls.
        const QWidget* heatmap = allocation->widget(0);
        const QWidget* mbTable = allocation->widget(1);
        const int mb = std::max(mbTable->minimumSizeHint().width(),
            std::min(mbTable->sizeHint().width(), allocation->width() - heatmap->sizeHint().width()));
        allocation->setSizes({ std::max(1, allocation->width() - mb), mb });
    }
}

void WindowLayout::reset()
{
    m_window->restoreState(m_defaultState, kLayoutVersion);
    for (auto* dock : m_window->findChildren<QDockWidget*>()) {
        if (dock->objectName() == QLatin1String("historyDock")) continue; // tabbed behind Explain, as at start
        if (dock->objectName() == QLatin1String("lessonDock")) continue; // shown while a lesson runs
        dock->show();
    }
    m_window->resize(defaultSize());
    applyDefaultDockSizes();
    QSettings().remove(QStringLiteral("window"));
}

bool WindowLayout::restore()
{
    QSettings settings;
    const QByteArray geometry = settings.value(kGeometry).toByteArray();
    const QByteArray state = settings.value(kState).toByteArray();
    if (geometry.isEmpty() && state.isEmpty()) return false;
    m_window->restoreGeometry(geometry);
    const bool ok = m_window->restoreState(state, kLayoutVersion);
    for (auto* split : m_window->findChildren<QSplitter*>()) {
        if (split->objectName().isEmpty()) continue;
        split->restoreState(settings.value(kSplitters + split->objectName()).toByteArray());
    }
    return ok;
}

void WindowLayout::save()
{
    QSettings settings;
    settings.setValue(kGeometry, m_window->saveGeometry());
    settings.setValue(kState, m_window->saveState(kLayoutVersion));
    for (auto* split : m_window->findChildren<QSplitter*>()) {
        if (!split->objectName().isEmpty()) settings.setValue(kSplitters + split->objectName(), split->saveState());
    }
}
