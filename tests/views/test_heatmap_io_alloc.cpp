// SPDX-License-Identifier: GPL-3.0-or-later
// AMD io_alloc on the heatmap (issue 23 item 5; resctrl.rst "io_alloc"): the ways I/O devices fill are marked in
// every group's row of their domain (the I/O colour, framed, and a legend entry), the cell tooltip and the line above
// the grid name the I/O mask and the CLOS held for I/O; without io_alloc nothing of it shows. The state comes from
// the amd.abmc fixture tree (io_alloc enabled, io_alloc_cbm c000 in each of four domains) through the engine, as the
// window reads it.
#include "../rdt/TestTree.h"
#include "engine/CaptureService.h"
#include "models/AllocationModel.h"
#include "models/EngineAllocation.h"
#include "test_allocation_support.h"
#include "views/CacheWayHeatmap.h"
#include "views/HeatmapGrid.h"
#include "views/HeatmapPalette.h"

#include <QDir>
#include <QTest>

#include <fstream>

namespace {
/// A pixel on the frame the grid draws around an I/O cell (its top edge, a little in from the corner).
QPoint frameOf(HeatmapGrid* grid, int row, int bit)
{
    return grid->cellRect(row, bit).adjusted(1, 1, -1, -1).topLeft() + QPoint(3, 0);
}

/// The allocation picture of a fixture tree copy, read through the engine as the window reads it.
rdt::Result<AllocationState> stateOf(const rdt::test::TempTree& tree)
{
    rdt::engine::ServiceOptions o;
    o.rdt.spec = "resctrl:" + tree.root();
    auto svc = rdt::engine::CaptureService::open(o);
    if (!svc) return svc.error();
    return readAllocationState(**svc, { false, false, {} });
}

/// A heatmap on its own model, shown (painted) at its size hint.
struct Shown {
    AllocationModel model;
    CacheWayHeatmap heatmap;
    explicit Shown(const AllocationState& st)
    {
        model.setState(st);
        heatmap.setModel(&model);
        heatmap.resize(heatmap.sizeHint());
        heatmap.show();
    }
    QImage grid() { return heatmap.grid()->grab().toImage(); }
};
} // namespace

class TestHeatmapIoAlloc : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ioWaysFromTheFixtureAreMarked()
    {
        rdt::test::TempTree tree("amd.abmc");
        auto st = stateOf(tree);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().toString().c_str());
        const CacheSchema* l3 = st->cacheSchema("L3");
        QVERIFY(l3);
        QCOMPARE(l3->ioAllocMasks.size(), std::size_t(4));
        QCOMPARE(l3->ioAllocMask(2), std::uint64_t(0xc000));
        QCOMPARE(l3->ioAllocClosid, 15); // the highest of 16

        Shown shown(*st);
        AllocationModel& model = shown.model;
        CacheWayHeatmap& heatmap = shown.heatmap;
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        const QImage img = shown.grid();
        const HeatmapPalette colours(heatmap.grid()->palette());
        QCOMPARE(img.pixelColor(frameOf(heatmap.grid(), 0, 15)), colours.ioAlloc);
        QCOMPARE(img.pixelColor(frameOf(heatmap.grid(), 1, 14)), colours.ioAlloc);
        QVERIFY(img.pixelColor(frameOf(heatmap.grid(), 0, 13)) != colours.ioAlloc);
        QVERIFY(model.index(0, 15).data(AllocationModel::IoAllocRole).toBool());
        QVERIFY(!model.index(0, 13).data(AllocationModel::IoAllocRole).toBool());
        const QString tip = model.index(0, 15).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("I/O (io_alloc 0xc000)")) && tip.contains(QStringLiteral("CLOS 15")),
            qPrintable(tip));
        QVERIFY2(heatmap.cacheInfoText().contains(QStringLiteral("io_alloc: I/O ways 0xc000, CLOS 15 held for I/O")),
            qPrintable(heatmap.cacheInfoText()));
        QVERIFY(heatmap.grab().save(QDir::tempPath() + QStringLiteral("/heatmap-io-alloc.png")));
    }

    void nothingWhenDisabled()
    {
        // The same AMD tree with io_alloc switched off (resctrl.rst: "disabled"): no I/O ways, no held CLOS.
        rdt::test::TempTree tree("amd.abmc");
        {
            std::ofstream(tree.root() + "/info/L3/io_alloc") << "disabled\n";
        }
        auto st = stateOf(tree);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().toString().c_str());
        const CacheSchema* l3 = st->cacheSchema("L3");
        QVERIFY(l3);
        QVERIFY(l3->ioAllocMasks.empty());
        QCOMPARE(l3->ioAllocClosid, -1);

        Shown shown(*st);
        AllocationModel& model = shown.model;
        CacheWayHeatmap& heatmap = shown.heatmap;
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        const QImage img = shown.grid();
        const HeatmapPalette colours(heatmap.grid()->palette());
        QVERIFY(img.pixelColor(frameOf(heatmap.grid(), 0, 15)) != colours.ioAlloc);
        QVERIFY(img.pixelColor(frameOf(heatmap.grid(), 0, 14)) != colours.ioAlloc);
        QVERIFY(!model.index(0, 15).data(AllocationModel::IoAllocRole).toBool());
        QVERIFY(!heatmap.cacheInfoText().contains(QStringLiteral("io_alloc")));
    }

    void nothingWithoutIoAlloc()
    {
        Shown shown(makeSkxState());
        AllocationModel& model = shown.model;
        CacheWayHeatmap& heatmap = shown.heatmap;
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        const QImage img = shown.grid();
        const HeatmapPalette colours(heatmap.grid()->palette());
        for (int bit = 0; bit < 11; ++bit)
            QVERIFY(img.pixelColor(frameOf(heatmap.grid(), 0, bit)) != colours.ioAlloc);
        QVERIFY(!heatmap.cacheInfoText().contains(QStringLiteral("io_alloc")));
        QVERIFY(!model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("io_alloc")));
    }
};

QTEST_MAIN(TestHeatmapIoAlloc)
#include "test_heatmap_io_alloc.moc"
