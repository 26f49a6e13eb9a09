// SPDX-License-Identifier: GPL-3.0-or-later
// Allocation changes made by another program (AllocationChanged with who = "external", decided by the engine's
// ExternalChangeDetector) are marked on the changed row of the cache-way heatmap: a "!" badge and an outline in
// that domain's panel, the what and when in the tooltip, a line below the grid, gone when dismissed.

#include "engine/ExternalChangeDetector.h"
#include "models/AllocationModel.h"
#include "test_allocation_support.h"
#include "views/CacheWayHeatmap.h"
#include "views/HeatmapGrid.h"
#include "views/HeatmapPalette.h"

#include <QApplication>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

namespace {
rdt::AllocationChanged change(
    const char* who, const char* group, const char* resource, int domain, const char* oldValue, const char* newValue)
{
    return { 1'000'000'000, who, group, resource, domain, oldValue, newValue, true, {} };
}

/// Pixels of the external-change colour in one row's band of one domain's panel (badge and outline).
int markedPixels(HeatmapGrid* grid, int row, int domain)
{
    const QImage img = grid->grab().toImage();
    const QColor external = HeatmapPalette(grid->palette()).external;
    const QRect cells = grid->cellRect(row, 10, domain).united(grid->cellRect(row, 0, domain));
    const QRect band(
        cells.left() - cells.height() - 4, cells.top(), cells.width() + cells.height() + 4, cells.height());
    int n = 0;
    for (int y = band.top(); y <= band.bottom(); ++y)
        for (int x = std::max(0, band.left()); x <= band.right() && x < img.width(); ++x)
            n += img.pixelColor(x, y) == external ? 1 : 0;
    return n;
}
} // namespace

class TestHeatmapExternal : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void externalChangeMarksItsRowAndDomainUntilDismissed();
    void ownChangesAreNotMarked();
    void modeChangeMarksTheGroupInEveryDomain();
};

void TestHeatmapExternal::externalChangeMarksItsRowAndDomainUntilDismissed()
{
    KernelLikeSchemata kernel;
    AllocationModel model;
    const AllocationState st = makeSkxState();
    loadInto(kernel, st);
    model.setWriter(&kernel);
    model.setState(st);
    CacheWayHeatmap heatmap;
    heatmap.setModel(&model);
    heatmap.resize(900, 500);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    HeatmapGrid* grid = heatmap.grid();
    QCOMPARE(markedPixels(grid, 1, 0), 0);
    QVERIFY(heatmap.externalText().isEmpty());

    QSignalSpy marked(&model, &AllocationModel::externalChangesChanged);
    model.applyChange(change(rdt::engine::kExternalWho, "p0", "L3", 0, "f", "3")); // pqos -e "llc:1=0x3"
    QCOMPARE(marked.size(), 1);
    QCOMPARE(model.mask(1), 0x3ull); // the grid shows the new mask...
    const QString text = model.index(1, 0).data(AllocationModel::ExternalChangeRole).toString();
    QVERIFY2(text.contains(QStringLiteral("changed by another program at ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("f \u2192 3")), qPrintable(text));
    QVERIFY(model.index(1, 0).data(Qt::ToolTipRole).toString().contains(text));
    QVERIFY(model.index(2, 0).data(AllocationModel::ExternalChangeRole).toString().isEmpty()); // p1: untouched
    QVERIFY(model.externalChangeIn(1, 1).isEmpty()); // domain 1 of p0: untouched
    QVERIFY(model.cellAccessibleText(1, 0, 0).contains(QStringLiteral("changed by another program")));
    // ...and marks p0's row in domain 0 only.
    QVERIFY(markedPixels(grid, 1, 0) > 20);
    QCOMPARE(markedPixels(grid, 2, 0), 0);
    QCOMPARE(markedPixels(grid, 1, 1), 0);
    QVERIFY(heatmap.externalText().contains(QStringLiteral("1 allocation change")));

    auto* dismiss = heatmap.findChild<QPushButton*>(QStringLiteral("dismissExternal"));
    QVERIFY(dismiss);
    QVERIFY(dismiss->isVisible());
    QTest::mouseClick(dismiss, Qt::LeftButton);
    QCOMPARE(marked.size(), 2);
    QVERIFY(heatmap.externalText().isEmpty());
    QVERIFY(!dismiss->isVisible());
    QVERIFY(model.externalChangeIn(1, 0).isEmpty());
    QCOMPARE(markedPixels(grid, 1, 0), 0);
    QCOMPARE(model.mask(1), 0x3ull); // dismissing a mark changes no allocation
}

void TestHeatmapExternal::ownChangesAreNotMarked()
{
    AllocationModel model;
    model.setState(makeSkxState());
    QSignalSpy marked(&model, &AllocationModel::externalChangesChanged);
    model.applyChange(change("gui", "p0", "L3", 0, "f", "3"));
    model.applyChange(change("scenario", "p1", "L3", 1, "f0", "30"));
    QCOMPARE(model.mask(1), 0x3ull);
    QCOMPARE(marked.size(), 0);
    QCOMPARE(model.externalChangeCount(), 0);
    QVERIFY(model.externalChangeIn(1, 0).isEmpty());
}

void TestHeatmapExternal::modeChangeMarksTheGroupInEveryDomain()
{
    AllocationModel model;
    model.setState(makeSkxState());
    model.applyChange(
        change(rdt::engine::kExternalWho, "p1", rdt::engine::kModeResource, -1, "shareable", "exclusive"));
    for (int d : { 0, 1 })
        QVERIFY(model.externalChangeIn(2, d).contains(QStringLiteral("mode shareable \u2192 exclusive")));
    QVERIFY(model.externalChangeIn(1, 0).isEmpty());
}

QTEST_MAIN(TestHeatmapExternal)
#include "test_heatmap_external.moc"
