// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 23 item 6: the window on an Intel SNC machine (a copy of the intel.snc fixture tree, two SNC-2 L3 domains):
// the heatmap says how many nodes share the L3 and what one CBM bit gives a node (1/n of its bytes, resctrl.rst
// "Notes on Sub-NUMA Cluster mode"), and the MBA editor that a value applies to the whole L3 domain. A machine
// without SNC says neither.
#include "AppOptions.h"
#include "EngineSource.h"
#include "MainWindow.h"
#include "SourceFactory.h"

#include "views/CacheWayHeatmap.h"
#include "views/MbaEditor.h"

#include "../rdt/TestTree.h"

#include <QTest>

class TestSncWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heatmapAndMbaSayWhatSncChanges()
    {
        rdt::test::TempTree tree("intel.snc");
        AppOptions o;
        o.source = QStringLiteral("resctrl:") + QString::fromStdString(tree.root());
        auto source = openSource(o);
        QVERIFY2(source.ok(), source.ok() ? "" : source.error().toString().c_str());
        MainWindow w;
        w.setSource(std::move(source.value()));
        QTRY_VERIFY_WITH_TIMEOUT(
            w.heatmap()->cacheInfoText().contains(QStringLiteral("SNC: 2 nodes share this L3")), 5000);
        QVERIFY2(w.heatmap()->cacheInfoText().contains(QStringLiteral("each bit gives a node")),
            qPrintable(w.heatmap()->cacheInfoText()));
        QVERIFY2(
            w.mbaEditor()->rulesText().contains(QStringLiteral("applies to the whole L3 domain, all 2 of its nodes")),
            qPrintable(w.mbaEditor()->rulesText()));
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
    }
};

QTEST_MAIN(TestSncWindow)
#include "test_snc_window.moc"
