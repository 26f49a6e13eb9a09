// SPDX-License-Identifier: GPL-3.0-or-later
// MbaEditor: the cell editor shows the effective value after rounding and writes the snapped value.

#include "engine/CaptureService.h"
#include "models/AllocationBandwidthModel.h"
#include "models/AllocationModel.h"
#include "models/EngineAllocation.h"
#include "test_allocation_support.h"
#include "views/MbaEditor.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

class TestHeatmapMba : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void editorShowsEffectiveValueAndWritesIt();
    void editorStepsBySnappedValues();
    void typedValueIsRoundedBeforeWritingAndSaysSo();
    void readOnlyShowsReasonAndBlocksEditing();
    void selectingCellsRequestsExplanation();
    void amdValuesAreGigabytesPerSecond();
    void cbaValuesAreThrottleLevels();
};

void TestHeatmapMba::editorShowsEffectiveValueAndWritesIt()
{
    KernelLikeSchemata kernel;
    AllocationModel source;
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    source.setWriter(&kernel);
    source.setState(st);
    MbaEditor editor;
    editor.setModel(&source);
    editor.resize(520, 260);
    editor.show();
    QVERIFY(editor.rulesText().contains(QStringLiteral("rounded up")));
    const QModelIndex idx = editor.bandwidthModel()->index(1, 0);
    editor.view()->setCurrentIndex(idx);
    editor.view()->edit(idx);
    auto* cell = editor.view()->findChild<BandwidthValueEditor*>();
    QVERIFY(cell);
    auto* spin = cell->findChild<QSpinBox*>(QStringLiteral("value"));
    QVERIFY(spin);
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("25"));
    QCOMPARE(cell->requested(), 25u);
    QVERIFY2(cell->effectiveText().contains(QStringLiteral("30 %")), qPrintable(cell->effectiveText()));
    QTest::keyClick(spin, Qt::Key_Return); // commit (the delegate commits through a queued call)
    QTRY_COMPARE(kernel.value("p0", "MB", 0), 30u);
    QCOMPARE(kernel.writes.back(), std::string("MB:0=30\n"));
    QCOMPARE(idx.data().toString(), QStringLiteral("30 %"));
    const QString dir = qEnvironmentVariable("RDTSCOPE_SCREENSHOT_DIR", QDir::tempPath());
    QVERIFY(editor.grab().save(dir + QStringLiteral("/mba-editor.png")));
}

void TestHeatmapMba::editorStepsBySnappedValues()
{
    BandwidthSchema mb;
    BandwidthValueEditor e(mb);
    e.setValue(30);
    auto* spin = e.findChild<QSpinBox*>(QStringLiteral("value"));
    spin->stepBy(1);
    QCOMPARE(e.requested(), 40u);
    spin->stepBy(-3);
    QCOMPARE(e.requested(), 10u);
    QCOMPARE(e.effectiveText(), QString()); // an allowed value: nothing to explain
}

void TestHeatmapMba::typedValueIsRoundedBeforeWritingAndSaysSo()
{
    // As a user does it: select a cell, type 55 (the first key opens the editor), press Enter.
    KernelLikeSchemata kernel;
    AllocationModel source;
    AllocationState st = makeSkxState(); // MB: 10..100, bandwidth_gran 10
    loadInto(kernel, st);
    source.setWriter(&kernel);
    source.setState(st);
    MbaEditor editor;
    editor.setModel(&source);
    editor.resize(520, 260);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    const QModelIndex idx = editor.bandwidthModel()->index(1, 0);
    editor.view()->setFocus();
    editor.view()->setCurrentIndex(idx);
    QTest::keyClicks(editor.view(), QStringLiteral("5"));
    auto* cell = editor.view()->findChild<BandwidthValueEditor*>();
    QVERIFY(cell);
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("5"));
    QCOMPARE(cell->requested(), 55u);
    // The window re-reads the schemata twice a second while the user types: the open editor keeps what was typed.
    source.setState(source.state());
    source.setState(source.state());
    QCOMPARE(cell->requested(), 55u);
    // The rounded value is on screen before anything is written.
    QVERIFY2(cell->effectiveText().contains(QStringLiteral("60 %")), qPrintable(cell->effectiveText()));
    QVERIFY(kernel.writes.empty());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_COMPARE(kernel.value("p0", "MB", 0), 60u);
    QCOMPARE(kernel.writes.size(), std::size_t(1));
    QCOMPARE(kernel.writes.back(), std::string("MB:0=60\n"));
    QCOMPARE(idx.data().toString(), QStringLiteral("60 %"));
    QVERIFY2(editor.noteText().contains(QStringLiteral("55 %")) && editor.noteText().contains(QStringLiteral("60 %")),
        qPrintable(editor.noteText()));
}

void TestHeatmapMba::readOnlyShowsReasonAndBlocksEditing()
{
    KernelLikeSchemata kernel;
    AllocationModel source;
    AllocationState st = makeSkxState();
    st.writable = false;
    st.readOnlyReason = "no write access to /sys/fs/resctrl/schemata (Permission denied)";
    loadInto(kernel, st);
    source.setWriter(&kernel);
    source.setState(st);
    MbaEditor editor;
    editor.setModel(&source);
    editor.show();
    QVERIFY(editor.readOnlyText().contains(QStringLiteral("Permission denied")));
    QCOMPARE(editor.view()->editTriggers(), QAbstractItemView::NoEditTriggers);
    editor.view()->edit(editor.bandwidthModel()->index(1, 0));
    QVERIFY(!editor.view()->findChild<BandwidthValueEditor*>());
    QVERIFY(kernel.writes.empty());
}

void TestHeatmapMba::selectingCellsRequestsExplanation()
{
    AllocationModel source;
    source.setState(makeSkxState());
    MbaEditor editor;
    editor.setModel(&source);
    QSignalSpy explain(&editor, &MbaEditor::explainRequested);
    editor.view()->setCurrentIndex(editor.bandwidthModel()->index(2, 1));
    QCOMPARE(explain.size(), 1);
    QCOMPARE(explain.at(0).at(0).toString(), QStringLiteral("mba"));
}

// AMD MBA (resctrl.rst "on AMD systems"): 1/8 GB/s steps, 2048 = unlimited; the editor never says percent.
void TestHeatmapMba::amdValuesAreGigabytesPerSecond()
{
    KernelLikeSchemata kernel;
    AllocationModel source;
    AllocationState st = makeSkxState();
    BandwidthSchema amd;
    amd.unit = "GB/s";
    amd.minValue = 0;
    amd.maxValue = 2048;
    amd.granularity = 1;
    st.bandwidths = { amd };
    for (auto& g : st.groups)
        for (int d : st.domains)
            g.bandwidth["MB"][d] = g.group == "p0" && d == 1 ? 16 : 2048;
    loadInto(kernel, st);
    source.setWriter(&kernel);
    source.setState(st);
    MbaEditor editor;
    editor.setModel(&source);
    editor.resize(520, 260);
    editor.show();
    QVERIFY2(editor.rulesText().contains(QStringLiteral("1/8 GB/s")), qPrintable(editor.rulesText()));
    QVERIFY(editor.rulesText().contains(QStringLiteral("not a percentage")));
    QVERIFY(editor.rulesText().contains(QStringLiteral("unlimited")));
    QCOMPARE(editor.bandwidthModel()->index(1, 1).data().toString(), QStringLiteral("2 GB/s"));
    QCOMPARE(editor.bandwidthModel()->index(1, 0).data().toString(), QStringLiteral("unlimited"));
    const QModelIndex idx = editor.bandwidthModel()->index(1, 0);
    editor.view()->setCurrentIndex(idx);
    editor.view()->edit(idx);
    auto* cell = editor.view()->findChild<BandwidthValueEditor*>();
    QVERIFY(cell);
    auto* spin = cell->findChild<QSpinBox*>(QStringLiteral("value"));
    QVERIFY(spin);
    QVERIFY(!spin->suffix().contains(QLatin1Char('%')));
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("20"));
    QVERIFY2(cell->effectiveText().contains(QStringLiteral("2.5 GB/s")), qPrintable(cell->effectiveText()));
    QTest::keyClick(spin, Qt::Key_Return);
    QTRY_COMPARE(kernel.value("p0", "MB", 0), 20u);
    QCOMPARE(kernel.writes.back(), std::string("MB:0=20\n"));
    QCOMPARE(idx.data().toString(), QStringLiteral("2.5 GB/s"));
}

QTEST_MAIN(TestHeatmapMba)
#include "test_heatmap_mba.moc"

void TestHeatmapMba::cbaValuesAreThrottleLevels()
{
    // CBA through the MSRs (the simulated Skylake with `override cba=9`, --source sim-msr): throttle levels 0..9,
    // 0 unthrottled. The editor said "CBA: 0 %..100 % ... caps do not add up to 100 %" with every value "0 %".
    QTemporaryDir dir;
    const std::string scenario = dir.filePath(QStringLiteral("cba.scn")).toStdString();
    std::ofstream(scenario) << "name cba\nmachine preset=skx-6154 cores=4\nduration 10s\noverride cba=9\n"
                               "mkdir batch\nthread t0 group=batch cpu=0 pattern=stream ws=1G\n";
    rdt::engine::ServiceOptions o;
    o.rdt.spec = "sim-msr";
    o.rdt.scenario = scenario;
    o.who = "gui";
    auto service = rdt::engine::CaptureService::open(o);
    QVERIFY2(service.ok(), service.ok() ? "" : service.error().toString().c_str());
    auto st = readAllocationState(**service, { true, true, {} });
    QVERIFY2(st.ok(), st.ok() ? "" : st.error().toString().c_str());
    const BandwidthSchema* cba = st->bandwidthSchema("CBA");
    QVERIFY(cba);
    QCOMPARE(cba->unit, std::string("level"));
    QCOMPARE(cba->minValue, 0u);
    QCOMPARE(cba->maxValue, 9u);
    QVERIFY(cba->higherThrottles);
    EngineAllocationWriter writer(**service);
    AllocationModel source;
    source.setWriter(&writer);
    source.setState(*st);
    MbaEditor editor;
    editor.setModel(&source);
    editor.bandwidthModel()->setSchema(QStringLiteral("CBA"));
    QVERIFY2(editor.rulesText().startsWith(QStringLiteral("CBA: level 0..level 9. Level 0 is unthrottled")),
        qPrintable(editor.rulesText()));
    QVERIFY(!editor.rulesText().contains(QLatin1Char('%')));
    QCOMPARE(editor.bandwidthModel()->index(0, 0).data().toString(), QStringLiteral("level 0"));
    QVERIFY(editor.bandwidthModel()->setData(editor.bandwidthModel()->index(1, 0), 3u, Qt::EditRole));
    QCOMPARE(editor.bandwidthModel()->index(1, 0).data().toString(), QStringLiteral("level 3"));
}
