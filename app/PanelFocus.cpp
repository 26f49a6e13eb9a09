// SPDX-License-Identifier: GPL-3.0-or-later
#include "PanelFocus.h"

#include "views/CacheWayHeatmap.h"
#include "views/HeatmapGrid.h"
#include "views/MbaEditor.h"

#include <QApplication>
#include <QTableView>

namespace {
/// The widgets of `panel` that Tab stops at, in the order of the window's current focus chain.
QList<QWidget*> tabStops(QWidget* panel)
{
    QList<QWidget*> out;
    if (panel->focusPolicy() & Qt::TabFocus) out << panel;
    for (QWidget* w = panel->nextInFocusChain(); w && w != panel; w = w->nextInFocusChain()) {
        // A widget with a focus proxy (an editable combo box's line edit) is reached through the proxy.
        if (panel->isAncestorOf(w) && (w->focusPolicy() & Qt::TabFocus) && !w->focusProxy()) out << w;
    }
    return out;
}

/// Where focus lands when a panel is entered with F6.
QWidget* entryOf(QWidget* panel)
{
    if (auto* heatmap = qobject_cast<CacheWayHeatmap*>(panel)) return heatmap->grid();
    if (auto* mba = qobject_cast<MbaEditor*>(panel)) return mba->view();
    for (QWidget* w : tabStops(panel))
        if (w->isVisible() && w->isEnabled()) return w;
    return nullptr;
}
} // namespace

PanelFocus::PanelFocus(QList<QWidget*> panels)
{
    for (QWidget* p : panels)
        m_panels << p;
}

QList<QWidget*> PanelFocus::panels() const
{
    QList<QWidget*> out;
    for (const auto& p : m_panels)
        if (p) out << p.data();
    return out;
}

void PanelFocus::setupTabOrder(QWidget* window) const
{
    QList<QWidget*> chain;
    for (QWidget* panel : panels())
        chain << tabStops(panel);
    for (int i = 1; i < chain.size(); ++i)
        window->setTabOrder(chain[i - 1], chain[i]);
    // Tab out of the MB table instead of through every cell (the arrow keys move between cells).
    for (QWidget* panel : panels())
        if (auto* mba = qobject_cast<MbaEditor*>(panel)) mba->view()->setTabKeyNavigation(false);
}

QWidget* PanelFocus::focusNext(bool forward) const
{
    const QList<QWidget*> list = panels();
    const int n = static_cast<int>(list.size());
    int at = -1;
    for (int i = 0; i < n && at < 0; ++i)
        if (QApplication::focusWidget() && list[i]->isAncestorOf(QApplication::focusWidget())) at = i;
    for (int step = 1; step <= n; ++step) {
        const int i = ((at < 0 ? (forward ? -1 : 0) : at) + (forward ? step : -step) % n + n) % n;
        QWidget* entry = entryOf(list[i]);
        if (entry && entry->isVisible() && entry->isEnabled()) {
            entry->setFocus(Qt::ShortcutFocusReason);
            return list[i];
        }
    }
    return nullptr;
}
