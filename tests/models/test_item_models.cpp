// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/GroupModel.h"
#include "models/MachineModel.h"
#include "models/MonitorModel.h"
#include "models/MonitorTreeModel.h"
#include "models/ProcessModel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {
CapabilityRow cap(
    const char* group, const char* name, const char* value, bool present, const char* sdm, const char* whyNot = "")
{
    return { QString::fromLatin1(group), QString::fromLatin1(name), QString::fromLatin1(value), present,
        QStringLiteral("CPUID"), QString::fromLatin1(sdm), QString::fromLatin1(whyNot) };
}

rdt::RdtSample sample(const char* group, int domain, std::uint64_t occ, double total, double local)
{
    rdt::RdtSample s;
    s.group = group;
    s.domain = domain;
    s.occupancyBytes = occ;
    s.mbmTotalBps = total;
    s.mbmLocalBps = local;
    return s;
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}
} // namespace

class TestItemModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void machineModelGroupsRows()
    {
        MachineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows({ cap("RDT monitoring", "L3 occupancy (CMT)", "yes", true, "20.18.5.1"),
            cap("RDT allocation", "L3 CAT", "", false, "20.19.4.2", "not GenuineIntel"),
            cap("RDT monitoring", "MBM counter width", "24 bits", true, "20.18.5.2") });
        QCOMPARE(model.rowCount(), 2);
        const QModelIndex mon = model.index(0, 0);
        QCOMPARE(mon.data().toString(), QStringLiteral("RDT monitoring"));
        QCOMPARE(model.rowCount(mon), 2);
        QCOMPARE(model.index(1, MachineModel::ValueColumn, mon).data().toString(), QStringLiteral("24 bits"));
        QCOMPARE(model.index(0, MachineModel::ValueColumn).data().toString(), QStringLiteral("2 of 2 present"));
        const QModelIndex cat = model.index(0, MachineModel::ValueColumn, model.index(1, 0));
        QCOMPARE(cat.data().toString(), QStringLiteral("absent"));
        QVERIFY(cat.data(Qt::ToolTipRole).toString().contains(QStringLiteral("not GenuineIntel")));
        QCOMPARE(cat.data(MachineModel::PresentRole).toBool(), false);
        QCOMPARE(model.index(0, MachineModel::SdmColumn, model.index(1, 0)).data().toString(),
            QStringLiteral("SDM 20.19.4.2"));
        QCOMPARE(model.rowAt(cat)->name, QStringLiteral("L3 CAT"));
        QVERIFY(model.rowAt(model.index(1, 0)) == nullptr);
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    void groupModelNestsMonitorGroups()
    {
        GroupModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setGroups({ { "", false, { 1, 2 }, "0-7" }, { "p0", false, { 100 }, "" },
            { "p0/mon_groups/m1", true, { 101, 102 }, "" }, { "mon_groups/idle", true, {}, "" } });
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("default"));
        QCOMPARE(model.index(0, GroupModel::CpusColumn).data().toString(), QStringLiteral("0-7"));
        QCOMPARE(model.rowCount(model.index(0, 0)), 1); // mon_groups/idle under the default group
        const QModelIndex p0 = model.index(1, 0);
        QCOMPARE(model.rowCount(p0), 1);
        const QModelIndex m1 = model.index(0, GroupModel::TasksColumn, p0);
        QCOMPARE(m1.data().toInt(), 2);
        QVERIFY(m1.data(Qt::ToolTipRole).toString().contains(QStringLiteral("101, 102")));
        QCOMPARE(model.index(0, GroupModel::KindColumn, p0).data().toString(), QStringLiteral("monitor"));

        model.observeGroup("p3/mon_groups/x");
        model.observeGroup("p3/mon_groups/x"); // no duplicate
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowCount(model.index(2, 0)), 1);
        QCOMPARE(model.groupAt(model.index(0, 0, model.index(2, 0)))->path, std::string("p3/mon_groups/x"));
    }

    void monitorModelUpdatesInPlace()
    {
        MonitorModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        rdt::RdtSampleBatch batch;
        batch.samples = { sample("", 0, 1 << 20, 1e9, 0.75e9), sample("p0", 0, 8 << 20, 5e9, 5e9) };
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.update(batch);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, MonitorModel::RemoteColumn).data(MonitorModel::ValueRole).toDouble(), 0.25e9);
        QCOMPARE(model.index(1, MonitorModel::OccupancyColumn).data().toString(), QStringLiteral("8.00 MiB"));
        batch.samples[1].occupancyBytes = 2 << 20;
        batch.samples[1].flags = rdt::SampleWrapped;
        model.update(batch); // same shape: one dataChanged, no reset
        QCOMPARE(reset.count(), 1);
        QCOMPARE(changed.count(), 1);
        QVERIFY(model.index(1, MonitorModel::FlagsColumn).data().toString().contains(QStringLiteral("wrapped")));
        batch.samples.pop_back();
        model.update(batch);
        QCOMPARE(reset.count(), 2);
        QCOMPARE(model.rowCount(), 1);
    }

    // The Monitor dock's tree (issue #16 item 1): one row per group summed over its domains, the domains as
    // children, and a Domains column that reads as domains, not as a count.
    void monitorTreeSumsDomainsUnderOneRowPerGroup()
    {
        MonitorTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        rdt::RdtSampleBatch batch;
        for (int d = 0; d < 4; ++d)
            batch.samples.push_back(sample("web", d, 1 << 20, 1e9, 1e9));
        batch.samples.push_back(sample("batch", 2, 4 << 20, 2e9, 1e9));
        model.update(batch);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.groupCount(), 2);
        int web = model.index(0, 0).data(MonitorTreeModel::GroupPathRole).toString() == QStringLiteral("web") ? 0 : 1;
        const QModelIndex webRow = model.index(web, 0);
        QCOMPARE(model.rowCount(webRow), 4);
        QCOMPARE(model.index(web, MonitorTreeModel::DomainsColumn).data().toString(), QStringLiteral("all 4"));
        QCOMPARE(model.index(web, MonitorTreeModel::OccupancyColumn).data().toString(), QStringLiteral("4.00 MiB"));
        QCOMPARE(model.index(1 - web, MonitorTreeModel::DomainsColumn).data().toString(), QStringLiteral("domain 2"));
        QCOMPARE(model.index(2, MonitorTreeModel::GroupColumn, webRow).data().toString(), QStringLiteral("domain 2"));
    }

    // AMD assignable counters: a domain without a counter is a greyed "unassigned" row with the reason, not a zero;
    // a group greys only when no domain has one, and otherwise says which part its sums leave out.
    void monitorTreeGreysUnassignedRows()
    {
        MonitorTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        rdt::RdtSampleBatch batch;
        for (int d = 0; d < 2; ++d) {
            batch.samples.push_back(sample("web", d, 1 << 20, 1e9, 1e9));
            batch.samples.push_back(sample("idle", d, 1 << 20, 0, 0));
            batch.samples.back().flags = rdt::SampleMbmUnassigned;
        }
        batch.samples[0].flags = rdt::SampleMbmUnassigned; // web: no counter in domain 0 only
        model.update(batch);
        const int web
            = model.index(0, 0).data(MonitorTreeModel::GroupPathRole).toString() == QStringLiteral("web") ? 0 : 1;
        const QModelIndex webRow = model.index(web, 0), idleRow = model.index(1 - web, 0);
        const QModelIndex idleTotal = model.index(1 - web, MonitorTreeModel::TotalColumn);
        QCOMPARE(idleTotal.data().toString(), QStringLiteral("unassigned"));
        QVERIFY(idleTotal.data(Qt::ForegroundRole).isValid());
        QVERIFY(idleRow.data(Qt::ToolTipRole).toString().contains(QStringLiteral("No MBM counter is assigned")));
        // web: greyed and "unassigned" in domain 0, measured in domain 1; the group row is not greyed.
        QCOMPARE(model.index(0, MonitorTreeModel::TotalColumn, webRow).data().toString(), QStringLiteral("unassigned"));
        QVERIFY(model.index(0, MonitorTreeModel::GroupColumn, webRow).data(Qt::ForegroundRole).isValid());
        QVERIFY(
            model.index(1, MonitorTreeModel::TotalColumn, webRow).data().toString() != QStringLiteral("unassigned"));
        QVERIFY(!model.index(1, MonitorTreeModel::GroupColumn, webRow).data(Qt::ForegroundRole).isValid());
        QVERIFY(!webRow.data(Qt::ForegroundRole).isValid());
        QVERIFY(
            webRow.data(Qt::ToolTipRole).toString().contains(QStringLiteral("1 of 2 L3 domains have no MBM counter")));
    }

    // Each counter its own flags (issue #43): a domain whose mbm_local_bytes is missing shows its total, and
    // "unknown" for local and remote, never 0 B/s; in the tree too, where the group's local sum is then unknown.
    void aMissingLocalCounterIsUnknownNotZero()
    {
        rdt::RdtSampleBatch batch;
        batch.samples.push_back(sample("web", 0, 1 << 20, 2e9, 1e9));
        batch.samples.push_back(sample("web", 1, 1 << 20, 3e9, 0));
        batch.samples.back().flags = rdt::SampleMbmLocalUnavailable;
        MonitorModel flat;
        flat.update(batch);
        QCOMPARE(flat.index(1, MonitorModel::LocalColumn).data().toString(), QStringLiteral("unknown"));
        QCOMPARE(flat.index(1, MonitorModel::RemoteColumn).data().toString(), QStringLiteral("unknown"));
        QVERIFY(flat.index(1, MonitorModel::TotalColumn).data().toString() != QStringLiteral("unknown"));
        QVERIFY(flat.index(0, MonitorModel::LocalColumn).data().toString() != QStringLiteral("unknown"));
        MonitorTreeModel tree;
        tree.update(batch);
        const QModelIndex web = tree.index(0, 0);
        QCOMPARE(tree.index(0, MonitorTreeModel::LocalColumn).data().toString(), QStringLiteral("unknown"));
        QVERIFY(tree.index(0, MonitorTreeModel::TotalColumn).data().toString() != QStringLiteral("unknown"));
        QCOMPARE(tree.index(1, MonitorTreeModel::LocalColumn, web).data().toString(), QStringLiteral("unknown"));
        QVERIFY(tree.index(0, MonitorTreeModel::LocalColumn, web).data().toString() != QStringLiteral("unknown"));
    }

    void processModelScansProcTree()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString root = dir.path();
        for (const auto& [pid, comm, cmd] : { std::tuple { "42", "streamer",
                                                  QByteArray("stream\0--size\0"
                                                             "1G",
                                                      17) },
                 std::tuple { "7", "victim", QByteArray("victim") } }) {
            QVERIFY(QDir(root).mkpath(QString::fromLatin1(pid)));
            writeFile(
                root + QLatin1Char('/') + QString::fromLatin1(pid) + QStringLiteral("/comm"), QByteArray(comm) + '\n');
            writeFile(root + QLatin1Char('/') + QString::fromLatin1(pid) + QStringLiteral("/cmdline"), cmd);
            writeFile(root + QLatin1Char('/') + QString::fromLatin1(pid) + QStringLiteral("/status"),
                "Name:\tx\nUid:\t0\t0\t0\t0\n");
        }
        QVERIFY(QDir(root).mkpath(QStringLiteral("self"))); // not a PID: skipped
        ProcessModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProcRoot(root);
        QSignalSpy refreshed(&model, &ProcessModel::refreshed);
        model.refresh();
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, ProcessModel::PidColumn).data().toInt(), 7);
        QCOMPARE(model.index(1, ProcessModel::NameColumn).data().toString(), QStringLiteral("streamer"));
        QCOMPARE(model.index(1, ProcessModel::CommandColumn).data().toString(), QStringLiteral("stream --size 1G"));
        QCOMPARE(model.index(1, ProcessModel::UserColumn).data().toString(), QStringLiteral("root"));
    }

    void processRefreshStaleResultDropped()
    {
        // Two refreshes in a row: only the second result may land (JobTracker generation).
        QTemporaryDir a;
        QTemporaryDir b;
        QVERIFY(QDir(a.path()).mkpath(QStringLiteral("1")));
        writeFile(a.path() + QStringLiteral("/1/comm"), "from-a\n");
        ProcessModel model;
        QSignalSpy refreshed(&model, &ProcessModel::refreshed);
        model.setProcRoot(a.path());
        model.refresh();
        model.setProcRoot(b.path());
        model.refresh();
        QVERIFY(refreshed.wait(5000));
        QTest::qWait(100);
        QCOMPARE(refreshed.count(), 1);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestItemModels)
#include "test_item_models.moc"
