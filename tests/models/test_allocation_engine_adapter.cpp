// SPDX-License-Identifier: GPL-3.0-or-later
// The engine adapter: AllocationModel edits through EngineAllocationWriter -> AllocationEngine -> ResctrlBackend
// over a copied resctrl fixture tree (PosixFs), with kernel rejections injected by rdt's FaultyFs.

#include "../rdt/TestTree.h"
#include "engine/CaptureService.h"
#include "models/AllocationModel.h"
#include "models/EngineAllocation.h"
#include "platform/CpuidDump.h"
#include "rdt/ResctrlBackend.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using rdt::test::FaultyFs;
using rdt::test::TempTree;

class TestAllocationEngineAdapter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsStateFromBackend();
    void editWritesSchemataAndUndoRestoresIt();
    void kernelRejectionRestoresRowWithKernelText();
    void engineValidationReasonIsTheKernelWording();
    void occupancyFromSamples();
    void waysFromCpuid();
    void waysFromCpuidDumpAndItsSnapshot();
};

namespace {
struct Setup {
    TempTree tree { "resctrl.full" };
    std::shared_ptr<FaultyFs> fs = std::make_shared<FaultyFs>(std::make_shared<rdt::PosixFs>(tree.root()));
    rdt::RdtBackend* backend = nullptr; ///< owned by the service
    std::unique_ptr<rdt::engine::CaptureService> service;
    std::unique_ptr<EngineAllocationWriter> writer;
    AllocationModel model;

    Setup()
    {
        auto b = rdt::ResctrlBackend::open(fs);
        if (!b) qFatal("cannot open fixture: %s", b.error().toString().c_str());
        backend = b->get();
        rdt::RdtSource source;
        source.kind = "resctrl";
        source.backend = std::move(*b);
        rdt::engine::ServiceOptions options;
        options.who = "gui";
        auto opened = rdt::engine::CaptureService::openWith(std::move(source), options);
        if (!opened) qFatal("cannot open the service: %s", opened.error().toString().c_str());
        service = std::move(*opened);
        writer = std::make_unique<EngineAllocationWriter>(*service);
        auto st = readAllocationState(*service, { false, true, {} });
        if (!st) qFatal("cannot read state: %s", st.error().toString().c_str());
        model.setWriter(writer.get());
        model.setState(*st);
    }
    /// The AllocationChanged events the service published since the last call.
    std::vector<rdt::AllocationChanged> changes()
    {
        std::vector<rdt::AllocationChanged> out;
        for (auto& e : service->drainEvents())
            if (auto* c = std::get_if<rdt::AllocationChanged>(&e)) out.push_back(*c);
        return out;
    }
};
} // namespace

void TestAllocationEngineAdapter::readsStateFromBackend()
{
    Setup s;
    QAbstractItemModelTester tester(&s.model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const AllocationState& st = s.model.state();
    QCOMPARE(st.caches.size(), std::size_t(1));
    QCOMPARE(st.caches[0].name, std::string("L3"));
    QCOMPARE(st.caches[0].cbmLength, 20);
    QCOMPARE(st.caches[0].shareableBits, std::uint64_t(0xc0000));
    // Way counts are the engine's (engine/AllocationLayoutOf.h, test_engine's AllocationLayout tests): a count
    // always names the CPUID leaf it came from.
    QCOMPARE(st.caches[0].ways > 0, !st.caches[0].waysLeaf.empty());
    QCOMPARE(st.bandwidths.size(), std::size_t(1));
    QCOMPARE(st.bandwidths[0].granularity, 10u);
    QCOMPARE(st.domains, (std::vector<int> { 0, 1, 2, 3 }));
    QVERIFY(st.groups.size() >= 2);
    QCOMPARE(st.groups.front().group, std::string()); // default group first
    QCOMPARE(s.model.rowCount(), int(st.groups.size()));
    QCOMPARE(s.model.columnCount(), 20);
    QCOMPARE(s.model.mask(s.model.rowFor(QStringLiteral("Guaranteed"), QStringLiteral("L3"))), 0xfffffull);
}

void TestAllocationEngineAdapter::editWritesSchemataAndUndoRestoresIt()
{
    Setup s;
    const int row = s.model.rowFor(QStringLiteral("Guaranteed"), QStringLiteral("L3"));
    QVERIFY(row > 0);
    QSignalSpy written(&s.model, &AllocationModel::allocationWritten);
    QVERIFY(s.model.setPendingMask(row, 0xfc));
    auto back = s.backend->readSchemata("Guaranteed");
    QVERIFY(back.ok());
    QCOMPARE(back->value("L3", 0).value_or(""), std::string("fc"));
    QCOMPARE(back->value("L3", 1).value_or(""), std::string("fffff"));
    QCOMPARE(s.model.liveMask(row), 0xfcull);
    QCOMPARE(written.size(), 1);
    const auto changes = s.changes();
    QCOMPARE(changes.size(), std::size_t(1));
    QCOMPARE(changes.back().newValue, std::string("fc"));
    QCOMPARE(changes.back().who, std::string("gui"));
    s.model.undoStack()->undo();
    back = s.backend->readSchemata("Guaranteed");
    QCOMPARE(back->value("L3", 0).value_or(""), std::string("fffff"));
    QCOMPARE(s.model.liveMask(row), 0xfffffull);
}

void TestAllocationEngineAdapter::kernelRejectionRestoresRowWithKernelText()
{
    Setup s;
    const int row = s.model.rowFor(QStringLiteral("Guaranteed"), QStringLiteral("L3"));
    s.fs->arm(1, EINVAL, "Overlaps with exclusive group");
    QSignalSpy rejected(&s.model, &AllocationModel::editRejected);
    QVERIFY(!s.model.setPendingMask(row, 0xff0) || !rejected.isEmpty());
    QCOMPARE(rejected.size(), 1);
    QCOMPARE(rejected.at(0).at(1).toString(), QStringLiteral("Overlaps with exclusive group"));
    QCOMPARE(s.model.mask(row), 0xfffffull);
    QCOMPARE(s.model.rowError(row), QStringLiteral("Overlaps with exclusive group"));
    auto back = s.backend->readSchemata("Guaranteed");
    QCOMPARE(back->value("L3", 0).value_or(""), std::string("fffff"));
    QCOMPARE(s.model.undoStack()->count(), 0);
}

void TestAllocationEngineAdapter::engineValidationReasonIsTheKernelWording()
{
    Setup s;
    auto r = s.writer->writeCbm("Guaranteed", "L3", 0, 0x5);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().message), QStringLiteral("The mask 5 has non-consecutive 1-bits"));
    QCOMPARE(
        EngineAllocationWriter::reasonOf({ 22, "write to p0/schemata failed; kernel says: Mask out of range", {} }),
        std::string("Mask out of range"));
    auto mb = s.writer->writeBandwidth("Guaranteed", "MB", 2, 35);
    QVERIFY2(mb.ok(), mb.ok() ? "" : mb.error().toString().c_str());
    QCOMPARE(*mb, 40u); // rounded up to bandwidth_gran, as the kernel does
}

void TestAllocationEngineAdapter::occupancyFromSamples()
{
    rdt::RdtSampleBatch b;
    b.samples.push_back({ 0, "p0", 0, 1000, 0, 0, 0, 0, 0 });
    b.samples.push_back({ 0, "p0", 1, 2000, 0, 0, 0, 0, 0 });
    b.samples.push_back({ 0, "p0/mon_groups/m1", 0, 500, 0, 0, 0, 0, 0 });
    b.samples.push_back({ 0, "p1", 0, 0, 0, 0, 0, 0, rdt::SampleOccupancyUnavailable });
    const auto occ = occupancyFromBatch(b);
    QCOMPARE(occ.size(), std::size_t(1));
    QCOMPARE(occ.at("p0").at(1), std::uint64_t(2000));
}

void TestAllocationEngineAdapter::waysFromCpuid()
{
    rdt::CpuFeatures f;
    rdt::CacheInfo l2;
    l2.level = 2;
    l2.type = "Unified";
    l2.ways = 16;
    rdt::CacheInfo l3 = l2;
    l3.level = 3;
    l3.ways = 11;
    rdt::CacheInfo l1i = l2;
    l1i.level = 1;
    l1i.type = "Instruction";
    f.caches = { l1i, l2, l3 };
    const auto ways = rdt::engine::cacheWays(f);
    QCOMPARE(ways.size(), std::size_t(2));
    QCOMPARE(ways.at("L3"), 11);
    QCOMPARE(ways.at("L2"), 16);
    QVERIFY(rdt::engine::cacheWays(rdt::CpuFeatures {}).empty());

    // Only for the cache resctrl controls: an AMD host's 32 MiB, 16-way L3 read beside the 4-domain fixture tree's
    // 20-bit, 55 MiB L3 said "(16 ways)" next to 20 bits. A whole share (an SNC node's) or an unknown size is fine.
    rdt::CpuFeatures amd;
    rdt::CacheInfo amdL3 = l3;
    amdL3.ways = 16;
    amdL3.partitions = 1;
    amdL3.lineSize = 64;
    amdL3.sets = 32768;
    amd.caches = { amdL3 };
    rdt::Capabilities caps;
    rdt::ResourceCaps r;
    r.name = "L3";
    r.kind = rdt::ResourceKind::Cache;
    r.cbmBits = 20;
    r.bytesPerBit = 2883584; // 55 MiB / 20
    caps.resources = { r };
    QVERIFY(rdt::engine::cacheWaysFor(amd, caps).empty());
    caps.resources[0].cbmBits = 16;
    caps.resources[0].bytesPerBit = 2u << 20; // 32 MiB
    QCOMPARE(rdt::engine::cacheWaysFor(amd, caps).at("L3"), 16);
    caps.resources[0].bytesPerBit = 1u << 20; // 16 MiB: one of two SNC nodes
    QCOMPARE(rdt::engine::cacheWaysFor(amd, caps).at("L3"), 16);
    caps.resources[0].bytesPerBit = 0; // resctrl gave no size
    QCOMPARE(rdt::engine::cacheWaysFor(amd, caps).at("L3"), 16);
}

void TestAllocationEngineAdapter::waysFromCpuidDumpAndItsSnapshot()
{
    // Xeon Gold 6154 (Skylake-SP), InstLatx64 dump: CPUID.04H sub-leaves 2 and 3 give EBX 03C0003F and 0280003F,
    // i.e. EBX[31:22]+1 = 16 and 11 ways. The oracle is the dump's own text ("L3 Unified Cache: ... 11-way").
    const QString path = QStringLiteral(RDTSCOPE_TEST_DATA "/cpuid/GenuineIntel0050654_SkylakeXeon_CPUID5.txt");
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromLatin1(f.readAll());
    std::map<std::string, int> want;
    const QRegularExpression line(
        QStringLiteral("^(L[23]) Unified Cache:.*?(\\d+)-way Associative"), QRegularExpression::MultilineOption);
    for (auto it = line.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        want[m.captured(1).toStdString()] = m.captured(2).toInt();
    }
    QCOMPARE(want.size(), std::size_t(2));

    auto table = rdt::loadCpuidDump(path.toStdString());
    QVERIFY(table);
    QCOMPARE(rdt::engine::cacheWays(*table), want);
    QCOMPARE(rdt::engine::cacheParametersLeaf(rdt::decodeCpuFeatures(*table)), std::string("CPUID.04H"));
    rdt::CpuFeatures amd;
    amd.identity.vendor = "AuthenticAMD";
    QCOMPARE(rdt::engine::cacheParametersLeaf(amd), std::string("CPUID.8000001DH")); // AMD's 04H is empty
    // What sessions store: the JSON snapshot decodes to the same ways.
    auto back = rdt::cpuidTableFromJson(rdt::cpuidTableToJson(*table));
    QVERIFY(back);
    QCOMPARE(rdt::engine::cacheWays(*back), want);
}

QTEST_GUILESS_MAIN(TestAllocationEngineAdapter)
#include "test_allocation_engine_adapter.moc"
