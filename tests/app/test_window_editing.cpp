// SPDX-License-Identifier: GPL-3.0-or-later
// Editing that cannot surprise (issue 16 item 2), on the main window opened on a copy of the `full` resctrl fixture
// tree (4 L3 domains, 20-bit CBM, MB with bandwidth_gran 10) through the real source factory and rdt engine: a
// click does not write, a drag stages until Apply (Apply live is off on real hardware), a drag with Apply live on
// writes once, MB 55 writes 60 and says so, Ctrl+Z from the MB table undoes.

#include "AppOptions.h"
#include "FixtureTree.h"
#include "MainWindow.h"
#include "SourceFactory.h"

#include "models/AllocationModel.h"
#include "views/CacheWayHeatmap.h"
#include "views/HeatmapGrid.h"
#include "views/MbaEditor.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

namespace {
QByteArray schemata(const QString& root, const QString& group = {})
{
    QFile f(root + (group.isEmpty() ? QString() : QLatin1Char('/') + group) + QStringLiteral("/schemata"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
}

struct FullTreeWindow {
    QTemporaryDir dir;
    QString root;
    MainWindow window;

    FullTreeWindow()
    {
        root = dir.path() + QStringLiteral("/resctrl");
        if (!copyFixtureTree(QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full"), root)) qFatal("copy failed");
        AppOptions o;
        o.source = QStringLiteral("resctrl:") + root;
        auto source = openSource(o);
        if (!source) qFatal("open: %s", source.error().toString().c_str());
        window.setSource(std::move(source.value()));
        window.showView(QStringLiteral("rdt"));
        window.resize(1600, 1000);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window)) qFatal("not exposed");
    }
    AllocationModel* model() { return window.allocationModel(); }
    HeatmapGrid* grid() { return window.heatmap()->grid(); }
    int row(const char* group) { return model()->rowFor(QString::fromLatin1(group), QStringLiteral("L3")); }
    void drag(int row, int from, int to)
    {
        QTest::mousePress(grid(), Qt::LeftButton, {}, grid()->cellRect(row, from).center());
        QTest::mouseMove(grid(), grid()->cellRect(row, (from + to) / 2).center());
        QTest::mouseMove(grid(), grid()->cellRect(row, to).center());
        QTest::mouseRelease(grid(), Qt::LeftButton, {}, grid()->cellRect(row, to).center());
    }
};
} // namespace

class TestWindowEditing : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void clickSelectsDragStagesApplyWrites()
    {
        FullTreeWindow f;
        QVERIFY(f.model()->isEditable());
        QVERIFY2(!f.model()->applyLive(), "Apply live must default to off on a real resctrl tree");
        const int row = f.row("Guaranteed");
        QVERIFY(row >= 0);
        const QByteArray before = schemata(f.root, QStringLiteral("Guaranteed"));
        QTest::mouseClick(f.grid(), Qt::LeftButton, {}, f.grid()->cellRect(row, 3).center());
        QCOMPARE(schemata(f.root, QStringLiteral("Guaranteed")), before);
        QVERIFY(!f.model()->hasPendingEdits());
        QCOMPARE(f.grid()->cursorRow(), row);
        // A drag stages: shown, not written.
        f.drag(row, 0, 7);
        QVERIFY(f.model()->hasPendingEdits());
        QCOMPARE(f.model()->mask(row), 0xffull);
        QCOMPARE(schemata(f.root, QStringLiteral("Guaranteed")), before);
        QVERIFY(f.model()->apply());
        QVERIFY2(schemata(f.root, QStringLiteral("Guaranteed")).contains("L3:0=ff"),
            schemata(f.root, QStringLiteral("Guaranteed")).constData());
        QCOMPARE(f.window.undoStack()->count(), 1);
    }

    void dragWithApplyLiveWritesOnce()
    {
        FullTreeWindow f;
        f.model()->setApplyLive(true);
        const int row = f.row("Guaranteed");
        f.drag(row, 4, 11);
        QVERIFY2(schemata(f.root, QStringLiteral("Guaranteed")).contains("L3:0=ff0"),
            schemata(f.root, QStringLiteral("Guaranteed")).constData());
        QCOMPARE(f.window.undoStack()->count(), 1); // one write, one history entry
        QVERIFY(!f.model()->hasPendingEdits());
    }

    void mbValueIsRoundedThenCtrlZFromTheTableUndoes()
    {
        FullTreeWindow f;
        MbaEditor* mba = f.window.mbaEditor();
        QTableView* table = mba->view();
        int row = -1;
        for (int r = 0; r < mba->bandwidthModel()->rowCount(); ++r)
            if (mba->bandwidthModel()->index(r, 0).data(AllocationBandwidthModel::GroupRole) == "Guaranteed") row = r;
        QVERIFY(row >= 0);
        const QModelIndex idx = mba->bandwidthModel()->index(row, 0);
        QCOMPARE(idx.data(AllocationBandwidthModel::ValueRole).toUInt(), 100u);
        table->setFocus();
        table->setCurrentIndex(idx);
        QTest::keyClicks(table, QStringLiteral("5"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("5"));
        auto* cell = table->findChild<BandwidthValueEditor*>();
        QVERIFY(cell);
        // The periodic re-read of the tree (twice a second) must not reset what is being typed.
        QTest::qWait(1200);
        QCOMPARE(cell->requested(), 55u);
        QVERIFY2(cell->effectiveText().contains(QStringLiteral("60 %")), qPrintable(cell->effectiveText()));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY2(schemata(f.root, QStringLiteral("Guaranteed")).contains("MB:0=60"),
            schemata(f.root, QStringLiteral("Guaranteed")).constData());
        QVERIFY2(mba->noteText().contains(QStringLiteral("60 %")), qPrintable(mba->noteText()));
        QCOMPARE(idx.data(AllocationBandwidthModel::ValueRole).toUInt(), 60u);
        // Ctrl+Z with the MB table focused (not the heatmap) undoes through the window's Edit menu.
        QTRY_VERIFY(!table->findChild<BandwidthValueEditor*>());
        table->setFocus();
        QVERIFY(table->hasFocus() || QApplication::focusWidget() == table);
        QTest::keyClick(table, Qt::Key_Z, Qt::ControlModifier);
        QTRY_VERIFY2(schemata(f.root, QStringLiteral("Guaranteed")).contains("MB:0=100"),
            schemata(f.root, QStringLiteral("Guaranteed")).constData());
        QCOMPARE(f.window.undoStack()->index(), 0);
        QTest::keyClick(table, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier); // and redo
        QTRY_VERIFY(schemata(f.root, QStringLiteral("Guaranteed")).contains("MB:0=60"));
    }
};

QTEST_MAIN(TestWindowEditing)
#include "test_window_editing.moc"
