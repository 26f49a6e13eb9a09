// SPDX-License-Identifier: GPL-3.0-or-later
// The heatmap end to end on the simulated machine: QTest mouse drag -> AllocationModel -> AllocationEditCommand ->
// EngineAllocationWriter -> AllocationEngine -> ResctrlBackend -> SimResctrlFs (the emulated kernel), read back
// from the emulated kernel's schemata file.

#include "engine/CaptureService.h"
#include "models/AllocationModel.h"
#include "models/EngineAllocation.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Schemata.h"
#include "sim/SimCpuid.h"
#include "sim/SimMachine.h"
#include "sim/SimResctrlFs.h"
#include "views/CacheWayHeatmap.h"
#include "views/HeatmapGrid.h"

#include <QSignalSpy>
#include <QTest>

namespace {
struct SimSetup {
    std::unique_ptr<rdt::sim::SimMachine> machine;
    std::shared_ptr<rdt::sim::SimResctrlFs> fs;
    rdt::RdtBackend* backend = nullptr; ///< owned by the service
    std::unique_ptr<rdt::engine::CaptureService> service;
    std::unique_ptr<EngineAllocationWriter> writer;
    AllocationModel model;
    CacheWayHeatmap heatmap;

    explicit SimSetup(const std::vector<std::string>& groups)
    {
        auto cpuid = rdt::sim::presetCpuid("skx-6154");
        if (!cpuid) qFatal("preset: %s", cpuid.error().toString().c_str());
        rdt::sim::SimOptions o;
        o.topology.coresPerSocket = 2;
        o.topology.threadsPerCore = 1;
        auto m = rdt::sim::SimMachine::create(*cpuid, o);
        if (!m) qFatal("machine: %s", m.error().toString().c_str());
        machine = std::move(*m);
        auto f = rdt::sim::SimResctrlFs::mount(*machine);
        if (!f) qFatal("mount: %s", f.error().toString().c_str());
        fs = std::shared_ptr<rdt::sim::SimResctrlFs>(std::move(*f));
        auto b = rdt::ResctrlBackend::open(fs);
        if (!b) qFatal("backend: %s", b.error().toString().c_str());
        backend = b->get();
        for (const auto& g : groups) {
            if (auto s = backend->createControlGroup(g); !s)
                qFatal("mkdir %s: %s", g.c_str(), s.error().toString().c_str());
        }
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
        reload();
        heatmap.setModel(&model);
        heatmap.resize(heatmap.sizeHint());
        heatmap.show();
    }
    void reload()
    {
        auto st = readAllocationState(*service, { true, true, {} });
        if (!st) qFatal("state: %s", st.error().toString().c_str());
        model.setState(*st);
    }
    /// The mask the emulated kernel holds, parsed from its schemata file.
    std::uint64_t kernelMask(const std::string& group, int domain)
    {
        auto text = fs->read(group.empty() ? std::string("schemata") : group + "/schemata");
        if (!text) return ~0ull;
        auto s = rdt::Schemata::parse(*text);
        auto v = s ? s->value("L3", domain) : std::nullopt;
        auto m = v ? rdt::parseMask(*v) : rdt::Result<std::uint64_t>(rdt::makeError("no L3 value"));
        return m ? *m : ~0ull;
    }
    void drag(int row, int from, int to)
    {
        HeatmapGrid* g = heatmap.grid();
        QTest::mousePress(g, Qt::LeftButton, {}, g->cellRect(row, from).center());
        QTest::mouseMove(g, g->cellRect(row, (from + to) / 2).center());
        QTest::mouseMove(g, g->cellRect(row, to).center());
        QTest::mouseRelease(g, Qt::LeftButton, {}, g->cellRect(row, to).center());
    }
};
} // namespace

class TestHeatmapSim : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dragFromBit2To7WritesFcToSimResctrl();
    void undoWritesOldMaskBackToSimResctrl();
    void rejectionOnSimRestoresRowAndShowsMessage();
};

void TestHeatmapSim::dragFromBit2To7WritesFcToSimResctrl()
{
    SimSetup s({ "p0", "p1" });
    const int row = s.model.rowFor(QStringLiteral("p0"), QStringLiteral("L3"));
    QVERIFY(row > 0);
    QCOMPARE(s.model.columnCount(), 11); // Xeon Gold 6154: 11-bit CBM
    const std::uint64_t otherDomainBefore = s.kernelMask("p0", 1);
    s.drag(row, 2, 7);
    QCOMPARE(s.kernelMask("p0", 0), std::uint64_t(0xfc));
    QCOMPARE(s.kernelMask("p0", 1), otherDomainBefore);
    QCOMPARE(s.model.liveMask(row), 0xfcull);
    auto status = s.fs->read("info/last_cmd_status");
    QVERIFY(status.ok());
    QCOMPARE(QString::fromStdString(*status).trimmed(), QStringLiteral("ok"));
}

void TestHeatmapSim::undoWritesOldMaskBackToSimResctrl()
{
    SimSetup s({ "p0" });
    const int row = s.model.rowFor(QStringLiteral("p0"), QStringLiteral("L3"));
    const std::uint64_t before = s.kernelMask("p0", 0);
    s.drag(row, 2, 7);
    QCOMPARE(s.kernelMask("p0", 0), std::uint64_t(0xfc));
    s.model.undoStack()->undo();
    QCOMPARE(s.kernelMask("p0", 0), before);
    QCOMPARE(s.model.liveMask(row), quint64(before));
    s.model.undoStack()->redo();
    QCOMPARE(s.kernelMask("p0", 0), std::uint64_t(0xfc));
}

void TestHeatmapSim::rejectionOnSimRestoresRowAndShowsMessage()
{
    SimSetup s({ "p0", "p1" });
    // Make p1 exclusive on the emulated kernel behind the displayed state's back: root and p0 leave its ways.
    auto line = [&](const char* mask) {
        std::string l = "L3:";
        for (int d : s.model.domains())
            l += std::to_string(d) + "=" + mask + ";";
        l.back() = '\n';
        return l;
    };
    {
        auto w = s.fs->write("schemata", line("700"));
        QVERIFY2(w.ok(),
            w.ok() ? ""
                   : (line("700") + w.error().toString() + " / " + s.fs->read("info/last_cmd_status").valueOr("")
                       + " / " + s.fs->read("schemata").valueOr(""))
                         .c_str());
    }
    QVERIFY(s.fs->write("p0/schemata", line("f")).ok());
    QVERIFY(s.fs->write("p1/schemata", line("f0")).ok());
    s.reload(); // the display knows the masks...
    QVERIFY(s.fs->write("p1/mode", "exclusive\n").ok()); // ...but not the mode
    const int row = s.model.rowFor(QStringLiteral("p0"), QStringLiteral("L3"));
    QSignalSpy rejected(&s.model, &AllocationModel::editRejected);
    s.drag(row, 2, 7); // 0xfc overlaps p1's exclusive 0xf0
    QCOMPARE(rejected.size(), 1);
    const QString why = s.model.rowError(row);
    qInfo("rejected with: %s", qPrintable(why));
    QVERIFY2(why.contains(QStringLiteral("exclusive"), Qt::CaseInsensitive), qPrintable(why));
    QCOMPARE(s.model.mask(row), 0xfull); // restored
    QCOMPARE(s.kernelMask("p0", 0), std::uint64_t(0xf));
    QVERIFY(s.heatmap.statusText().contains(why));
    QCOMPARE(s.model.undoStack()->count(), 0);
}

QTEST_MAIN(TestHeatmapSim)
#include "test_heatmap_sim.moc"
