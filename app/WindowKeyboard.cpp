// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's keyboard and colour-scheme side (issue 16 item 8): the explicit Tab order through the panels, F6 to
// hop between them, View > Colour scheme, and Help > Keyboard shortcuts.
#include "MainWindow.h"

#include "views/CacheWayHeatmap.h"
#include "views/ColourScheme.h"
#include "views/ExplainPanel.h"
#include "views/GroupsPanel.h"
#include "views/HeatmapGrid.h"
#include "views/MbaEditor.h"
#include "views/MonitorPanel.h"
#include "views/TimelineView.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
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

/// Where focus lands when a panel is entered with F6: the thing the panel is about, not its first tool button.
QWidget* entryOf(QWidget* panel)
{
    if (auto* heatmap = qobject_cast<CacheWayHeatmap*>(panel)) return heatmap->grid();
    if (auto* mba = qobject_cast<MbaEditor*>(panel)) return mba->view();
    for (QWidget* w : tabStops(panel))
        if (w->isVisible() && w->isEnabled()) return w;
    return nullptr;
}
} // namespace

QList<QWidget*> MainWindow::focusPanels() const
{
    return { m_groupsPanel, m_heatmap, m_mba, m_timelines, m_monitorPanel, m_explain };
}

void MainWindow::setupTabOrder()
{
    // Tab walks the panels as they read on screen: the Groups dock, then the dashboard top to bottom (heatmap, MB
    // table, timelines), then the Monitor and Explain docks. Chaining every stop explicitly keeps the order whatever
    // order the widgets were created in.
    QList<QWidget*> chain;
    for (QWidget* panel : focusPanels())
        chain << tabStops(panel);
    for (int i = 1; i < chain.size(); ++i)
        setTabOrder(chain[i - 1], chain[i]);
    // Tab out of the MB table instead of through every cell (the arrow keys move between cells).
    m_mba->view()->setTabKeyNavigation(false);
}

QWidget* MainWindow::focusNextPanel(bool forward)
{
    const QList<QWidget*> panels = focusPanels();
    const int n = static_cast<int>(panels.size());
    int at = -1;
    for (int i = 0; i < n && at < 0; ++i)
        if (QApplication::focusWidget() && panels[i]->isAncestorOf(QApplication::focusWidget())) at = i;
    for (int step = 1; step <= n; ++step) {
        const int i = ((at < 0 ? (forward ? -1 : 0) : at) + (forward ? step : -step) % n + n) % n;
        QWidget* entry = entryOf(panels[i]);
        if (entry && entry->isVisible() && entry->isEnabled()) {
            entry->setFocus(Qt::ShortcutFocusReason);
            return panels[i];
        }
    }
    return nullptr;
}

void MainWindow::buildKeyboardActions(QMenu* view)
{
    view->addSeparator();
    QAction* next = view->addAction(tr("&Next panel"), this, [this] { focusNextPanel(true); });
    next->setShortcut(QKeySequence(Qt::Key_F6));
    next->setToolTip(tr("Move the keyboard focus to the next panel (Groups, heatmap, MB table, timelines, Monitor)"));
    QAction* previous = view->addAction(tr("&Previous panel"), this, [this] { focusNextPanel(false); });
    previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F6));
    previous->setToolTip(tr("Move the keyboard focus to the previous panel"));

    // Colour scheme: follow the desktop by default; a choice is kept for the next start.
    QMenu* scheme = view->addMenu(tr("&Colour scheme"));
    auto* group = new QActionGroup(scheme);
    struct Choice {
        QString text;
        colourscheme::Scheme scheme;
        QKeySequence key;
        QString tip;
    };
    const Choice choices[] = {
        { tr("Follow &desktop"), colourscheme::Scheme::Desktop, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
            tr("Use the palette the desktop gives (light or dark)") },
        { tr("&Light palette"), colourscheme::Scheme::Light, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L),
            tr("Light backgrounds, dark text") },
        { tr("D&ark palette"), colourscheme::Scheme::Dark, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
            tr("Dark backgrounds, light text") },
    };
    for (const Choice& c : choices) {
        QAction* a = scheme->addAction(c.text);
        a->setCheckable(true);
        a->setChecked(colourscheme::current() == c.scheme);
        a->setShortcut(c.key);
        a->setToolTip(c.tip);
        a->setStatusTip(c.tip);
        a->setObjectName(QStringLiteral("colourScheme.")
            + c.text.toLower().remove(QLatin1Char('&')).split(QLatin1Char(' ')).first());
        group->addAction(a);
        const colourscheme::Scheme s = c.scheme;
        connect(a, &QAction::triggered, this, [s] {
            colourscheme::apply(s);
            colourscheme::save(s);
        });
    }
}

void MainWindow::showShortcutsHelp()
{
    // Generated from the menus, so it cannot fall out of date.
    QString html = QStringLiteral("<table cellspacing=\"4\">");
    for (QAction* top : menuBar()->actions()) {
        if (!top->menu()) continue;
        html += QStringLiteral("<tr><td colspan=\"2\"><b>%1</b></td></tr>").arg(top->text().remove(QLatin1Char('&')));
        QList<QAction*> actions = top->menu()->actions();
        for (int i = 0; i < actions.size(); ++i) {
            QAction* a = actions[i];
            if (a->menu()) actions << a->menu()->actions();
            if (a->isSeparator() || a->menu() || a->shortcut().isEmpty()) continue;
            html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>")
                        .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                            a->text().remove(QLatin1Char('&')).toHtmlEscaped());
        }
    }
    html += QStringLiteral("</table><p>")
        + tr("In the heatmap: arrow keys move the cursor, Shift+Left/Right stage a "
             "range, Space toggles a bit, Enter applies, Escape cancels.")
        + QStringLiteral("</p>");
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(html);
    box.exec();
}
