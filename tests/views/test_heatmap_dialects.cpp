// SPDX-License-Identifier: GPL-3.0-or-later
// The bandwidth editor on the simulated kernel's dialects beyond x86 (docs/RESCTRL.md "Dialects"), end to end:
// MbaEditor -> AllocationBandwidthModel -> AllocationEditCommand -> EngineAllocationWriter -> AllocationEngine (the
// one validator) -> ResctrlBackend -> SimResctrlFs. Ranges, units and columns come from the controls' descriptions;
// CBQRI's MB_MIN shows its budget and an edit over it is refused before writing; a region's min/opt/max is written
// as one triple; Arm MPAM's MB under CDP is absent with the engine's reason.

#include "engine/CaptureService.h"
#include "models/AllocationBandwidthModel.h"
#include "models/AllocationModel.h"
#include "models/EngineAllocation.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Schemata.h"
#include "sim/SimCpuid.h"
#include "sim/SimMachine.h"
#include "sim/SimResctrlFs.h"
#include "views/MbaEditor.h"

#include <QAbstractItemModelTester>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

namespace {
struct DialectSetup {
    std::unique_ptr<rdt::sim::SimMachine> machine;
    std::shared_ptr<rdt::sim::SimResctrlFs> fs;
    std::unique_ptr<rdt::engine::CaptureService> service;
    std::unique_ptr<EngineAllocationWriter> writer;
    AllocationModel model;
    MbaEditor editor;

    DialectSetup(const std::string& preset, const std::vector<std::string>& groups, bool cdp = false)
    {
        const rdt::sim::PresetInfo* info = rdt::sim::presetInfo(preset);
        if (!info) qFatal("no preset %s", preset.c_str());
        auto cpuid = rdt::sim::presetCpuid(preset);
        if (!cpuid) qFatal("preset: %s", cpuid.error().toString().c_str());
        rdt::sim::SimOptions o;
        o.topology.coresPerSocket = 4;
        o.topology.threadsPerCore = 1;
        o.dialect = static_cast<rdt::sim::ResctrlDialect>(info->dialect);
        auto m = rdt::sim::SimMachine::create(*cpuid, o);
        if (!m) qFatal("machine: %s", m.error().toString().c_str());
        machine = std::move(*m);
        rdt::sim::ResctrlMountOptions mo;
        mo.cdp = cdp;
        auto f = rdt::sim::SimResctrlFs::mount(*machine, mo);
        if (!f) qFatal("mount: %s", f.error().toString().c_str());
        fs = std::shared_ptr<rdt::sim::SimResctrlFs>(std::move(*f));
        auto b = rdt::ResctrlBackend::open(fs);
        if (!b) qFatal("backend: %s", b.error().toString().c_str());
        for (const auto& g : groups)
            if (auto s = (*b)->createControlGroup(g); !s)
                qFatal("mkdir %s: %s", g.c_str(), s.error().toString().c_str());
        rdt::RdtSource source;
        source.kind = "sim";
        source.simulated = true;
        source.backend = std::move(*b);
        rdt::engine::ServiceOptions options;
        options.who = "gui";
        auto opened = rdt::engine::CaptureService::openWith(std::move(source), options);
        if (!opened) qFatal("service: %s", opened.error().toString().c_str());
        service = std::move(*opened);
        writer = std::make_unique<EngineAllocationWriter>(*service);
        model.setWriter(writer.get());
        auto st = readAllocationState(*service, { true, true, {} });
        if (!st) qFatal("state: %s", st.error().toString().c_str());
        model.setState(*st);
        editor.setModel(&model);
    }
    AllocationBandwidthModel& bandwidth() { return *editor.bandwidthModel(); }
    /// The value the emulated kernel holds for `schema`:`domain` of `group`, parsed from its schemata file.
    std::optional<std::string> kernelValue(const std::string& group, const std::string& schema, int domain)
    {
        auto text = fs->read(group.empty() ? std::string("schemata") : group + "/schemata");
        if (!text) return std::nullopt;
        auto s = rdt::Schemata::parse(*text);
        return s ? s->value(schema, domain) : std::nullopt;
    }
    int rowOf(const QString& group)
    {
        for (int r = 0; r < bandwidth().rowCount(); ++r)
            if (bandwidth().headerData(r, Qt::Vertical).toString() == group) return r;
        return -1;
    }
    /// The editor the table opens on (row, 0), cast to T (null when it is another kind).
    template <typename T> T* openEditor(int row)
    {
        QTableView* v = editor.view();
        const QModelIndex i = bandwidth().index(row, 0);
        v->setCurrentIndex(i);
        v->edit(i);
        return v->indexWidget(i) ? qobject_cast<T*>(v->indexWidget(i)) : v->viewport()->findChild<T*>();
    }
};
} // namespace

class TestHeatmapDialects : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void riscvReservationShowsItsBudgetAndRefusesOverIt();
    void riscvWeightEditorTakesTheDescribedRange();
    void regionBoundsAreEditedAsOneTriple();
    void armBandwidthColumnsAreItsOwnDomains();
    void armUnderCdpSaysWhyThereIsNoBandwidth();
};

void TestHeatmapDialects::riscvReservationShowsItsBudgetAndRefusesOverIt()
{
    DialectSetup s("riscv-cbqri", { "p0" });
    QAbstractItemModelTester tester(&s.bandwidth(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(s.bandwidth().schemaNames().contains(QStringLiteral("MB_MIN")));
    s.bandwidth().setSchema(QStringLiteral("MB_MIN"));
    const BandwidthSchema* b = s.bandwidth().bandwidthSchema();
    QVERIFY(b);
    QCOMPARE(b->role, rdt::api::BandwidthRole::Reserved);
    QVERIFY(b->budget > 0);
    QVERIFY(!b->domains.empty());
    // The columns are MB_MIN's own domains, not every cache domain of the machine.
    QCOMPARE(s.bandwidth().columnCount(), int(b->domains.size()));
    const int domain = b->domains.front();
    QCOMPARE(s.bandwidth().headerData(0, Qt::Horizontal).toString(), QStringLiteral("domain %1").arg(domain));
    // After mount the default group holds the budget minus one block per other RCID (docs/RESCTRL.md).
    const int row = s.rowOf(QStringLiteral("p0"));
    QVERIFY(row > 0);
    const unsigned p0 = s.bandwidth().index(row, 0).data(AllocationBandwidthModel::ValueRole).toUInt();
    const unsigned root = s.bandwidth().index(0, 0).data(AllocationBandwidthModel::ValueRole).toUInt();
    const std::uint64_t room = b->budget - p0 - root;
    const QString budget = s.editor.budgetText();
    QVERIFY2(budget.contains(QStringLiteral("domain %1: %2 of %3 blocks reserved, %4 still fit")
                                 .arg(domain)
                                 .arg(p0 + root)
                                 .arg(b->budget)
                                 .arg(room)),
        qPrintable(budget));
    QVERIFY2(
        s.editor.rulesText().contains(QStringLiteral("from info/resource_schemata")), qPrintable(s.editor.rulesText()));
    // The spin box takes the description's range: 1..budget blocks.
    auto* e = s.openEditor<BandwidthValueEditor>(row);
    QVERIFY(e);
    auto* spin = e->findChild<QSpinBox*>(QStringLiteral("value"));
    QVERIFY(spin);
    QCOMPARE(spin->minimum(), 1);
    QCOMPARE(spin->maximum(), int(b->budget));
    QCOMPARE(spin->suffix(), QStringLiteral(" blocks"));
    s.editor.view()->closePersistentEditor(s.bandwidth().index(row, 0));

    // One block more than fits: refused by the validator before writing, the kernel keeps the old value.
    const auto before = s.kernelValue("p0", "MB_MIN", domain);
    QVERIFY(before);
    QVERIFY(!s.bandwidth().setValue(row, 0, unsigned(p0 + room + 1)));
    QCOMPARE(s.kernelValue("p0", "MB_MIN", domain), before);
    const QString refusal = s.bandwidth().index(row, 0).data(AllocationBandwidthModel::RowErrorRole).toString();
    QVERIFY2(refusal.contains(QStringLiteral("budget of %1 blocks").arg(b->budget)), qPrintable(refusal));
    // What fits is written, and the budget line follows.
    QVERIFY(s.bandwidth().setValue(row, 0, unsigned(p0 + room)));
    QCOMPARE(s.kernelValue("p0", "MB_MIN", domain), std::optional<std::string>(std::to_string(p0 + room)));
    QVERIFY2(s.editor.budgetText().contains(QStringLiteral("still fit").prepend(QStringLiteral("0 "))),
        qPrintable(s.editor.budgetText()));
}

void TestHeatmapDialects::riscvWeightEditorTakesTheDescribedRange()
{
    DialectSetup s("riscv-cbqri", { "p0" });
    s.bandwidth().setSchema(QStringLiteral("MB_WGHT"));
    const BandwidthSchema* b = s.bandwidth().bandwidthSchema();
    QVERIFY(b);
    QCOMPARE(b->role, rdt::api::BandwidthRole::Weight);
    QVERIFY(s.editor.budgetText().isEmpty());
    const int row = s.rowOf(QStringLiteral("p0"));
    auto* e = s.openEditor<BandwidthValueEditor>(row);
    QVERIFY(e);
    auto* spin = e->findChild<QSpinBox*>(QStringLiteral("value"));
    QVERIFY(spin);
    QCOMPARE(spin->minimum(), 0);
    QCOMPARE(spin->maximum(), 255);
    s.editor.view()->closePersistentEditor(s.bandwidth().index(row, 0));
    QVERIFY(s.bandwidth().setValue(row, 0, 0));
    QCOMPARE(s.kernelValue("p0", "MB_WGHT", b->domains.front()), std::optional<std::string>("0"));
    QCOMPARE(s.bandwidth().index(row, 0).data().toString(), QStringLiteral("weight 0"));
}

void TestHeatmapDialects::regionBoundsAreEditedAsOneTriple()
{
    DialectSetup s("xeon-mbregion", { "p0" });
    QAbstractItemModelTester tester(&s.bandwidth(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QStringList names = s.bandwidth().schemaNames();
    QVERIFY2(names.contains(QStringLiteral("MB_REGION0")), qPrintable(names.join(u',')));
    QVERIFY(!names.contains(QStringLiteral("MB_REGION0_OPT"))); // the bounds are one entry
    s.bandwidth().setSchema(QStringLiteral("MB_REGION0"));
    QVERIFY(s.bandwidth().isTriple());
    const auto bounds = s.bandwidth().regionBounds();
    QCOMPARE(bounds.size(), std::size_t(3));
    QCOMPARE(bounds[2]->name, std::string("MB_REGION0_MAX"));
    const int row = s.rowOf(QStringLiteral("p0"));
    const int domain = s.bandwidth().index(row, 0).data(AllocationBandwidthModel::DomainRole).toInt();

    // The triple editor: three spin boxes in the description's range (1..511 of unit all, resolution 511).
    auto* e = s.openEditor<RegionTripleEditor>(row);
    QVERIFY(e);
    for (const char* n : { "min", "opt", "max" }) {
        auto* spin = e->findChild<QSpinBox*>(QLatin1String(n));
        QVERIFY(spin);
        QCOMPARE(spin->minimum(), int(bounds[0]->minValue));
        QCOMPARE(spin->maximum(), int(bounds[0]->maxValue));
        QCOMPARE(spin->suffix(), QString::fromStdString(bounds[0]->unit));
    }
    s.editor.view()->closePersistentEditor(s.bandwidth().index(row, 0));

    // In order: all three written as one change (raising min above the old opt would be refused one at a time).
    QVERIFY(s.bandwidth().setTriple(row, 0, 400, 450, 500));
    QCOMPARE(s.kernelValue("p0", "MB_REGION0_MIN", domain), std::optional<std::string>("400"));
    QCOMPARE(s.kernelValue("p0", "MB_REGION0_OPT", domain), std::optional<std::string>("450"));
    QCOMPARE(s.kernelValue("p0", "MB_REGION0_MAX", domain), std::optional<std::string>("500"));
    QVERIFY2(s.bandwidth().index(row, 0).data().toString().startsWith(
                 QStringLiteral("min 400 \u00b7 opt 450 \u00b7 max 500")),
        qPrintable(s.bandwidth().index(row, 0).data().toString()));
    // Out of order: the validator refuses it and nothing is written.
    QVERIFY(!s.bandwidth().setTriple(row, 0, 300, 200, 500));
    QCOMPARE(s.kernelValue("p0", "MB_REGION0_MIN", domain), std::optional<std::string>("400"));
    QCOMPARE(s.kernelValue("p0", "MB_REGION0_OPT", domain), std::optional<std::string>("450"));
    const QString refusal = s.bandwidth().index(row, 0).data(AllocationBandwidthModel::RowErrorRole).toString();
    QVERIFY2(refusal.contains(QStringLiteral("min <= opt <= max")), qPrintable(refusal));
    // One undo takes the whole triple back.
    s.model.undoStack()->undo();
    QVERIFY(s.kernelValue("p0", "MB_REGION0_MIN", domain) != std::optional<std::string>("400"));
}

void TestHeatmapDialects::armBandwidthColumnsAreItsOwnDomains()
{
    DialectSetup s("arm-mpam", { "p0" });
    const BandwidthSchema* b = s.bandwidth().bandwidthSchema();
    QVERIFY(b);
    QCOMPARE(b->name, std::string("MB"));
    QVERIFY(!b->domains.empty());
    // MB's domains are the L3 cache ids (Documentation/arch/arm64/mpam.rst), fewer than the L2 domains.
    QCOMPARE(s.bandwidth().columnCount(), int(b->domains.size()));
    QVERIFY(s.model.state().domains.size() > b->domains.size());
    QVERIFY(s.editor.rulesText().startsWith(QStringLiteral("MB: ")));
}

void TestHeatmapDialects::armUnderCdpSaysWhyThereIsNoBandwidth()
{
    DialectSetup s("arm-mpam", { "p0" }, true);
    QVERIFY(s.bandwidth().schemaNames().isEmpty());
    QCOMPARE(s.bandwidth().columnCount(), 0);
    QVERIFY2(
        s.editor.rulesText().contains(QStringLiteral("not offered while CDP is on")), qPrintable(s.editor.rulesText()));
}

QTEST_MAIN(TestHeatmapDialects)
#include "test_heatmap_dialects.moc"
