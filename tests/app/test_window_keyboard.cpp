// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 16 item 8: every menu action has its own shortcut, Tab and F6 walk the panels in order, the painted
// heatmap and the MB table tell a screen reader which cell the cursor is on, and a dark scheme paints dark.
#include "MainWindow.h"

#include "models/AllocationModel.h"
#include "views/CacheWayHeatmap.h"
#include "views/ColourScheme.h"
#include "views/HeatmapGrid.h"
#include "views/MbaEditor.h"
#include "views/QCustomPlotInclude.h"
#include "views/TimelineView.h"

#include <QAccessible>
#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QShortcut>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

namespace {
AllocationState twoGroups()
{
    AllocationState s;
    CacheSchema l3;
    l3.name = "L3";
    l3.cbmLength = 11;
    l3.shareableBits = 0x600;
    l3.cacheBytes = 11u << 20;
    l3.ways = 11;
    s.caches = { l3 };
    BandwidthSchema mb;
    mb.name = "MB";
    s.bandwidths = { mb };
    s.domains = { 0 };
    GroupAllocation def;
    def.cbm["L3"][0] = 0x7ff;
    def.bandwidth["MB"][0] = 100;
    GroupAllocation streamer;
    streamer.group = "streamer";
    streamer.cbm["L3"][0] = 0x3;
    streamer.bandwidth["MB"][0] = 30;
    s.groups = { def, streamer };
    s.writable = false;
    s.readOnlyReason = "test state";
    return s;
}

/// Every action of the menu bar, submenus included (the submenu entries themselves and separators left out).
QList<QAction*> menuActions(QMenuBar* bar)
{
    QList<QAction*> out;
    QList<QAction*> todo;
    for (QAction* top : bar->actions())
        if (top->menu()) todo << top->menu()->actions();
    while (!todo.isEmpty()) {
        QAction* a = todo.takeFirst();
        if (a->menu())
            todo << a->menu()->actions();
        else if (!a->isSeparator() && !out.contains(a))
            out << a;
    }
    return out;
}

int panelOf(const MainWindow& w, const QWidget* widget)
{
    const QList<QWidget*> panels = w.focusPanels();
    for (int i = 0; i < panels.size(); ++i)
        if (widget && (panels[i] == widget || panels[i]->isAncestorOf(widget))) return i;
    return -1;
}

int lightness(const QImage& image, int x, int y)
{
    return QColor(image.pixel(x, y)).lightness();
}
} // namespace

class TestWindowKeyboard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // View > Colour scheme writes QSettings
        QSettings().clear();
    }

    void everyMenuActionHasItsOwnShortcut()
    {
        MainWindow w;
        const QList<QAction*> actions = menuActions(w.menuBar());
        QVERIFY(actions.size() > 20);
        QHash<QKeySequence, QString> owner;
        for (QAction* a : actions) {
            const QString name = a->text().remove(QLatin1Char('&'));
            QVERIFY2(!a->shortcut().isEmpty(), qPrintable(name));
            for (const QKeySequence& k : a->shortcuts()) {
                QVERIFY2(!owner.contains(k),
                    qPrintable(QStringLiteral("%1 is both %2 and %3").arg(k.toString(), owner.value(k), name)));
                owner.insert(k, name);
            }
        }
        // Nor does a widget's own active shortcut take a menu's key (Qt would call the key ambiguous and do nothing).
        for (QAction* a : w.findChildren<QAction*>()) {
            if (actions.contains(a) || !a->isEnabled() || a->associatedObjects().isEmpty()) continue;
            for (const QKeySequence& k : a->shortcuts())
                QVERIFY2(!owner.contains(k), qPrintable(k.toString() + QStringLiteral(" taken twice")));
        }
        for (QShortcut* s : w.findChildren<QShortcut*>())
            if (s->isEnabled()) QVERIFY2(!owner.contains(s->key()), qPrintable(s->key().toString()));
    }

    void everyPageAndDockIsInTheViewMenu()
    {
        MainWindow w;
        QMenu* view = nullptr;
        for (QAction* top : w.menuBar()->actions())
            if (top->text().remove(QLatin1Char('&')) == QLatin1String("View")) view = top->menu();
        QVERIFY(view);
        QStringList texts;
        for (QAction* a : view->actions())
            texts << a->text();
        auto* pages = w.findChild<QTabWidget*>();
        QVERIFY(pages);
        for (int i = 0; i < pages->count(); ++i)
            QVERIFY2(texts.contains(pages->tabText(i)), qPrintable(pages->tabText(i)));
        for (QDockWidget* dock : w.findChildren<QDockWidget*>())
            QVERIFY2(view->actions().contains(dock->toggleViewAction()), qPrintable(dock->windowTitle()));
        // The page actions turn the page.
        for (QAction* a : view->actions()) {
            if (a->text() == pages->tabText(2)) a->trigger();
        }
        QCOMPARE(pages->currentIndex(), 2);
    }

    void tabWalksThePanelsInOrder()
    {
        MainWindow w;
        w.allocationModel()->setState(twoGroups());
        w.showView(QStringLiteral("rdt"));
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QCOMPARE(w.focusNextPanel(true), w.focusPanels().front()); // into the Groups dock
        QCOMPARE(panelOf(w, QApplication::focusWidget()), 0);
        QList<int> visited { 0 };
        for (int i = 0; i < 120 && visited.size() < w.focusPanels().size(); ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            const int p = panelOf(w, QApplication::focusWidget());
            if (p >= 0 && p != visited.back()) visited << p;
        }
        // Groups, heatmap, MB table, timelines, Monitor, Explain: each entered once, in that order; the MB table is
        // left with one Tab (not one per cell).
        QCOMPARE(visited, (QList<int> { 0, 1, 2, 3, 4, 5 }));
        QVERIFY(!w.mbaEditor()->view()->tabKeyNavigation());
    }

    void f6HopsBetweenPanels()
    {
        MainWindow w;
        w.allocationModel()->setState(twoGroups());
        w.showView(QStringLiteral("rdt"));
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        const QList<QWidget*> panels = w.focusPanels();
        QList<QWidget*> hops;
        for (int i = 0; i < panels.size() + 1; ++i)
            hops << w.focusNextPanel(true);
        QCOMPARE(hops.mid(0, panels.size()), panels);
        QCOMPARE(hops.back(), panels.front()); // round again
        QVERIFY(panels.front()->isAncestorOf(QApplication::focusWidget()));
        QCOMPARE(w.focusNextPanel(false), panels.back());
        // The heatmap is entered at its grid, the MB editor at its table: what the panel is about.
        w.focusNextPanel(true); // Groups
        w.focusNextPanel(true);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(w.heatmap()->grid()));
        w.focusNextPanel(true);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(w.mbaEditor()->view()));
    }

    void heatmapTellsAScreenReaderTheCursorCell()
    {
        AllocationModel model;
        model.setState(twoGroups());
        CacheWayHeatmap heatmap;
        heatmap.setModel(&model);
        heatmap.resize(700, 300);
        heatmap.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        HeatmapGrid* grid = heatmap.grid();
        grid->setFocus();
        QTRY_VERIFY(grid->hasFocus());
        QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(grid);
        QVERIFY(iface);
        QCOMPARE(iface->role(), QAccessible::Table);
        QCOMPARE(iface->text(QAccessible::Name), QStringLiteral("Cache-way heatmap"));
        QCOMPARE(iface->childCount(), 2 * 11);

        grid->setCursorCell(1, 0);
        const QString before = iface->text(QAccessible::Value);
        QCOMPARE(before, QStringLiteral("streamer, domain 0, bit 0: overlapping")); // the default group has it too
        QTest::keyClick(grid, Qt::Key_Left); // towards the most significant bit: bit 1
        QCOMPARE(iface->text(QAccessible::Value), QStringLiteral("streamer, domain 0, bit 1: overlapping"));
        QTest::keyClick(grid, Qt::Key_Left);
        QCOMPARE(iface->text(QAccessible::Value), QStringLiteral("streamer, domain 0, bit 2: unused"));
        QTest::keyClick(grid, Qt::Key_Up); // the default group, bit 2; 9 and 10 are hardware-shared
        QCOMPARE(iface->text(QAccessible::Value), QStringLiteral("default, domain 0, bit 2: allocated"));
        grid->setCursorCell(0, 10);
        QVERIFY(iface->text(QAccessible::Value).endsWith(QStringLiteral("hardware-shared")));

        // The focused child is the cursor cell, named like the value, and a screen reader was told it moved.
        QAccessibleInterface* cell = iface->focusChild();
        QVERIFY(cell);
        QCOMPARE(cell->role(), QAccessible::Cell);
        QCOMPARE(cell->text(QAccessible::Name), iface->text(QAccessible::Value));
        QVERIFY(cell->state().focused);
        QCOMPARE(iface->indexOfChild(cell), 0 * 11 + 10);
        QCOMPARE(cell->rect().center(), grid->mapToGlobal(grid->cellRect(0, 10).center()));
        QVERIFY(cell->text(QAccessible::Description).contains(QStringLiteral("mask")));
        // Children by position: a screen reader's mouse review names the cell under the pointer.
        const QPoint overBit3 = grid->mapToGlobal(grid->cellRect(1, 3).center());
        QAccessibleInterface* under = iface->childAt(overBit3.x(), overBit3.y());
        QVERIFY(under);
        QCOMPARE(under->text(QAccessible::Name), QStringLiteral("streamer, domain 0, bit 3: unused"));
        QCOMPARE(iface->child(iface->indexOfChild(under)), under);
        // (The focus event that tells a running screen reader is not observable here: QAccessible drops events
        // unless the platform's accessibility bridge is active, which offscreen it never is.)
    }

    void mbTableCellsNameGroupAndDomain()
    {
        AllocationModel model;
        model.setState(twoGroups());
        MbaEditor editor;
        editor.setModel(&model);
        const QModelIndex idx = editor.bandwidthModel()->index(1, 0);
        QCOMPARE(idx.data(Qt::AccessibleTextRole).toString(), QStringLiteral("streamer, domain 0: MB 30 %"));
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QAccessibleInterface* table = QAccessible::queryAccessibleInterface(editor.view());
        QVERIFY(table && table->tableInterface());
        QAccessibleInterface* cell = table->tableInterface()->cellAt(1, 0);
        QVERIFY(cell);
        QCOMPARE(cell->text(QAccessible::Name), QStringLiteral("streamer, domain 0: MB 30 %"));
    }

    void darkSchemePaintsDarkAndPersists()
    {
        MainWindow w;
        w.allocationModel()->setState(twoGroups());
        w.showView(QStringLiteral("rdt"));
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction* dark = w.findChild<QAction*>(QStringLiteral("colourScheme.dark"));
        QAction* desktop = w.findChild<QAction*>(QStringLiteral("colourScheme.follow"));
        QAction* light = w.findChild<QAction*>(QStringLiteral("colourScheme.light"));
        QVERIFY(dark && desktop && light);
        QVERIFY(desktop->isChecked());
        QVERIFY(!colourscheme::isDark(QApplication::palette())); // the offscreen platform's palette is light

        auto check = [&w](bool wantDark) {
            QApplication::processEvents();
            HeatmapGrid* grid = w.heatmap()->grid();
            const QImage heat = grid->grab().toImage();
            QVERIFY(!heat.isNull());
            // The grid's background (left margin, above the first row) and a row label's text.
            const int bg = lightness(heat, 2, 2);
            QVERIFY2(wantDark ? bg < 60 : bg > 200, qPrintable(QString::number(bg)));
            const QRect label(
                0, grid->cellRect(1, 10).top(), grid->cellRect(1, 10).left(), grid->cellRect(1, 10).height());
            int extreme = wantDark ? 0 : 255;
            for (int y = label.top(); y <= label.bottom(); ++y)
                for (int x = label.left(); x < label.right(); ++x)
                    extreme = wantDark ? std::max(extreme, lightness(heat, x, y))
                                       : std::min(extreme, lightness(heat, x, y));
            // Readable: the label's text is far from the background.
            QVERIFY2(std::abs(extreme - bg) > 120, qPrintable(QStringLiteral("%1 on %2").arg(extreme).arg(bg)));

            QCustomPlot* plot = w.timelines()->plot();
            const QImage tl = plot->grab().toImage();
            const int plotBg = lightness(tl, tl.width() / 2, 3);
            QVERIFY2(wantDark ? plotBg < 60 : plotBg > 200, qPrintable(QString::number(plotBg)));
            const QColor axisText = plot->axisRects().back()->axis(QCPAxis::atBottom)->tickLabelColor();
            QVERIFY2(std::abs(axisText.lightness() - plotBg) > 120, qPrintable(axisText.name()));
        };
        dark->trigger();
        QVERIFY(colourscheme::isDark(QApplication::palette()));
        QCOMPARE(QSettings().value(QStringLiteral("view/colourScheme")).toString(), QStringLiteral("dark"));
        QCOMPARE(colourscheme::saved(), colourscheme::Scheme::Dark);
        check(true);
        light->trigger();
        QCOMPARE(colourscheme::saved(), colourscheme::Scheme::Light);
        check(false);
        desktop->trigger();
        QCOMPARE(colourscheme::saved(), colourscheme::Scheme::Desktop);
        QVERIFY(!colourscheme::isDark(QApplication::palette()));
        check(false);
    }
};

QTEST_MAIN(TestWindowKeyboard)
#include "test_window_keyboard.moc"
