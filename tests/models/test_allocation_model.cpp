// SPDX-License-Identifier: GPL-3.0-or-later
// AllocationModel + AllocationEditCommand against the kernel-like fake backend (test_allocation_support.h).

#include "core/Text.h"
#include "models/AllocationModel.h"
#include "rdt/AllocationRules.h"
#include "test_allocation_support.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

class TestAllocationModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void passesModelTesterThroughEveryChange();
    void rowsFollowCdp();
    void cellStatesShowSharingAndHardwareBits();
    void exclusiveGroupCellsAreExclusive();
    void occupancyRoles();
    void pendingInvalidMaskIsRedWithKernelReasonAndNotWritten();
    void applyWritesReadsBackAndUndoWritesOldMask();
    void kernelRejectionRestoresRowAndShowsMessage();
    void multiEditRejectionRollsBackEarlierWrites();
    void stagedEditsWaitForApplyAndRevertDropsThem();
    void readOnlyStateRefusesEditsWithReason();
    void externalStateAndRecordedChangesUpdateDisplay();
    void stagedEditsAreJudgedByTheEngineValidator();
    void replaySeekShowsRecordedAllocation();
};

void TestAllocationModel::passesModelTesterThroughEveryChange()
{
    KernelLikeSchemata kernel;
    AllocationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    model.setWriter(&kernel);
    model.setState(st);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 11);
    model.setState(st); // same shape: dataChanged only
    model.setState(makeSkxState(true)); // CDP: reset with 6 rows
    QCOMPARE(model.rowCount(), 6);
    model.setDomain(1);
    model.setApplyLive(false);
    QVERIFY(model.setPendingMask(1, 0x3));
    model.setPreview(2, 0x30);
    model.clearPreview();
    model.revert();
    AllocationState small = makeSkxState();
    small.groups.pop_back();
    model.setState(small);
    QCOMPARE(model.rowCount(), 2);
    model.setState(AllocationState {});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 0);
}

void TestAllocationModel::rowsFollowCdp()
{
    AllocationModel model;
    model.setState(makeSkxState(true));
    QCOMPARE(model.cacheNames(), QStringList { QStringLiteral("L3") });
    QCOMPARE(model.rowLabel(2), QStringLiteral("p0 CODE"));
    QCOMPARE(model.rowLabel(3), QStringLiteral("p0 DATA"));
    QCOMPARE(model.index(3, 0).data(AllocationModel::SchemaRole).toString(), QStringLiteral("L3DATA"));
    QCOMPARE(model.rowFor(QStringLiteral("p1"), QStringLiteral("L3CODE")), 4);
    QCOMPARE(model.index(3, 0).data(AllocationModel::ClosidRole).toInt(), 1);
}

void TestAllocationModel::cellStatesShowSharingAndHardwareBits()
{
    AllocationModel model;
    model.setState(makeSkxState());
    auto state = [&](int row, int bit) { return model.index(row, bit).data(AllocationModel::CellStateRole).toInt(); };
    // default 0x7ff overlaps p0 (0x00f) and p1 (0x0f0); bits 8..10 are the default group's alone.
    QCOMPARE(state(0, 0), int(AllocationModel::Overlapping));
    QCOMPARE(state(0, 9), int(AllocationModel::Allocated));
    QCOMPARE(state(1, 3), int(AllocationModel::Overlapping));
    QCOMPARE(state(1, 4), int(AllocationModel::Unused));
    QCOMPARE(model.index(0, 9).data(AllocationModel::HardwareSharedRole).toBool(), true); // 0x600
    QCOMPARE(model.index(0, 8).data(AllocationModel::HardwareSharedRole).toBool(), false);
    QCOMPARE(model.index(1, 0).data(AllocationModel::MaskRole).toULongLong(), 0xfull);
    const QString tip = model.index(1, 2).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("0xf")) && tip.contains(QStringLiteral("9.00 MiB")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("also used by: default")), qPrintable(tip));
}

void TestAllocationModel::exclusiveGroupCellsAreExclusive()
{
    AllocationModel model;
    model.setState(makeSkxState(false, false, 1, true));
    QCOMPARE(model.index(2, 4).data(AllocationModel::CellStateRole).toInt(), int(AllocationModel::Exclusive));
    QCOMPARE(model.index(0, 4).data(AllocationModel::CellStateRole).toInt(), int(AllocationModel::Unused));
}

void TestAllocationModel::occupancyRoles()
{
    AllocationModel model;
    model.setState(makeSkxState());
    QCOMPARE(model.index(1, 0).data(AllocationModel::OccupancyBytesRole).toULongLong(), quint64(9) << 20);
    model.setDomain(1);
    QCOMPARE(model.index(1, 0).data(AllocationModel::OccupancyBytesRole).toULongLong(), quint64(10) << 20);
    model.setOccupancy({ { "p0", { { 1, 11ull * 2304 * 1024 / 2 } } } });
    QCOMPARE(model.index(1, 5).data(AllocationModel::OccupancyFractionRole).toDouble(), 0.5);
}

void TestAllocationModel::pendingInvalidMaskIsRedWithKernelReasonAndNotWritten()
{
    KernelLikeSchemata kernel;
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    AllocationModel model;
    model.setWriter(&kernel);
    model.setState(st);
    model.setApplyLive(true);
    QVERIFY(model.setPendingMask(1, 0x5)); // non-contiguous on a non-sparse cache
    QCOMPARE(kernel.writes.size(), std::size_t(0)); // invalid: never sent
    QCOMPARE(model.index(1, 0).data(AllocationModel::CellStateRole).toInt(), int(AllocationModel::Invalid));
    QCOMPARE(model.rowError(1), QStringLiteral("The mask 5 has non-consecutive 1-bits"));
    QVERIFY(!model.pendingValid());
    QVERIFY(!model.apply());
    QCOMPARE(kernel.value("p0", "L3", 0), 0xfull);
}

void TestAllocationModel::applyWritesReadsBackAndUndoWritesOldMask()
{
    KernelLikeSchemata kernel;
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    AllocationModel model;
    model.setWriter(&kernel);
    model.setState(st);
    QSignalSpy written(&model, &AllocationModel::allocationWritten);
    QVERIFY(model.setPendingMask(1, 0xfc)); // apply live (the default)
    QCOMPARE(kernel.writes.back(), std::string("L3:0=fc\n"));
    QCOMPARE(kernel.value("p0", "L3", 0), 0xfcull);
    QCOMPARE(kernel.value("p0", "L3", 1), 0xfull); // the other domain untouched
    QCOMPARE(model.liveMask(1), 0xfcull);
    QVERIFY(!model.hasPending(1));
    QCOMPARE(written.size(), 1);
    const auto ev = written.at(0).at(0).value<rdt::AllocationChanged>();
    QCOMPARE(ev.oldValue, std::string("f"));
    QCOMPARE(ev.newValue, std::string("fc"));
    QVERIFY(ev.ok);

    QCOMPARE(model.undoStack()->count(), 1);
    model.undoStack()->undo();
    QCOMPARE(kernel.writes.back(), std::string("L3:0=f\n"));
    QCOMPARE(kernel.value("p0", "L3", 0), 0xfull);
    QCOMPARE(model.liveMask(1), 0xfull);
    model.undoStack()->redo();
    QCOMPARE(kernel.value("p0", "L3", 0), 0xfcull);
    QCOMPARE(model.liveMask(1), 0xfcull);
}

void TestAllocationModel::kernelRejectionRestoresRowAndShowsMessage()
{
    KernelLikeSchemata kernel;
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    // The kernel knows p1 is exclusive but the displayed state does not (e.g. another tool changed the mode).
    kernel.groups["p1"].exclusive = true;
    AllocationModel model;
    model.setWriter(&kernel);
    model.setState(st);
    QSignalSpy rejected(&model, &AllocationModel::editRejected);
    QVERIFY(model.setPendingMask(1, 0x3f)); // overlaps p1's 0x0f0
    QCOMPARE(rejected.size(), 1);
    QCOMPARE(rejected.at(0).at(0).toInt(), 1);
    QCOMPARE(rejected.at(0).at(1).toString(), QStringLiteral("Overlaps with exclusive group"));
    QCOMPARE(model.mask(1), 0xfull); // restored
    QCOMPARE(kernel.value("p0", "L3", 0), 0xfull);
    QCOMPARE(model.index(1, 0).data(AllocationModel::RowErrorRole).toString(),
        QStringLiteral("Overlaps with exclusive group"));
    QCOMPARE(model.undoStack()->count(), 0); // nothing to undo: the edit never happened
    // A later good edit clears the reason.
    QVERIFY(model.setPendingMask(1, 0x7));
    QCOMPARE(model.rowError(1), QString());
}

void TestAllocationModel::multiEditRejectionRollsBackEarlierWrites()
{
    KernelLikeSchemata kernel;
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    AllocationModel model;
    model.setWriter(&kernel);
    model.setState(st);
    model.setApplyLive(false);
    QVERIFY(model.setPendingMask(1, 0x7)); // p0 (written first: "" < p0 < p1)
    QVERIFY(model.setPendingMask(2, 0x300)); // p1
    QCOMPARE(kernel.writes.size(), std::size_t(0));
    // The kernel (not the displayed state) needs 3 bits, so p0's write passes and p1's is refused.
    kernel.caches[0].minCbmBits = 3;
    QSignalSpy rejected(&model, &AllocationModel::editRejected);
    QVERIFY(!model.apply());
    const std::vector<std::string> expected { "L3:0=7\n", "L3:0=300\n", "L3:0=f\n" };
    QCOMPARE(kernel.writes, expected); // write, refused write, rollback of the first
    QCOMPARE(kernel.value("p0", "L3", 0), 0xfull);
    QCOMPARE(kernel.value("p1", "L3", 0), 0xf0ull);
    QCOMPARE(model.liveMask(1), 0xfull);
    QCOMPARE(model.liveMask(2), 0xf0ull);
    QCOMPARE(rejected.size(), 1);
    QCOMPARE(rejected.at(0).at(0).toInt(), 2);
    QCOMPARE(model.rowError(2), QStringLiteral("Need at least 3 bits in the mask"));
    QCOMPARE(model.rowError(1), QString());
    QCOMPARE(model.undoStack()->count(), 0);
}

void TestAllocationModel::stagedEditsWaitForApplyAndRevertDropsThem()
{
    KernelLikeSchemata kernel;
    AllocationState st = makeSkxState();
    loadInto(kernel, st);
    AllocationModel model;
    model.setWriter(&kernel);
    model.setState(st);
    model.setApplyLive(false);
    QVERIFY(model.setPendingMask(1, 0x1f));
    QVERIFY(model.hasPending(1));
    QCOMPARE(model.mask(1), 0x1full);
    QCOMPARE(model.liveMask(1), 0xfull);
    QCOMPARE(kernel.writes.size(), std::size_t(0));
    model.revert();
    QCOMPARE(model.mask(1), 0xfull);
    QVERIFY(model.setPendingMask(1, 0x1f));
    QVERIFY(model.apply());
    QCOMPARE(kernel.value("p0", "L3", 0), 0x1full);
    QCOMPARE(model.undoStack()->count(), 1);
}

void TestAllocationModel::readOnlyStateRefusesEditsWithReason()
{
    KernelLikeSchemata kernel;
    AllocationState st = makeSkxState();
    st.writable = false;
    st.readOnlyReason = "no write access to /sys/fs/resctrl (EACCES): run as root";
    loadInto(kernel, st);
    AllocationModel model;
    model.setWriter(&kernel);
    QSignalSpy editable(&model, &AllocationModel::editableChanged);
    model.setState(st);
    QVERIFY(!model.isEditable());
    QCOMPARE(model.readOnlyReason(), QStringLiteral("no write access to /sys/fs/resctrl (EACCES): run as root"));
    QVERIFY(!editable.isEmpty());
    QCOMPARE(editable.last().at(0).toBool(), false);
    QVERIFY(!model.setPendingMask(1, 0x3));
    QCOMPARE(kernel.writes.size(), std::size_t(0));
    AllocationModel noWriter;
    noWriter.setState(makeSkxState());
    QVERIFY(!noWriter.isEditable());
    QVERIFY(!noWriter.readOnlyReason().isEmpty());
}

void TestAllocationModel::externalStateAndRecordedChangesUpdateDisplay()
{
    AllocationModel model;
    model.setState(makeSkxState());
    rdt::AllocationChanged c;
    c.group = "p1";
    c.resource = "L3";
    c.domain = 0;
    c.newValue = "c0";
    c.ok = true;
    model.applyChange(c);
    QCOMPARE(model.mask(2), 0xc0ull);
    c.newValue = "3";
    c.ok = false; // refused changes are history, not state
    model.applyChange(c);
    QCOMPARE(model.mask(2), 0xc0ull);
    AllocationState rec = makeSkxState();
    rec.groups[1].cbm["L3"][0] = 0x600;
    model.setState(rec);
    QCOMPARE(model.mask(1), 0x600ull);
    // A state read from schemata has no occupancy: the last figures stay until the next frame brings new ones.
    model.setOccupancy({ { "p0", { { 0, 12345 } } } });
    AllocationState fromSchemata = makeSkxState();
    for (auto& g : fromSchemata.groups)
        g.occupancyBytes.clear();
    model.setState(fromSchemata);
    QCOMPARE(model.index(1, 0).data(AllocationModel::OccupancyBytesRole).toULongLong(), 12345ull);
}

void TestAllocationModel::stagedEditsAreJudgedByTheEngineValidator()
{
    // The model has no rules of its own: a staged mask is red with exactly the reason the engine's validator
    // (rdt::validateAllocation, run by AllocationEngine before writing) gives for the same change.
    const AllocationState st = makeSkxState(false, false, 2, true); // p1 exclusive, min_cbm_bits 2
    KernelLikeSchemata kernel;
    loadInto(kernel, st);
    AllocationModel model;
    model.setWriter(&kernel);
    model.setState(st);
    model.setApplyLive(false);
    rdt::Capabilities caps;
    caps.resources.push_back(st.caches[0].rules(st.domains));
    const struct {
        int row;
        std::uint64_t mask;
        const char* reason; ///< "" = valid
    } cases[] = {
        { 1, 0x0, "Mask out of range" },
        { 1, 0x800, "Mask out of range" },
        { 1, 0x9, "The mask 9 has non-consecutive 1-bits" },
        { 1, 0x8, "Need at least 2 bits in the mask" },
        { 1, 0x18, "Overlaps with exclusive group 'p1' (L3 f0)" },
        { 2, 0x7f0, "Overlaps with hardware-shared bits 600" }, // the GUI used to accept this one
        { 2, 0x1f0, "Overlaps with other group 'default' (L3 70f)" },
        { 1, 0x7, "" },
    };
    for (const auto& c : cases) {
        QVERIFY(model.setPendingMask(c.row, c.mask));
        const GroupAllocation& self = st.groups[std::size_t(c.row)];
        std::vector<rdt::PeerGroup> peers;
        for (const auto& g : st.groups) {
            if (g.group == self.group) continue;
            rdt::PeerGroup p { g.group, g.exclusive, {} };
            p.schemata.set("L3", 0, rdt::hexDigits(g.cbm.at("L3").at(0)));
            peers.push_back(p);
        }
        rdt::Schemata change;
        change.set("L3", 0, rdt::hexDigits(c.mask));
        const auto verdict = rdt::validateAllocation(caps, self.group, self.exclusive, peers, change);
        QCOMPARE(model.rowError(c.row), QString::fromStdString(verdict.ok ? std::string() : verdict.problem.reason));
        QCOMPARE(model.rowError(c.row), QString::fromLatin1(c.reason));
        model.revert();
    }
}

void TestAllocationModel::replaySeekShowsRecordedAllocation()
{
    const AllocationState start = makeSkxState();
    std::vector<rdt::AllocationChanged> rec;
    auto change = [&](std::uint64_t t, const char* g, const char* r, const char* v, bool ok) {
        rdt::AllocationChanged c;
        c.timeNs = t;
        c.who = "gui";
        c.group = g;
        c.resource = r;
        c.domain = 0;
        c.newValue = v;
        c.ok = ok;
        rec.push_back(c);
    };
    change(1'000, "p0", "L3", "3", true);
    change(2'000, "p1", "L3", "f00", false); // refused: not part of the state
    change(3'000, "p0", "MB", "30", true);
    change(4'000, "p0", "L3", "fc", true);
    AllocationModel model;
    // Seek to t = 3.5 us: the first and third changes only.
    AllocationState at = start;
    QCOMPARE(replayAllocation(at, rec, 3'500), 2);
    model.setState(at);
    QCOMPARE(model.mask(1), 0x3ull);
    QCOMPARE(model.mask(2), 0xf0ull);
    QCOMPARE(model.state().groups[1].bandwidth.at("MB").at(0), 30u);
    // Seek forward past the last change, then back to the start.
    at = start;
    replayAllocation(at, rec, 10'000);
    model.setState(at);
    QCOMPARE(model.mask(1), 0xfcull);
    at = start;
    QCOMPARE(replayAllocation(at, rec, 0), 0);
    model.setState(at);
    QCOMPARE(model.mask(1), 0xfull);
}

QTEST_GUILESS_MAIN(TestAllocationModel)
#include "test_allocation_model.moc"
