// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's compare mode (issue #20): CompareDiffModel under QAbstractItemModelTester, CompareSession loading on
// its worker, swap and CSV export, and the window's pages filled from two sessions written here (a "before" and an
// "after" with a fence, a marker and TMA) and from a real perf.data fixture for the branch graph.

#include "compare/CompareFormat.h"
#include "models/CompareDiffModel.h"
#include "models/CompareSession.h"
#include "session/SessionWriter.h"
#include "views/CompareGraphView.h"
#include "views/CompareTimelines.h"
#include "views/CompareWays.h"
#include "views/CompareWindow.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QGraphicsScene>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace rdt::compare;

namespace {

/// 10 s at 10 Hz: victim occupancy `victimMiB`, streamer bandwidth `streamerGBs`; streamer mask `mask` from 5 s
/// (marker "fence" at 5 s), TMA backend_bound `backend`.
QString writeSession(const QString& path, double victimMiB, double streamerGBs, const std::string& mask, double backend,
    const std::string& maskDomain1 = {})
{
    rdt::session::SessionMeta meta;
    meta.source = "synthetic";
    meta.intervalNs = 100'000'000;
    auto w = rdt::session::SessionWriter::create(path.toStdString(), meta, {});
    if (!w) qFatal("cannot write %s", qPrintable(path));
    auto check = [](const rdt::Status& s) {
        if (!s) qFatal("session write failed: %s", s.error().toString().c_str());
    };
    check((*w)->addAllocation({ 0, "initial", "streamer", "L3", 0, "", "7ff", true, "" }));
    check((*w)->addAllocation({ 0, "initial", "victim", "L3", 0, "", "7ff", true, "" }));
    check((*w)->addMarker({ 1'000'000'000, "note", "start of work" }));
    check((*w)->addMarker({ 5'000'000'000, "note", "fence" }));
    if (mask != "7ff") check((*w)->addAllocation({ 5'000'000'000, "cli", "streamer", "L3", 0, "7ff", mask, true, "" }));
    if (!maskDomain1.empty()) { // a second socket, where the streamer got another mask
        check((*w)->addAllocation({ 0, "initial", "streamer", "L3", 1, "", "7ff", true, "" }));
        check((*w)->addAllocation({ 0, "initial", "victim", "L3", 1, "", "7ff", true, "" }));
        if (maskDomain1 != "7ff")
            check((*w)->addAllocation({ 5'000'000'000, "cli", "streamer", "L3", 1, "7ff", maskDomain1, true, "" }));
    }
    check((*w)->addTma({ { 0, 10'000'000'000, "system", 1, "backend_bound", backend } }));
    for (std::uint64_t k = 0; k <= 100; ++k) {
        rdt::RdtSampleBatch b;
        b.timeNs = k * 100'000'000;
        b.samples.push_back(
            { b.timeNs, "victim", 0, static_cast<std::uint64_t>(victimMiB * 1048576), 0, 0, 1e8, 1e8, 0 });
        b.samples.push_back({ b.timeNs, "streamer", 0, 8u << 20, 0, 0, streamerGBs * 1e9, streamerGBs * 1e9, 0 });
        check((*w)->addSamples(b));
    }
    check((*w)->close("done"));
    return path;
}

} // namespace

class TestCompareWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_before, m_after;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_before = writeSession(m_dir.filePath(QStringLiteral("before.rdts")), 4, 20, "7ff", 0.30);
        m_after = writeSession(m_dir.filePath(QStringLiteral("after.rdts")), 16, 9, "3", 0.45);
    }

    void sessionLoadsOnAWorkerAndSwaps()
    {
        CompareSession session;
        QSignalSpy loaded(&session, &CompareSession::loaded);
        session.load(m_before, m_after);
        QVERIFY(session.loading());
        session.waitForLoad();
        QCOMPARE(loaded.count(), 1);
        QVERIFY(loaded.first().at(0).toBool());
        const DiffRow* occ = nullptr;
        for (const auto& r : session.comparison().rows)
            if (r.group == "victim" && r.metric == "occupancy_mean") occ = &r;
        QVERIFY(occ);
        QCOMPARE(*occ->ratio(), 4.0);
        QCOMPARE(session.timelineA().groups.size(), std::size_t { 2 });

        session.swap();
        for (const auto& r : session.comparison().rows)
            if (r.group == "victim" && r.metric == "occupancy_mean") occ = &r;
        QCOMPARE(*occ->ratio(), 0.25);
        QVERIFY(session.comparison().a.path.find("after.rdts") != std::string::npos);

        const QString csv = m_dir.filePath(QStringLiteral("diff.csv"));
        QVERIFY(session.exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readLine().trimmed(), QByteArray(kCsvHeader));
        QVERIFY(f.readAll().contains("rdt,victim,victim,0,occupancy_mean,bytes,16777216,4194304,"));
        QString error;
        QVERIFY(!session.exportCsv(QStringLiteral("/nonexistent-dir/diff.csv"), &error));
        QVERIFY(error.contains(QLatin1String("Cannot write")));

        QSignalSpy failed(&session, &CompareSession::loaded);
        session.load(m_before, QStringLiteral("/nonexistent.rdts"));
        session.waitForLoad();
        QCOMPARE(failed.count(), 1);
        QVERIFY(!failed.first().at(0).toBool());
        QVERIFY(failed.first().at(1).toString().startsWith(QLatin1String("B: ")));
    }

    void diffModelPassesTheTesterInEverySection()
    {
        CompareSession session;
        session.load(m_before, m_after);
        session.waitForLoad();
        CompareDiffModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(session.comparison());
        QVERIFY(model.rowCount() > 10);
        model.setSection(Section::Tma);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, CompareDiffModel::ColItem).data().toString(), QStringLiteral("backend_bound"));
        QCOMPARE(model.index(0, CompareDiffModel::ColDelta).data().toString(), QStringLiteral("+15.0 pts"));
        QCOMPARE(model.index(0, CompareDiffModel::ColDelta).data(CompareDiffModel::RawRole).toDouble(), 15.0);
        // Higher in B: tinted orange, not blue.
        const QColor tint = model.index(0, CompareDiffModel::ColDelta).data(Qt::BackgroundRole).value<QColor>();
        QVERIFY(tint.red() > tint.blue());
        model.setSection(Section::Allocation);
        bool fenced = false;
        for (int r = 0; r < model.rowCount(); ++r)
            fenced = fenced
                || (model.index(r, CompareDiffModel::ColGroup).data().toString() == QLatin1String("streamer")
                    && model.index(r, CompareDiffModel::ColB).data().toString() == QLatin1String("2 ways (3)"));
        QVERIFY(fenced);
        // Metrics read as words; the identifier scripts use stays in the CSV and the tooltip.
        model.setSection(Section::Rdt);
        QCOMPARE(model.index(0, CompareDiffModel::ColMetric).data().toString().left(10), QStringLiteral("Occupancy,"));
        QVERIFY(model.index(0, CompareDiffModel::ColMetric)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("occupancy_")));
        QVERIFY(!model.columnUsed(CompareDiffModel::ColItem)); // RDT rows are named by group and domain
        QVERIFY(model.columnUsed(CompareDiffModel::ColGroup));
        model.setSection(Section::Tma);
        QVERIFY(model.columnUsed(CompareDiffModel::ColItem));
        QVERIFY(!model.columnUsed(CompareDiffModel::ColDomain));
        model.setSection(std::nullopt);
        QCOMPARE(model.rowCount(), static_cast<int>(session.comparison().rows.size()));
        model.setComparison(Comparison {});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(CompareDiffModel::changeColor(-1), QColor(0x21, 0x66, 0xac));
        QCOMPARE(CompareDiffModel::changeColor(1), QColor(0xe0, 0x82, 0x14));
    }

    void windowFillsEveryPage()
    {
        CompareWindow window;
        window.open(m_before, m_after);
        window.session()->waitForLoad();
        window.show();
        QVERIFY(window.diffModel()->rowCount() > 0);
        // Timelines aligned at a marker both sessions have: t = 0 at "fence" (5 s) on both sides.
        QVERIFY(window.timelines()->commonMarkers().contains(QStringLiteral("fence")));
        window.alignAt(QStringLiteral("fence"));
        QCOMPARE(window.timelines()->offsetA(), 5.0);
        QCOMPARE(window.timelines()->offsetB(), 5.0);
        window.alignAt(QString());
        QCOMPARE(window.timelines()->offsetA(), 0.0);
        for (const char* page : { "table", "timelines", "ways", "overlay", "graph" }) {
            window.showPage(QLatin1String(page));
            QVERIFY(!window.grab().isNull());
        }
        // The section the combo box shows first is the one the table holds (it held every section).
        QCOMPARE(window.diffModel()->rowAt(window.diffModel()->rowCount() - 1)->section, Section::Rdt);
        window.showSection(QStringLiteral("tma"));
        QCOMPARE(window.diffModel()->rowCount(), 1);
    }

    // Every L3 domain of the files, one at a time (issue #20: the ways page showed domain 0 only).
    void waysPageShowsEachDomain()
    {
        const QString a = writeSession(m_dir.filePath(QStringLiteral("a2.rdts")), 4, 20, "7ff", 0.3, "7ff");
        const QString b = writeSession(m_dir.filePath(QStringLiteral("b2.rdts")), 16, 9, "3", 0.45, "f0");
        CompareWindow window;
        window.open(a, b);
        window.session()->waitForLoad();
        window.showPage(QStringLiteral("ways"));
        auto* ways = window.findChild<CompareWays*>();
        QVERIFY(ways);
        QCOMPARE(ways->domains(), (QList<int> { 0, 1 }));
        QCOMPARE(ways->domain(), 0);
        QCOMPARE(ways->maskText(QStringLiteral("streamer"), true), QStringLiteral("3"));
        ways->setDomain(1);
        QCOMPARE(ways->domain(), 1);
        QCOMPARE(ways->maskText(QStringLiteral("streamer"), false), QStringLiteral("7ff"));
        QCOMPARE(ways->maskText(QStringLiteral("streamer"), true), QStringLiteral("f0"));
        QVERIFY(ways->groups().contains(QStringLiteral("victim")));
        QVERIFY(!window.grab().isNull());
    }

    // A CDP session (code and data masks per group) against one without CDP: both forms are rows of their own, never
    // "absent" because the resource is named L3CODE/L3DATA instead of L3.
    void waysPageShowsCodeAndDataMasks()
    {
        using rdt::compare::DiffRow;
        using rdt::compare::Section;
        rdt::compare::Comparison c;
        auto ways = [](std::string group, std::string resource, std::string a, std::string b) {
            DiffRow r;
            r.section = Section::Allocation;
            r.item = std::move(resource);
            r.group = std::move(group);
            r.domain = 0;
            r.metric = "ways";
            r.textA = std::move(a);
            r.textB = std::move(b);
            return r;
        };
        c.rows.push_back(ways("victim", "L3CODE", "00f", ""));
        c.rows.push_back(ways("victim", "L3DATA", "7f0", ""));
        c.rows.push_back(ways("victim", "L3", "", "7ff"));
        DiffRow occ;
        occ.section = Section::Rdt;
        occ.item = occ.group = "victim";
        occ.domain = 0;
        occ.metric = "occupancy_mean";
        occ.a = 1e6;
        occ.b = 2e6;
        c.rows.push_back(occ);
        CompareWays page;
        page.resize(900, 320);
        page.setComparison(c);
        const QStringList shown = page.groups();
        QVERIFY2(shown.contains(QStringLiteral("victim (code)")), qPrintable(shown.join(u',')));
        QVERIFY(shown.contains(QStringLiteral("victim (data)")));
        QVERIFY(shown.contains(QStringLiteral("victim")));
        QCOMPARE(page.maskText(QStringLiteral("victim (code)"), false), QStringLiteral("f"));
        QCOMPARE(page.maskText(QStringLiteral("victim (data)"), false), QStringLiteral("7f0"));
        QCOMPARE(page.maskText(QStringLiteral("victim (code)"), true), QString()); // B has no CDP
        QCOMPARE(page.maskText(QStringLiteral("victim"), true), QStringLiteral("7ff"));
        QVERIFY(!page.grab().isNull());
    }

    void branchGraphColoursEdgesOfARealPerfDataFile()
    {
        const QString file = QStringLiteral(RDTSCOPE_TEST_DATA "/perf/propeller_sample_1.perfdata");
        CompareRequest req;
        req.loadA.symfs = req.loadB.symfs = { RDTSCOPE_TEST_DATA "/perf" };
        CompareSession session;
        session.load(file, QStringLiteral(RDTSCOPE_TEST_DATA "/perf/perf.data.branch-4.14"), req);
        session.waitForLoad();
        QVERIFY(session.hasResult());
        CompareGraphView graph;
        graph.setComparison(session.comparison(), 10);
        QCOMPARE(graph.edgeCount(), 10);
        QVERIFY(graph.scene()->items().size() > 20);
    }
};

QTEST_MAIN(TestCompareWindow)
#include "test_compare_window.moc"
