// SPDX-License-Identifier: GPL-3.0-or-later
// The Monitor area's per-core table (CoreAssignmentSource, CoreAssignmentModel, CoreAssignmentPanel) on the engine of
// a copy of the 4-domain fixture tree and on the simulated machine, and without a live engine.
#include "../app/FixtureTree.h"
#include "engine/CaptureService.h"
#include "models/CoreAssignmentSource.h"
#include "views/CoreAssignmentPanel.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace rdt::engine;

namespace {
std::unique_ptr<CaptureService> open(const std::string& spec)
{
    ServiceOptions o;
    o.rdt.spec = spec;
    o.who = "test";
    auto s = CaptureService::open(o);
    if (!s) qFatal("%s", s.error().toString().c_str());
    return std::move(*s);
}

int columnOf(const QAbstractItemModel* m, const QString& header)
{
    for (int c = 0; c < m->columnCount(); ++c)
        if (m->headerData(c, Qt::Horizontal).toString() == header) return c;
    return -1;
}
} // namespace

class TestCoreAssignmentPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fourDomainTreeShowsCoresAndClasses()
    {
        QTemporaryDir dir;
        QVERIFY(copyFixtureTree(
            QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full"), dir.filePath(QStringLiteral("full"))));
        auto service = open("resctrl:" + dir.filePath(QStringLiteral("full")).toStdString());
        QVERIFY(service->assignCpus("Guaranteed", { 4, 5 }).ok);
        CoreAssignmentSource source([&service] { return service.get(); });
        QAbstractItemModelTester t1(source.cores(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(source.classes(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        source.refresh();
        QVERIFY(source.unavailable().isEmpty());
        QCOMPARE(source.cores()->rowCount(), 192);
        QCOMPARE(source.classes()->rowCount(), 5);
        const auto* cores = source.cores();
        QCOMPARE(
            cores->index(4, CoreAssignmentModel::ControlGroupColumn).data().toString(), QStringLiteral("Guaranteed"));
        QCOMPARE(cores->index(4, CoreAssignmentModel::ClosColumn).data().toString(), QStringLiteral("unknown"));
        QVERIFY(cores->index(4, CoreAssignmentModel::ClosColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("-o debug")));
        QCOMPARE(cores->index(0, CoreAssignmentModel::ControlGroupColumn).data().toString(), QStringLiteral("default"));
        QCOMPARE(cores->index(0, CoreAssignmentModel::ClosColumn).data().toInt(), 0);
        const int l3 = columnOf(source.classes(), QStringLiteral("L3"));
        const int mb = columnOf(source.classes(), QStringLiteral("MB"));
        QVERIFY(l3 >= 0 && mb >= 0);
        QCOMPARE(source.classes()->index(0, l3).data().toString(), QStringLiteral("0=fffff;1=fffff;2=fffff;3=fffff"));
        QCOMPARE(source.classes()->index(0, mb).data().toString(), QStringLiteral("0=100;1=100;2=100;3=100"));

        CoreAssignmentPanel panel(&source);
        panel.resize(400, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.coresView()->isVisible());
        QVERIFY(panel.note()->text().contains(QStringLiteral("pqos -s")));
        QVERIFY(panel.coresView()->width() <= panel.width()); // many rows and domains scroll inside the dock
        // The README's picture of it: RDTSCOPE_SCREENSHOT_DIR=resources/screenshots writes it there.
        if (const QString shots = qEnvironmentVariable("RDTSCOPE_SCREENSHOT_DIR"); !shots.isEmpty()) {
            panel.resize(520, 560);
            QTest::qWait(50);
            QVERIFY(panel.grab().save(shots + QStringLiteral("/monitor-cores-full-tree.png")));
        }
    }

    void simulatorFollowsACpuMove()
    {
        auto service = open("sim");
        CoreAssignmentSource source([&service] { return service.get(); });
        source.refresh();
        QVERIFY(source.cores()->rowCount() > 2);
        QCOMPARE(source.cores()->index(2, CoreAssignmentModel::ControlGroupColumn).data().toString(),
            QStringLiteral("default"));
        QVERIFY(service->assignCpus("victim", { 2 }).ok);
        source.refresh();
        QCOMPARE(source.cores()->index(2, CoreAssignmentModel::ControlGroupColumn).data().toString(),
            QStringLiteral("victim"));
    }

    void noEngineSaysWhy()
    {
        CoreAssignmentSource source([] { return static_cast<Engine*>(nullptr); });
        CoreAssignmentPanel panel(&source);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(!source.unavailable().isEmpty());
        QCOMPARE(source.cores()->rowCount(), 0);
        QVERIFY(!panel.coresView()->isVisible());
        QCOMPARE(panel.note()->text(), source.unavailable());
    }
};

QTEST_MAIN(TestCoreAssignmentPanel)
#include "test_core_assignment_panel.moc"
