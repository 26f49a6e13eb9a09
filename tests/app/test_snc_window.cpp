// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 23 item 6: the window on an Intel SNC machine (a copy of the intel.snc fixture tree, two SNC-2 L3 domains):
// the heatmap says how many nodes share the L3 and what one CBM bit gives a node (1/n of its bytes, resctrl.rst
// "Notes on Sub-NUMA Cluster mode"), and the MBA editor that a value applies to the whole L3 domain; the Monitor
// dock shows each node's figures under its L3 domain, which is their sum. A machine without SNC says none of it.
#include "AppOptions.h"
#include "EngineSource.h"
#include "MainWindow.h"
#include "SourceFactory.h"

#include "models/MonitorTreeModel.h"
#include "views/CacheWayHeatmap.h"
#include "views/MbaEditor.h"

#include "../rdt/TestTree.h"

#include <QTest>

namespace {
/// The window on a copy of the intel.snc fixture tree (declared first, so it outlives the window); `error` says
/// why the source did not open.
struct SncWindow {
    rdt::test::TempTree tree { "intel.snc" };
    MainWindow window;
    QString error;
    SncWindow()
    {
        AppOptions o;
        o.source = QStringLiteral("resctrl:") + QString::fromStdString(tree.root());
        auto source = openSource(o);
        if (!source.ok()) {
            error = QString::fromStdString(source.error().toString());
            return;
        }
        window.setSource(std::move(source.value()));
    }
};
} // namespace

class TestSncWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heatmapAndMbaSayWhatSncChanges()
    {
        SncWindow snc;
        QVERIFY2(snc.error.isEmpty(), qPrintable(snc.error));
        MainWindow& w = snc.window;
        QTRY_VERIFY_WITH_TIMEOUT(
            w.heatmap()->cacheInfoText().contains(QStringLiteral("SNC: 2 nodes share this L3")), 5000);
        // resctrl's size files give a node's share (112.5 MiB of a full mask here); the L3 is both nodes' (225 MiB),
        // and a bit gives a node 7.5 MiB. It said "112.50 MiB ... each bit gives a node 3.75 MiB", halving twice.
        QVERIFY2(
            w.heatmap()->cacheInfoText().startsWith(QStringLiteral("L3 domain 0: 225.00 MiB, 15-bit CBM, 15.00 MiB")),
            qPrintable(w.heatmap()->cacheInfoText()));
        QVERIFY2(w.heatmap()->cacheInfoText().contains(QStringLiteral("each bit gives a node 7.50 MiB")),
            qPrintable(w.heatmap()->cacheInfoText()));
        QVERIFY2(
            w.mbaEditor()->rulesText().contains(QStringLiteral("applies to the whole L3 domain, all 2 of its nodes")),
            qPrintable(w.mbaEditor()->rulesText()));
    }

    void monitorDockShowsEachNodeUnderItsL3()
    {
        SncWindow snc;
        QVERIFY2(snc.error.isEmpty(), qPrintable(snc.error));
        MonitorTreeModel* model = snc.window.monitorTree();
        QTRY_VERIFY_WITH_TIMEOUT(model->groupCount() > 0, 5000);
        int p0 = -1;
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, 0).data(MonitorTreeModel::GroupPathRole).toString() == QStringLiteral("p0")) p0 = r;
        QVERIFY(p0 >= 0);
        const QModelIndex group = model->index(p0, 0);
        QCOMPARE(model->rowCount(group), 2); // mon_L3_00 and mon_L3_01
        for (int d = 0; d < 2; ++d) {
            const QModelIndex domain = model->index(d, 0, group);
            QCOMPARE(model->rowCount(domain), 2); // SNC-2: two mon_sub_L3_YY under each L3
            QCOMPARE(model->parent(model->index(0, 0, domain)), domain);
            double nodes = 0;
            QStringList names;
            for (int n = 0; n < 2; ++n) {
                const QModelIndex node = model->index(n, MonitorTreeModel::OccupancyColumn, domain);
                nodes += node.data(MonitorTreeModel::ValueRole).toDouble();
                names << model->index(n, MonitorTreeModel::GroupColumn, domain).data().toString();
                QVERIFY(node.data(Qt::ToolTipRole).toString().contains(QStringLiteral("mon_sub_L3_")));
            }
            const double whole = model->index(d, MonitorTreeModel::OccupancyColumn, group)
                                     .data(MonitorTreeModel::ValueRole)
                                     .toDouble();
            QVERIFY(whole > 0);
            QCOMPARE(nodes, whole); // the L3 row is the sum of its nodes, as the kernel's mon_L3_XX files are
            QCOMPARE(names,
                d == 0 ? QStringList({ QStringLiteral("SNC node 0"), QStringLiteral("SNC node 1") })
                       : QStringList({ QStringLiteral("SNC node 2"), QStringLiteral("SNC node 3") }));
        }
    }

    void noSncNoNote()
    {
        auto bundle = openEngineSource("sim", "noisy-neighbour", 20.0);
        QVERIFY(bundle.ok());
        MainWindow w;
        w.setSource(std::move(bundle.value()));
        QTRY_VERIFY_WITH_TIMEOUT(!w.heatmap()->cacheInfoText().startsWith(QStringLiteral("No cache")), 5000);
        QVERIFY(!w.heatmap()->cacheInfoText().contains(QStringLiteral("SNC")));
        QVERIFY(!w.mbaEditor()->rulesText().contains(QStringLiteral("SNC")));
        MonitorTreeModel* model = w.monitorTree();
        QTRY_VERIFY_WITH_TIMEOUT(model->groupCount() > 0, 5000);
        for (int r = 0; r < model->rowCount(); ++r)
            for (int d = 0; d < model->rowCount(model->index(r, 0)); ++d)
                QCOMPARE(model->rowCount(model->index(d, 0, model->index(r, 0))), 0);
    }
};

QTEST_MAIN(TestSncWindow)
#include "test_snc_window.moc"
