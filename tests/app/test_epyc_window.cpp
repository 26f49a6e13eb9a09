// SPDX-License-Identifier: GPL-3.0-or-later
// The window on the simulated AMD EPYC (--source sim --preset epyc-genoa): the Monitor dock says how many
// assignable MBM counters are free, and a group that got none reads "unassigned", greyed, with the reason.
#include "EngineSource.h"
#include "MainWindow.h"
#include "models/GroupModel.h"
#include "models/MonitorTreeModel.h"
#include "views/CacheWayHeatmap.h"
#include "views/GroupsPanel.h"
#include "views/MonitorPanel.h"

#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QTreeView>

class TestEpycWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void monitorDockShowsFreeCountersAndUnassignedGroups()
    {
        // Sample quickly so the rows come while the test waits.
        auto bundle = openEngineSource("sim", "noisy-neighbour", 20.0, false, 1, "epyc-genoa");
        QVERIFY2(bundle.ok(), bundle.ok() ? "" : bundle.error().toString().c_str());
        GroupControl* groups = bundle.value().groups.get();
        QVERIFY(groups);
        MainWindow w;
        w.setSource(std::move(bundle.value()));
        // AMD describes its caches in CPUID 8000001DH (its 04H is empty): the heatmap names the leaf it read.
        QTRY_VERIFY_WITH_TIMEOUT(
            w.heatmap()->cacheInfoText().contains(QStringLiteral("(16 ways, CPUID.8000001DH)")), 5000);
        QVERIFY(!w.heatmap()->cacheInfoText().contains(QStringLiteral("04H")));
        QLabel* counters = w.monitorPanel()->counterStatus();
        // The scenario's two groups and the default group hold 2 counters each of the 8 in every domain.
        QTRY_VERIFY_WITH_TIMEOUT(counters->text().contains(QStringLiteral("free MBM counters: 2 in each of 4")), 5000);
        QVERIFY(!counters->isHidden());
        // One more group takes the last two; the next gets none and is an "unassigned" row.
        QVERIFY(groups->createGroup("batch", false).ok());
        QVERIFY(groups->createGroup("late", false).ok());
        // The window re-reads the allocation (and the counters with it) every few frames.
        QTRY_VERIFY2_WITH_TIMEOUT(counters->text().contains(QStringLiteral("free MBM counters: 0 in each of 4")),
            qPrintable(counters->text()), 10000);
        QSortFilterProxyModel* proxy = w.monitorPanel()->proxy();
        auto lateRow = [&] {
            for (int r = 0; r < proxy->rowCount(); ++r)
                if (proxy->index(r, 0).data(MonitorTreeModel::GroupPathRole).toString() == QStringLiteral("late"))
                    return proxy->index(r, MonitorTreeModel::TotalColumn);
            return QModelIndex();
        };
        QTRY_VERIFY_WITH_TIMEOUT(lateRow().isValid(), 10000);
        QCOMPARE(lateRow().data().toString(), QStringLiteral("unassigned"));
        QVERIFY(lateRow().data(Qt::ForegroundRole).isValid());
        QVERIFY(lateRow().data(Qt::ToolTipRole).toString().contains(QStringLiteral("No MBM counter is assigned")));

        // The Groups dock's context menu (GroupsPanel::assignCounters): with none free, assigning fails with the
        // kernel's reason and advice; freeing batch's counters lets late take them, and its row gets numbers.
        GroupsPanel* panel = w.groupsPanel();
        panel->reload();
        auto select = [&](const QString& path) {
            QAbstractItemModel* m = panel->view()->model();
            for (int r = 0; r < m->rowCount(); ++r)
                if (m->index(r, 0).data(GroupModel::PathRole).toString() == path) {
                    panel->view()->setCurrentIndex(m->index(r, 0));
                    return true;
                }
            return false;
        };
        QVERIFY(select(QStringLiteral("late")));
        QVERIFY(!panel->assignCounters(true, 0));
        QVERIFY2(panel->errorText().contains(QStringLiteral("no free MBM counter in domain 0")),
            qPrintable(panel->errorText()));
        QVERIFY(panel->errorText().contains(QStringLiteral("Free MBM counters")));
        QVERIFY(select(QStringLiteral("batch")));
        QVERIFY2(panel->assignCounters(false), qPrintable(panel->errorText()));
        QVERIFY(select(QStringLiteral("late")));
        QVERIFY2(panel->assignCounters(true), qPrintable(panel->errorText()));
        QTRY_VERIFY_WITH_TIMEOUT(lateRow().data().toString() != QStringLiteral("unassigned"), 10000);

        // Per domain, from the context menu's submenus: one entry per L3 domain. Freeing late's counters in domain 2
        // only gives that domain two free counters; the others stay full.
        QMenu menu;
        panel->addCounterActions(&menu);
        QMenu* freeIn = nullptr;
        for (QAction* a : menu.actions())
            if (a->menu() && a->text() == QStringLiteral("Free MBM counters in domain")) freeIn = a->menu();
        QVERIFY(freeIn);
        QStringList labels;
        for (QAction* a : freeIn->actions())
            labels << a->text();
        QCOMPARE(labels,
            QStringList({ QStringLiteral("L3 domain 0"), QStringLiteral("L3 domain 1"), QStringLiteral("L3 domain 2"),
                QStringLiteral("L3 domain 3") }));
        QVERIFY(freeIn->actions()[2]->isEnabled());
        freeIn->actions()[2]->trigger();
        QVERIFY2(panel->errorText().isEmpty(), qPrintable(panel->errorText()));
        QTRY_VERIFY2_WITH_TIMEOUT(counters->text().contains(QStringLiteral("free MBM counters: 0=0 1=0 2=2 3=0")),
            qPrintable(counters->text()), 10000);
    }

    // An Intel machine has no assignable counters: the line stays hidden.
    void noCounterLineWithoutAssignableCounters()
    {
        auto bundle = openEngineSource("sim", "noisy-neighbour", 20.0);
        QVERIFY2(bundle.ok(), bundle.ok() ? "" : bundle.error().toString().c_str());
        MainWindow w;
        w.setSource(std::move(bundle.value()));
        QTest::qWait(300);
        QVERIFY(w.monitorPanel()->counterStatus()->isHidden());
        QMenu menu; // nor per-domain counter entries
        w.groupsPanel()->addCounterActions(&menu);
        for (QAction* a : menu.actions())
            QVERIFY(!a->menu());
    }
};

QTEST_MAIN(TestEpycWindow)
#include "test_epyc_window.moc"
