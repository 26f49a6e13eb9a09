// SPDX-License-Identifier: GPL-3.0-or-later
// BandwidthSchema snapping and AllocationBandwidthModel writes against the kernel-like fake.

#include "models/AllocationBandwidthModel.h"
#include "test_allocation_support.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

class TestAllocationBandwidth : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void linearRoundsUpLikeTheKernel();
    void powerOfTwoRoundsDown();
    void stepsWalkTheAllowedValues();
    void passesModelTester();
    void editWritesEffectiveValueAndUndoes();
    void rejectionKeepsValueAndShowsReason();
    void readOnlyIsNotEditable();
};

void TestAllocationBandwidth::linearRoundsUpLikeTheKernel()
{
    BandwidthSchema mb; // MB 10..100, gran 10, round up (kernel bw_validate)
    QCOMPARE(mb.effectiveValue(25), 30u);
    QCOMPARE(mb.effectiveValue(30), 30u);
    QCOMPARE(mb.effectiveValue(91), 100u);
    QCOMPARE(mb.effectiveValue(3), 10u); // clamped to min_bandwidth
    QCOMPARE(mb.effectiveValue(250), 100u);
    mb.granularity = 20; // a gran that does not divide the max: never exceed it
    mb.minValue = 20;
    QCOMPARE(mb.effectiveValue(95), 100u / 20 * 20);
    BandwidthSchema down;
    down.rounding = BandwidthSchema::Rounding::Down; // MSR linear delay: rounded down (SDM 20.19.7.2)
    down.minValue = 0;
    down.maxValue = 90;
    QCOMPARE(down.effectiveValue(12), 10u);
}

void TestAllocationBandwidth::powerOfTwoRoundsDown()
{
    BandwidthSchema p;
    p.name = "CBA";
    p.unit = "level";
    p.minValue = 0;
    p.maxValue = 64;
    p.scale = BandwidthSchema::Scale::PowerOfTwo;
    p.rounding = BandwidthSchema::Rounding::Down;
    QCOMPARE(p.effectiveValue(0), 0u);
    QCOMPARE(p.effectiveValue(1), 1u);
    QCOMPARE(p.effectiveValue(3), 2u);
    QCOMPARE(p.effectiveValue(40), 32u);
    QCOMPARE(p.effectiveValue(100), 64u);
    QCOMPARE(p.stepUp(2), 4u);
    QCOMPARE(p.stepDown(32), 16u);
    QCOMPARE(p.stepDown(1), 0u);
}

void TestAllocationBandwidth::stepsWalkTheAllowedValues()
{
    BandwidthSchema mb;
    QCOMPARE(mb.stepUp(10), 20u);
    QCOMPARE(mb.stepUp(25), 40u); // 25 is applied as 30, one step up is 40
    QCOMPARE(mb.stepUp(100), 100u);
    QCOMPARE(mb.stepDown(30), 20u);
    QCOMPARE(mb.stepDown(10), 10u);
}

void TestAllocationBandwidth::passesModelTester()
{
    KernelLikeSchemata kernel;
    AllocationModel source;
    AllocationBandwidthModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSourceModel(&source);
    QCOMPARE(model.rowCount(), 0);
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    source.setWriter(&kernel);
    source.setState(st);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 2);
    QVERIFY(model.setData(model.index(1, 1), 40));
    source.setState(st); // same shape
    AllocationState fewer = st;
    fewer.groups.pop_back();
    source.setState(fewer);
    QCOMPARE(model.rowCount(), 2);
    AllocationState none = st;
    none.bandwidths.clear();
    source.setState(none);
    QCOMPARE(model.rowCount(), 0);
    model.setSourceModel(nullptr);
}

void TestAllocationBandwidth::editWritesEffectiveValueAndUndoes()
{
    KernelLikeSchemata kernel;
    AllocationModel source;
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    source.setWriter(&kernel);
    source.setState(st);
    AllocationBandwidthModel model;
    model.setSourceModel(&source);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(model.setData(model.index(1, 0), 25)); // p0, domain 0
    QCOMPARE(kernel.writes.back(), std::string("MB:0=30\n")); // snapped before writing
    QCOMPARE(kernel.value("p0", "MB", 0), 30u);
    QCOMPARE(kernel.value("p0", "MB", 1), 100u);
    QCOMPARE(model.index(1, 0).data(Qt::EditRole).toUInt(), 30u);
    QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("30 %"));
    QVERIFY(!changed.isEmpty());
    source.undoStack()->undo(); // one history with the heatmap
    QCOMPARE(kernel.writes.back(), std::string("MB:0=100\n"));
    QCOMPARE(model.index(1, 0).data(Qt::EditRole).toUInt(), 100u);
}

void TestAllocationBandwidth::rejectionKeepsValueAndShowsReason()
{
    KernelLikeSchemata kernel;
    AllocationModel source;
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    source.setWriter(&kernel);
    source.setState(st);
    AllocationBandwidthModel model;
    model.setSourceModel(&source);
    kernel.forceRejections = 1;
    kernel.forcedMessage = "No support for non-linear MB domains";
    QVERIFY(!model.setData(model.index(2, 1), 50));
    QCOMPARE(model.index(2, 1).data(Qt::EditRole).toUInt(), 100u);
    QCOMPARE(model.index(2, 1).data(AllocationBandwidthModel::RowErrorRole).toString(),
        QStringLiteral("No support for non-linear MB domains"));
    QVERIFY(model.index(2, 1).data().toString().contains(QStringLiteral("non-linear")));
    QCOMPARE(source.undoStack()->count(), 0);
}

void TestAllocationBandwidth::readOnlyIsNotEditable()
{
    KernelLikeSchemata kernel;
    AllocationModel source;
    AllocationState st = makeSkxState();
    st.writable = false;
    st.readOnlyReason = "replaying a recorded session";
    loadInto(kernel, st);
    source.setWriter(&kernel);
    source.setState(st);
    AllocationBandwidthModel model;
    model.setSourceModel(&source);
    QVERIFY(!(model.flags(model.index(1, 0)) & Qt::ItemIsEditable));
    QVERIFY(!model.setData(model.index(1, 0), 50));
    QVERIFY(kernel.writes.empty());
}

QTEST_GUILESS_MAIN(TestAllocationBandwidth)
#include "test_allocation_bandwidth.moc"
