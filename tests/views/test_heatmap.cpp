// SPDX-License-Identifier: GPL-3.0-or-later
// CacheWayHeatmap driven by QTest mouse and keyboard events, writing through the kernel-like fake
// (tests/models/test_allocation_support.h). The same drag through the rdt engine against SimResctrlFs is in
// test_heatmap_sim.cpp.

#include "models/AllocationModel.h"
#include "test_allocation_support.h"
#include "views/CacheWayHeatmap.h"
#include "views/HeatmapGrid.h"
#include "views/HeatmapPalette.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

namespace {
struct Fixture {
    KernelLikeSchemata kernel;
    AllocationModel model;
    CacheWayHeatmap heatmap;

    explicit Fixture(const AllocationState& st)
    {
        loadInto(kernel, st);
        model.setWriter(&kernel);
        model.setState(st);
        heatmap.setModel(&model);
        heatmap.resize(heatmap.sizeHint());
        heatmap.show();
    }
    HeatmapGrid* grid() { return heatmap.grid(); }
    QPoint centre(int row, int bit) { return grid()->cellRect(row, bit).center(); }
    void drag(int row, const std::vector<int>& bits)
    {
        QTest::mousePress(grid(), Qt::LeftButton, {}, centre(row, bits.front()));
        for (std::size_t i = 1; i < bits.size(); ++i)
            QTest::mouseMove(grid(), centre(row, bits[i]));
        QTest::mouseRelease(grid(), Qt::LeftButton, {}, centre(row, bits.back()));
    }
};
} // namespace

class TestHeatmap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dragFromBit2To7WritesFc();
    void nonContiguousDragCannotProduceInvalidMask();
    void minCbmBitsHoldsWhileDragging();
    void clickTogglesOnlyWhereSparseMasksAreAllowed();
    void plainClickSelectsAndNeverWrites();
    void kernelRejectionRestoresRowAndShowsMessage();
    void undoWritesOldMaskBack();
    void keyboardEditing();
    void stagedEditsNeedApply();
    void readOnlyDisablesEditingWithReason();
    void externalStateUpdatesDisplayedAllocation();
    void paintsStateColoursAndSavesScreenshot();
    void invalidStagedRowIsRedWithReasonAndApplyDisabled();
    void cdpRowsAndDarkPalette();
    void legendWrapsInNarrowDocks();
    void selectingCellsRequestsExplanations();
    void unknownCacheSizeIsNotZero();
};

void TestHeatmap::dragFromBit2To7WritesFc()
{
    Fixture f(makeSkxState());
    f.drag(1, { 2, 3, 5, 7 });
    QCOMPARE(f.kernel.writes.size(), std::size_t(1));
    QCOMPARE(f.kernel.writes.back(), std::string("L3:0=fc\n"));
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfcull);
    QCOMPARE(f.kernel.value("p0", "L3", 1), 0xfull);
    QCOMPARE(f.model.liveMask(1), 0xfcull);
    // Domain 1, dragged right to left (bit 7 down to bit 2): the same mask in that domain only.
    auto* domainBox = f.heatmap.findChild<QComboBox*>(QStringLiteral("domain"));
    QVERIFY(domainBox);
    QCOMPARE(domainBox->count(), 2);
    domainBox->setCurrentIndex(1); // what the user picks in the domain selector
    QCOMPARE(f.model.domain(), 1);
    f.drag(1, { 7, 4, 2 });
    QCOMPARE(f.kernel.writes.back(), std::string("L3:1=fc\n"));
    QCOMPARE(f.kernel.value("p0", "L3", 1), 0xfcull);
}

void TestHeatmap::nonContiguousDragCannotProduceInvalidMask()
{
    Fixture f(makeSkxState());
    QSignalSpy data(&f.model, &QAbstractItemModel::dataChanged);
    // Zig-zag across the anchor, leave the grid to the left and right, come back: every preview stays one run.
    const std::vector<int> path { 5, 8, 1, 10, 3, 6 };
    QTest::mousePress(f.grid(), Qt::LeftButton, {}, f.centre(1, path.front()));
    for (std::size_t i = 1; i < path.size(); ++i) {
        QTest::mouseMove(f.grid(), f.centre(1, path[i]));
        QVERIFY(rdt::isContiguous(f.model.mask(1)));
        QVERIFY(f.model.rowError(1).isEmpty());
    }
    QTest::mouseMove(f.grid(), QPoint(f.grid()->width() - 2, f.centre(1, 0).y())); // beyond bit 0
    QCOMPARE(f.model.mask(1), 0x3full);
    QTest::mouseMove(f.grid(), QPoint(f.centre(2, 0).x(), f.centre(2, 0).y())); // onto another row: row stays
    QTest::mouseRelease(f.grid(), Qt::LeftButton, {}, f.centre(2, 6));
    QCOMPARE(f.kernel.writes.size(), std::size_t(1));
    QCOMPARE(f.kernel.writes.back(), std::string("L3:0=60\n")); // bits 5..6 of row 1
    QCOMPARE(f.kernel.value("p1", "L3", 0), 0xf0ull); // the row under the cursor was not touched
    QVERIFY(f.kernel.lastCmdStatus == "ok\n");
    // A Ctrl+click on a contiguous-only cache selects a range, never punches a hole.
    QTest::mouseClick(f.grid(), Qt::LeftButton, Qt::ControlModifier, f.centre(1, 6));
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0x40ull);
    for (const auto& w : f.kernel.writes)
        QVERIFY2(w.find("non-consecutive") == std::string::npos, w.c_str());
    QCOMPARE(f.kernel.lastCmdStatus, std::string("ok\n"));
}

void TestHeatmap::minCbmBitsHoldsWhileDragging()
{
    Fixture f(makeSkxState(false, false, 3));
    QTest::mousePress(f.grid(), Qt::LeftButton, {}, f.centre(1, 5));
    QTest::mouseMove(f.grid(), f.centre(1, 6));
    QCOMPARE(f.model.mask(1), 0xe0ull); // 5..7: grown in the drag direction
    QTest::mouseMove(f.grid(), f.centre(1, 4));
    QCOMPARE(f.model.mask(1), 0x38ull); // 3..5
    QTest::mouseMove(f.grid(), f.centre(1, 10)); // 5..10 is already wide enough
    QCOMPARE(f.model.mask(1), 0x7e0ull);
    QTest::mouseRelease(f.grid(), Qt::LeftButton, {}, f.centre(1, 10));
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0x7e0ull);
    // At the top edge a short range grows downwards instead.
    f.drag(1, { 10, 9 });
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0x700ull);
    QCOMPARE(HeatmapGrid::rangeMask(0, 0, 3, 11), 0x7ull);
    QCOMPARE(HeatmapGrid::rangeMask(1, 0, 3, 11), 0x7ull);
    QCOMPARE(HeatmapGrid::rangeMask(2, 7, 1, 11), 0xfcull);
}

void TestHeatmap::clickTogglesOnlyWhereSparseMasksAreAllowed()
{
    Fixture f(makeSkxState(false, true));
    QTest::mouseClick(f.grid(), Qt::LeftButton, Qt::ControlModifier, f.centre(1, 1));
    QCOMPARE(f.kernel.writes.back(), std::string("L3:0=d\n"));
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xdull);
    QTest::mouseClick(f.grid(), Qt::LeftButton, Qt::ControlModifier, f.centre(1, 1));
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfull);
}

void TestHeatmap::plainClickSelectsAndNeverWrites()
{
    Fixture f(makeSkxState(false, true)); // Apply live is on: a click that edited would write at once
    QVERIFY(f.model.applyLive());
    QSignalSpy explain(&f.heatmap, &CacheWayHeatmap::explainRequested);
    QTest::mouseClick(f.grid(), Qt::LeftButton, {}, f.centre(1, 1));
    QTest::mouseClick(f.grid(), Qt::LeftButton, {}, f.centre(2, 5));
    QVERIFY(f.kernel.writes.empty());
    QVERIFY(!f.model.hasPendingEdits());
    QCOMPARE(f.grid()->cursorRow(), 2);
    QCOMPARE(f.grid()->cursorBit(), 5);
    QVERIFY(explain.count() >= 2);
    // A press and release on the same cell with a wobble inside it is still a click.
    QTest::mousePress(f.grid(), Qt::LeftButton, {}, f.centre(1, 3));
    QTest::mouseMove(f.grid(), f.centre(1, 3) + QPoint(2, 1));
    QTest::mouseRelease(f.grid(), Qt::LeftButton, {}, f.centre(1, 3) + QPoint(2, 1));
    QVERIFY(f.kernel.writes.empty());
}

void TestHeatmap::kernelRejectionRestoresRowAndShowsMessage()
{
    Fixture f(makeSkxState());
    f.kernel.groups["p1"].exclusive = true; // the kernel knows better than the displayed state
    f.drag(1, { 0, 6 });
    QCOMPARE(f.model.mask(1), 0xfull); // the row is restored
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfull);
    QCOMPARE(f.model.index(1, 0).data(AllocationModel::RowErrorRole).toString(),
        QStringLiteral("Overlaps with exclusive group"));
    QVERIFY2(f.heatmap.statusText().contains(QStringLiteral("Overlaps with exclusive group")),
        qPrintable(f.heatmap.statusText()));
    // ...and the reason is painted beside the row, in red.
    const QImage img = f.grid()->grab().toImage();
    const QRect info(
        f.grid()->cellRect(1, 0).right() + 12, f.grid()->cellRect(1, 0).top(), 200, f.grid()->cellRect(1, 0).height());
    int red = 0;
    for (int x = info.left(); x < std::min(info.right(), img.width()); ++x) {
        for (int y = info.top(); y < info.bottom(); ++y) {
            const QColor c = img.pixelColor(x, y);
            red += c.red() > 150 && c.green() < 120 && c.blue() < 120;
        }
    }
    QVERIFY2(red > 20, "no red reason text beside the rejected row");
}

void TestHeatmap::undoWritesOldMaskBack()
{
    Fixture f(makeSkxState());
    f.drag(1, { 2, 7 });
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfcull);
    // Shortcuts go through the window system path: activate the window and type into it.
    f.heatmap.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&f.heatmap));
    f.grid()->setFocus();
    QTest::keyClick(f.heatmap.windowHandle(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(f.kernel.writes.back(), std::string("L3:0=f\n"));
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfull);
    QCOMPARE(f.model.mask(1), 0xfull);
    QTest::keyClick(f.heatmap.windowHandle(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfcull);
}

void TestHeatmap::keyboardEditing()
{
    Fixture f(makeSkxState());
    f.grid()->setFocus();
    f.grid()->setCursorCell(0, 2);
    QTest::keyClick(f.grid(), Qt::Key_Down); // row 1 (p0)
    QCOMPARE(f.grid()->cursorRow(), 1);
    for (int i = 0; i < 5; ++i)
        QTest::keyClick(f.grid(), Qt::Key_Left, Qt::ShiftModifier); // towards the MSB: bits 2..7
    QCOMPARE(f.model.mask(1), 0xfcull);
    QCOMPARE(f.kernel.writes.size(), std::size_t(0)); // nothing written until Enter
    QTest::keyClick(f.grid(), Qt::Key_Return);
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfcull);
    // Escape cancels a keyboard range.
    QTest::keyClick(f.grid(), Qt::Key_Right, Qt::ShiftModifier);
    QTest::keyClick(f.grid(), Qt::Key_Escape);
    QCOMPARE(f.model.mask(1), 0xfcull);
    QCOMPARE(f.kernel.writes.size(), std::size_t(1));
    // Space is a click: on a contiguous-only cache it selects the cursor's bit.
    QTest::keyClick(f.grid(), Qt::Key_Space);
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0x40ull);
}

void TestHeatmap::stagedEditsNeedApply()
{
    Fixture f(makeSkxState());
    f.model.setApplyLive(false);
    f.drag(1, { 2, 7 });
    f.drag(2, { 8, 9 });
    QVERIFY(f.kernel.writes.empty());
    QVERIFY(f.model.hasPending(1) && f.model.hasPending(2));
    f.grid()->setFocus();
    QTest::keyClick(f.grid(), Qt::Key_Return); // Enter applies the staged edits as one undoable command
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfcull);
    QCOMPARE(f.kernel.value("p1", "L3", 0), 0x300ull);
    QCOMPARE(f.model.undoStack()->count(), 1);
    f.model.undoStack()->undo();
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfull);
    QCOMPARE(f.kernel.value("p1", "L3", 0), 0xf0ull);
}

void TestHeatmap::readOnlyDisablesEditingWithReason()
{
    AllocationState st = makeSkxState();
    st.writable = false;
    st.readOnlyReason = "no write access to /sys/fs/resctrl/schemata (EACCES): run as root";
    Fixture f(st);
    f.drag(1, { 2, 7 });
    QTest::keyClick(f.grid(), Qt::Key_Space);
    QVERIFY(f.kernel.writes.empty());
    QCOMPARE(f.model.mask(1), 0xfull);
    QVERIFY(f.heatmap.readOnlyText().contains(QStringLiteral("EACCES")));
    QVERIFY(f.heatmap.readOnlyText().contains(QStringLiteral("Monitoring still works")));
    // Becoming writable (e.g. a different source) enables editing and hides the banner.
    st.writable = true;
    f.model.setState(st);
    QVERIFY(f.heatmap.readOnlyText().isEmpty());
    f.drag(1, { 2, 7 });
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0xfcull);
}

void TestHeatmap::externalStateUpdatesDisplayedAllocation()
{
    // What a replay seek does: the recorded state replaces the displayed one (read-only while replaying).
    Fixture f(makeSkxState());
    AllocationState recorded = makeSkxState();
    recorded.groups[1].cbm["L3"][0] = 0x3;
    recorded.groups[2].cbm["L3"][0] = 0x7fc;
    recorded.writable = false;
    recorded.readOnlyReason = "replaying a recorded session";
    f.model.setState(recorded);
    QCOMPARE(f.model.mask(1), 0x3ull);
    QCOMPARE(f.model.index(2, 10).data(AllocationModel::CellStateRole).toInt(), int(AllocationModel::Overlapping));
    QVERIFY(f.heatmap.readOnlyText().contains(QStringLiteral("replaying")));
    const QImage img = f.grid()->grab().toImage();
    const HeatmapPalette colours(f.grid()->palette());
    QCOMPARE(img.pixelColor(f.grid()->cellRect(1, 1).center()), colours.overlapping);
    QCOMPARE(img.pixelColor(f.grid()->cellRect(1, 2).center()), colours.unused);
}

void TestHeatmap::paintsStateColoursAndSavesScreenshot()
{
    Fixture f(makeSkxState(false, false, 1, true));
    const QImage img = f.grid()->grab().toImage();
    const HeatmapPalette colours(f.grid()->palette());
    QCOMPARE(img.pixelColor(f.grid()->cellRect(2, 4).center()), colours.exclusive); // p1 exclusive
    QCOMPARE(img.pixelColor(f.grid()->cellRect(1, 0).center() + QPoint(0, -6)), colours.overlapping);
    QCOMPARE(img.pixelColor(f.grid()->cellRect(0, 8).center()), colours.allocated); // default alone
    QCOMPARE(img.pixelColor(f.grid()->cellRect(1, 6).center()), colours.unused);
    const QString dir = qEnvironmentVariable("RDTSCOPE_SCREENSHOT_DIR", QDir::tempPath());
    QVERIFY(f.heatmap.grab().save(dir + QStringLiteral("/heatmap.png")));
}

void TestHeatmap::invalidStagedRowIsRedWithReasonAndApplyDisabled()
{
    Fixture f(makeSkxState(false, true, 2)); // sparse masks allowed, at least 2 bits
    f.model.setApplyLive(false);
    QTest::mouseClick(f.grid(), Qt::LeftButton, Qt::ControlModifier, f.centre(2, 4)); // p1 0xf0 -> 0xe0: fine
    QTest::mouseClick(f.grid(), Qt::LeftButton, Qt::ControlModifier, f.centre(1, 1)); // p0 0xf -> 0xd: sparse, fine
    QTest::mouseClick(f.grid(), Qt::LeftButton, Qt::ControlModifier, f.centre(1, 2)); // -> 0x9: fine on sparse
    QTest::mouseClick(f.grid(), Qt::LeftButton, Qt::ControlModifier, f.centre(1, 3)); // -> 0x1: one bit, invalid
    QCOMPARE(f.model.mask(1), 0x1ull);
    QCOMPARE(f.model.rowError(1), QStringLiteral("Need at least 2 bits in the mask"));
    QVERIFY(!f.model.pendingValid());
    auto* apply = f.heatmap.findChild<QPushButton*>(QStringLiteral("apply"));
    QVERIFY(apply);
    QVERIFY(!apply->isEnabled());
    QVERIFY(!f.model.apply());
    QVERIFY(f.kernel.writes.empty());
    const QImage img = f.grid()->grab().toImage();
    const HeatmapPalette colours(f.grid()->palette());
    QCOMPARE(img.pixelColor(f.grid()->cellRect(1, 0).center() + QPoint(0, -6)), colours.invalid);
    const QString dir = qEnvironmentVariable("RDTSCOPE_SCREENSHOT_DIR", QDir::tempPath());
    QVERIFY(f.heatmap.grab().save(dir + QStringLiteral("/heatmap-invalid.png")));
    // Fix it and apply: both staged rows are written.
    QTest::mouseClick(f.grid(), Qt::LeftButton, Qt::ControlModifier, f.centre(1, 1));
    QVERIFY(f.model.pendingValid());
    QVERIFY(apply->isEnabled());
    QTest::mouseClick(apply, Qt::LeftButton);
    QCOMPARE(f.kernel.value("p0", "L3", 0), 0x3ull);
    QCOMPARE(f.kernel.value("p1", "L3", 0), 0xe0ull);
}

void TestHeatmap::cdpRowsAndDarkPalette()
{
    Fixture f(makeSkxState(true));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3a));
    f.heatmap.setPalette(dark);
    f.heatmap.resize(f.heatmap.sizeHint());
    QCOMPARE(f.model.rowCount(), 6);
    f.drag(3, { 2, 7 }); // p0 DATA only
    QCOMPARE(f.kernel.writes.back(), std::string("L3DATA:0=fc\n"));
    QCOMPARE(f.kernel.value("p0", "L3CODE", 0), 0xfull);
    const QImage img = f.grid()->grab().toImage();
    const HeatmapPalette colours(f.grid()->palette());
    QVERIFY(colours.unused.lightness() < 128);
    QCOMPARE(img.pixelColor(f.grid()->cellRect(3, 1).center()), colours.unused);
    const QString dir = qEnvironmentVariable("RDTSCOPE_SCREENSHOT_DIR", QDir::tempPath());
    QVERIFY(f.heatmap.grab().save(dir + QStringLiteral("/heatmap-cdp-dark.png")));
}

void TestHeatmap::legendWrapsInNarrowDocks()
{
    Fixture f(makeSkxState());
    HeatmapGrid* g = f.grid();
    // The heatmap (with its scroll area) in a narrow dock: the grid gets the viewport's width, and its height follows
    // that width (heightForWidth), including the wrapped legend lines.
    f.heatmap.resize(g->minimumSizeHint().width() + 24, 900);
    QApplication::processEvents();
    QVERIFY(g->width() < g->sizeHint().width());
    const QImage img = g->grab().toImage();
    // The first swatch of the second legend line starts under the first cell column again.
    const int lineH = g->fontMetrics().height();
    const int secondLine = g->cellRect(2, 0).bottom() + 10 + lineH + 4;
    const int x = g->cellRect(2, 10).left() + 3;
    bool swatch = false;
    const QColor base = g->palette().color(QPalette::Base);
    for (int y = secondLine; y < secondLine + lineH && y < img.height(); ++y)
        swatch |= img.pixelColor(x, y) != base;
    QVERIFY2(swatch, "no wrapped legend line");
}

void TestHeatmap::selectingCellsRequestsExplanations()
{
    AllocationState st = makeSkxState();
    st.writable = false; // selection works read-only too
    Fixture f(st);
    QSignalSpy explain(&f.heatmap, &CacheWayHeatmap::explainRequested);
    QTest::mouseClick(f.grid(), Qt::LeftButton, {}, f.centre(1, 10)); // bit 10 is in shareable_bits 0x600
    QCOMPARE(explain.last().at(0).toString(), QStringLiteral("shareable-bits"));
    QTest::mouseClick(f.grid(), Qt::LeftButton, {}, f.centre(0, 2)); // the default group
    QCOMPARE(explain.last().at(0).toString(), QStringLiteral("closid0"));
    f.grid()->setFocus();
    QTest::keyClick(f.grid(), Qt::Key_Down);
    QCOMPARE(explain.last().at(0).toString(), QStringLiteral("cat"));
    QVERIFY(f.kernel.writes.empty());
}

void TestHeatmap::unknownCacheSizeIsNotZero()
{
    // A replay of a session without a CPUID snapshot knows the CBM, not the cache's size: it said "0 B, ... 0 B
    // per bit".
    AllocationState st = makeSkxState();
    Fixture known(st);
    QVERIFY2(known.heatmap.cacheInfoText().startsWith(QStringLiteral("L3 domain 0: 24.75 MiB, 11-bit CBM, 2.25 MiB")),
        qPrintable(known.heatmap.cacheInfoText()));
    st.caches[0].cacheBytes = 0;
    Fixture unknown(st);
    QVERIFY2(
        unknown.heatmap.cacheInfoText().startsWith(QStringLiteral("L3 domain 0: 11-bit CBM (cache size not recorded)")),
        qPrintable(unknown.heatmap.cacheInfoText()));
    QVERIFY(!unknown.heatmap.cacheInfoText().contains(QStringLiteral("0 B")));
}

QTEST_MAIN(TestHeatmap)
#include "test_heatmap.moc"
