// SPDX-License-Identifier: GPL-3.0-or-later
// PMU GUI models: ::TmaModel, CallGraphModel, LatencyModel under QAbstractItemModelTester; PmuSession on the
// simulator (range filtering, latency filter) and on the two perf.data fixtures (oracles: perf report, decoder).
#include "engine/CaptureService.h"
#include "models/CallGraphModel.h"
#include "models/LatencyModel.h"
#include "models/PmuRecipeKind.h"
#include "models/PmuSession.h"
#include "models/TmaModel.h"
#include "pmu_fixtures.h"

#include "SimulatedPmuSession.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <sys/wait.h>
#include <unistd.h>

using namespace rdt::pmu;

namespace {

std::uint64_t selfOf(const BranchGraphReport& r, const std::string& name)
{
    for (const auto& f : r.functions)
        if (f.name == name) return f.self;
    return 0;
}

} // namespace

class TestPmuModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tmaTreeHasLevelTwoUnderLevelOne()
    {
        ::TmaModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0); // nothing measured: no rows, not zeros
        TmaBreakdown b;
        b.valid = true;
        b.level1 = { 0.4, 0.1, 0.2, 0.3 };
        m.setBreakdown(b);
        QCOMPARE(m.rowCount(), 4);
        QCOMPARE(m.rowCount(m.index(3, 0)), 0); // no level 2 measured
        b.level2.present = true;
        b.level2.memoryBound = 0.25;
        b.level2.coreBound = 0.05;
        m.setBreakdown(b);
        const QModelIndex be = m.index(3, 0);
        QCOMPARE(m.rowCount(be), 2);
        QCOMPARE(m.index(0, ::TmaModel::CategoryColumn, be).data().toString(), QStringLiteral("Memory bound"));
        QCOMPARE(m.index(0, ::TmaModel::FractionColumn, be).data(::TmaModel::FractionRole).toDouble(), 0.25);
        QCOMPARE(m.index(3, ::TmaModel::FractionColumn).data().toString(), QStringLiteral("30.0 %"));
        QVERIFY(m.index(1, ::TmaModel::ExplanationColumn).data().toString().contains(QStringLiteral("topdown.txt")));
        QCOMPARE(m.parent(m.index(1, 0, be)), be);
        // A measured level-2 node names its events for both generations that measure it (a Skylake capture's Heavy
        // operations is the microcode sequencer's share only); a derived node is only explained.
        const QModelIndex heavy = m.index(0, ::TmaModel::ExplanationColumn, m.index(0, 0));
        QVERIFY(!heavy.data().toString().contains(QStringLiteral("SPR")));
        QVERIFY(heavy.data(Qt::ToolTipRole).toString().contains(QStringLiteral("topdown-heavy-ops")));
        QVERIFY(heavy.data(Qt::ToolTipRole).toString().contains(QStringLiteral("IDQ.MS_UOPS")));
        const QModelIndex light = m.index(1, ::TmaModel::ExplanationColumn, m.index(0, 0));
        QCOMPARE(light.data(Qt::ToolTipRole).toString(), light.data().toString());
        b.level1.backendBound = 0.5; // value change only: dataChanged, the tester checks it
        m.setBreakdown(b);
        QCOMPARE(m.index(3, ::TmaModel::FractionColumn).data(::TmaModel::FractionRole).toDouble(), 0.5);
    }

    void callGraphCallersAndCallees()
    {
        BranchGraphReport r;
        r.functions = { { "main", "a", 1, 10 }, { "f", "a", 4, 6 }, { "g", "a", 2, 2 }, { "h", "a", 0, 0 } };
        auto edge = [](const char* a, const char* b, std::uint64_t n, std::uint64_t mis, bool call = true) {
            FunctionEdge e;
            e.from = a;
            e.to = b;
            e.kind = call ? rdt::pmu::EdgeKind::Call : rdt::pmu::EdgeKind::Jump;
            e.stats.count = n;
            e.stats.mispredicts = mis;
            e.stats.cycles = n * 3;
            e.stats.cycleSamples = n;
            return e;
        };
        r.edges = { edge("main", "f", 6, 3), edge("f", "g", 2, 0), edge("f", "f", 9, 1, false), edge("g", "h", 1, 0) };
        CallGraphModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setReport(r);
        QCOMPARE(m.rowCount(), 4);
        QCOMPARE(m.index(0, CallGraphModel::MispredictColumn).data().toString(), QStringLiteral("50.0 %"));
        QCOMPARE(m.index(0, CallGraphModel::AvgCyclesColumn).data(CallGraphModel::SortRole).toDouble(), 3.0);
        m.setMode(CallGraphModel::Mode::Callees, QStringLiteral("f"));
        QCOMPARE(m.rowCount(), 1); // f -> g; the loop inside f is not a callee
        QCOMPARE(m.index(0, CallGraphModel::ToColumn).data().toString(), QStringLiteral("g"));
        m.setMode(CallGraphModel::Mode::Callers, QStringLiteral("f"));
        QCOMPARE(m.rowCount(), 1);
        QCOMPARE(m.index(0, CallGraphModel::FromColumn).data().toString(), QStringLiteral("main"));
        QCOMPARE(m.neighbourhood(QStringLiteral("f"), 1),
            (QSet<QString> { QStringLiteral("main"), QStringLiteral("f"), QStringLiteral("g") }));
        QCOMPARE(m.neighbourhood(QStringLiteral("f"), 2),
            (QSet<QString> { QStringLiteral("main"), QStringLiteral("f"), QStringLiteral("g"), QStringLiteral("h") }));
        QCOMPARE(m.findFunction(QStringLiteral("g")), 2);
        QCOMPARE(m.findFunction(QStringLiteral("nope")), -1);

        // Call-stack LBRs carry no cycle counts: both cycle columns say so, neither shows a zero.
        for (auto& e : r.edges) {
            e.stats.cycles = 0;
            e.stats.cycleSamples = 0;
        }
        m.setMode(CallGraphModel::Mode::Edges, QString());
        m.setReport(r);
        QCOMPARE(m.index(0, CallGraphModel::AvgCyclesColumn).data().toString(), QStringLiteral("n/a"));
        QCOMPARE(m.index(0, CallGraphModel::TotalCyclesColumn).data().toString(), QStringLiteral("n/a"));
    }

    void simulatedSessionFeedsEveryModel()
    {
        QObject owner;
        PmuSession* s = simulatedSession(&owner);
        QVERIFY(!s->data().branches.empty());
        QVERIFY(!s->data().loads.empty());
        QCOMPARE(s->data().tma.size(), std::size_t { 4 });
        QVERIFY(s->sourceLabel().startsWith(QStringLiteral("Simulated")));
        QVERIFY(s->rangeTma().valid);
        QVERIFY(s->rangeTma().level2.present);

        ::TmaModel tma;
        CallGraphModel graph;
        LatencyModel functions(LatencyModel::Kind::Functions), lines(LatencyModel::Kind::Lines);
        QAbstractItemModelTester t1(&tma, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&graph, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(&functions, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(&lines, QAbstractItemModelTester::FailureReportingMode::QtTest);
        tma.setBreakdown(s->rangeTma());
        graph.setReport(s->branchGraph());
        functions.setReport(s->latencyTables());
        lines.setReport(s->latencyTables());
        QCOMPARE(tma.rowCount(), 4);
        QVERIFY(graph.rowCount() > 0);
        QVERIFY(functions.rowCount() > 0);
        QVERIFY(lines.rowCount() > 0);
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), std::uint64_t { s->data().loads.size() });
    }

    void timeRangeFiltersEveryAggregate()
    {
        QObject owner;
        PmuSession* s = simulatedSession(&owner, 6);
        const double d = s->duration();
        QVERIFY(d > 0);
        const std::uint64_t allLoads = LatencyModel::histogramTotal(s->latency());
        const std::size_t allBranches = s->rangeBranchSamples();
        QSignalSpy spy(s, &PmuSession::aggregated);
        s->setTimeRange(d * 0.5, d); // the second half
        // The call returns at once; the aggregates change when the worker's job is applied.
        QVERIFY(s->aggregating());
        QCOMPARE(spy.count(), 0);
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), allLoads);
        QVERIFY(spy.wait(30000));
        QCOMPARE(spy.count(), 1);
        QVERIFY(!s->aggregating());
        std::uint64_t expectLoads = 0, expectBranches = 0;
        for (const auto& l : s->data().loads)
            expectLoads += s->secondsOf(l.time) >= d * 0.5 ? 1u : 0u;
        for (const auto& b : s->data().branches)
            expectBranches += s->secondsOf(b.time) >= d * 0.5 ? 1u : 0u;
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), expectLoads);
        QCOMPARE(s->rangeBranchSamples(), std::size_t(expectBranches));
        QVERIFY(expectLoads < allLoads && expectLoads > 0);
        QVERIFY(expectBranches < allBranches && expectBranches > 0);
        QCOMPARE(s->branchGraph().samples, expectBranches);
        // TMA: only intervals ending in the range count.
        std::size_t points = 0;
        for (const auto& p : s->data().tma)
            points += s->secondsOf(p.time) >= d * 0.5 ? 1u : 0u;
        QVERIFY(points > 0 && points < s->data().tma.size());
        s->setTimeRange(d + 1, d + 2); // nothing there
        s->waitForAggregation();
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), std::uint64_t { 0 });
        QVERIFY(!s->rangeTma().valid);
        s->clearTimeRange();
        s->waitForAggregation();
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), allLoads);
    }

    void rapidRangeChangesEndWithTheLastRange()
    {
        QObject owner;
        PmuSession* s = simulatedSession(&owner, 6);
        const double d = s->duration();
        auto loadsIn = [s](double from, double to) {
            std::uint64_t n = 0;
            for (const auto& l : s->data().loads) {
                const double t = s->secondsOf(l.time);
                n += t >= from && t <= to ? 1u : 0u;
            }
            return n;
        };
        QVERIFY(loadsIn(0, d * 0.3) != loadsIn(d * 0.6, d));
        QSignalSpy spy(s, &PmuSession::aggregated);
        const quint64 dropped = s->discardedAggregations();
        s->setTimeRange(0, d * 0.3); // starts a job
        s->setTimeRange(d * 0.6, d); // supersedes it before it can be applied
        QTRY_VERIFY_WITH_TIMEOUT(!s->aggregating(), 30000);
        QCOMPARE(spy.count(), 1); // the first job's result was never applied
        QCOMPARE(s->discardedAggregations(), dropped + 1);
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), loadsIn(d * 0.6, d));
        QCOMPARE(s->rangeFrom(), d * 0.6);
        // The models fed from the applied result pass the tester.
        CallGraphModel graph;
        LatencyModel functions(LatencyModel::Kind::Functions);
        QAbstractItemModelTester t1(&graph, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&functions, QAbstractItemModelTester::FailureReportingMode::QtTest);
        graph.setReport(s->branchGraph());
        functions.setReport(s->latencyTables());
        std::uint64_t branches = 0;
        for (const auto& b : s->data().branches)
            branches += s->secondsOf(b.time) >= d * 0.6 && s->secondsOf(b.time) <= d ? 1u : 0u;
        QCOMPARE(s->branchGraph().samples, branches);
        QCOMPARE(functions.rowCount() > 0, loadsIn(d * 0.6, d) > 0);
    }

    void stepsWaitForTheJobReadingTheData()
    {
        // A simulation step while a job reads the data is deferred, not lost and not racing the worker.
        QObject owner;
        PmuSession* s = simulatedSession(&owner, 2);
        const std::size_t tma = s->data().tma.size();
        s->setTimeRange(0, s->duration());
        QVERIFY(s->aggregating());
        s->stepSimulation();
        s->stepSimulation();
        QCOMPARE(s->data().tma.size(), tma); // deferred while the worker reads it
        s->waitForAggregation();
        QCOMPARE(s->data().tma.size(), tma + 2);
        QCOMPARE(LatencyModel::histogramTotal(s->latency()),
            std::uint64_t(std::count_if(s->data().loads.begin(), s->data().loads.end(), [s](const PmuLoadSample& l) {
                const double t = s->secondsOf(l.time);
                return t >= s->rangeFrom() && t <= s->rangeTo();
            })));
    }

    void latencyFilterNarrowsTablesNotHistogram()
    {
        QObject owner;
        PmuSession* s = simulatedSession(&owner);
        const auto& h = s->latency();
        int bin = -1, level = -1;
        std::uint64_t best = 0;
        for (int b = 0; b < LatencyModel::kBins; ++b)
            for (int l = 0; l < LatencyModel::kLevels; ++l)
                if (LatencyModel::binCount(h, b, l) > best) {
                    best = LatencyModel::binCount(h, b, l);
                    bin = b;
                    level = l;
                }
        QVERIFY(best > 0);
        const std::uint64_t total = LatencyModel::histogramTotal(h);
        s->setLatencyFilter(bin, level);
        s->waitForAggregation();
        QCOMPARE(LatencyModel::histogramTotal(s->latency()), total);
        QCOMPARE(s->latencyTables().total.count, best);
        QCOMPARE(LatencyModel::histogramTotal(s->latencyTables()), best);
        s->setLatencyFilter(-1, level);
        s->waitForAggregation();
        QCOMPARE(s->latencyTables().total.count, LatencyModel::levelTotal(h, level));
        s->setLatencyFilter(-1, -1);
        s->waitForAggregation();
        QCOMPARE(s->latencyTables().total.count, total);
    }

    void liveCpuClockOnALaunchedCommand()
    {
        // The software cpu-clock recipe runs without a hardware PMU, so the live path is exercised on any machine
        // where perf_event_open is allowed for one's own processes (perf_event_paranoid <= 2).
        PmuSession s;
        PerfTarget target;
        target.command = { "/bin/sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done" };
        QString error;
        if (!s.startLive(PmuRecipeKind::CpuClock, target, 1000000, &error))
            QSKIP(qPrintable(QStringLiteral("perf_event_open refused here: ") + error));
        QVERIFY(s.live());
        QVERIFY(s.sourceLabel().startsWith(QStringLiteral("Live")));
        for (int i = 0; i < 400 && s.simulating(); ++i) {
            QTest::qWait(25);
            s.stepSimulation();
        }
        s.waitForAggregation();
        QVERIFY(!s.simulating()); // stopped by itself when the command exited
        QVERIFY(s.data().otherSamples > 0); // cpu-clock samples: real, counted, never shown as LBR or loads
        QVERIFY(s.data().branches.empty());
        QVERIFY(s.data().loads.empty());
    }

    void liveLaunchedProgramIsNamedAsTheCliNamesIt()
    {
        // The GUI's live capture and the capture service the CLI uses name the functions of the same launched
        // program alike (records' mmaps, /proc/PID/maps, kallsyms: engine/TargetSymbols.h). cpu-clock needs no
        // hardware PMU, so this runs wherever perf_event_open is allowed for one's own processes.
        PmuSession s;
        PerfTarget target;
        target.command = { PMU_LIVE_TARGET, "0.6" };
        QString error;
        if (!s.startLive(PmuRecipeKind::CpuClock, target, 50, &error))
            QSKIP(qPrintable(QStringLiteral("perf_event_open refused here: ") + error));
        for (int i = 0; i < 400 && s.simulating(); ++i) {
            QTest::qWait(25);
            s.stepSimulation();
        }
        s.waitForAggregation();
        QVERIFY(!s.simulating());
        const auto& gui = s.data().otherFunctions;
        QVERIFY2(gui.count("rdtscope_live_inner"), "the GUI names the program's hot function");

        rdt::engine::ServiceOptions so;
        so.openRdt = false;
        auto svc = rdt::engine::CaptureService::open(so);
        QVERIFY(svc.ok());
        rdt::engine::PmuRequest request;
        request.kind = rdt::engine::PmuCaptureKind::CpuClock;
        request.command = target.command;
        const auto started = (*svc)->startPmu(request);
        QVERIFY2(started.result.ok, started.result.toString().c_str());
        for (int i = 0; i < 400 && !(*svc)->pmuFinished(started.info.id); ++i) {
            QTest::qWait(25);
            QVERIFY((*svc)->pumpPmu(started.info.id).ok);
        }
        QVERIFY((*svc)->stopPmu(started.info.id).ok);
        auto report = (*svc)->pmuReport(started.info.id, 10);
        QVERIFY(report.ok());
        QVERIFY(!report->hotFunctions.empty());
        // Only the program's own functions are compared: the two captures are two runs, and on a loaded machine
        // kernel functions (scheduler, timer) reach a few tens of samples in one run and not in the other.
        const auto ownCode = [](const std::string& name) { return name.rfind("rdtscope_live_", 0) == 0; };
        std::string guiTop;
        std::uint64_t guiTopCount = 0;
        for (const auto& [name, count] : gui)
            if (ownCode(name) && count > guiTopCount) {
                guiTop = name;
                guiTopCount = count;
            }
        std::string engineTop;
        std::uint64_t engineTopCount = 0;
        for (const auto& f : report->hotFunctions)
            if (ownCode(f.name) && f.self > engineTopCount) {
                engineTop = f.name;
                engineTopCount = f.self;
            }
        // The program spends nearly all its time in one function: both name it first.
        QCOMPARE(QString::fromStdString(guiTop), QString::fromStdString(engineTop));
        QCOMPARE(QString::fromStdString(engineTop), QStringLiteral("rdtscope_live_inner"));
        // Every function of the program the engine named with more than a few samples is named by the GUI too.
        for (const auto& f : report->hotFunctions)
            if (ownCode(f.name) && f.self >= 20) QVERIFY2(gui.count(f.name), f.name.c_str());
    }

    void liveAttachedProcessIsNamedFromProcMaps()
    {
        // Attached late, a process sends no MMAP records for code it mapped before: only /proc/PID/maps names it.
        const pid_t child = ::fork();
        if (child == 0) {
            ::execl(PMU_LIVE_TARGET, PMU_LIVE_TARGET, "1.2", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        QVERIFY(child > 0);
        QTest::qWait(150); // let it exec and start spinning
        PmuSession s;
        PerfTarget target;
        target.pids = { child };
        QString error;
        const bool started = s.startLive(PmuRecipeKind::CpuClock, target, 50, &error);
        if (started) {
            for (int i = 0; i < 20; ++i) {
                QTest::qWait(25);
                s.stepSimulation();
            }
            s.stopSimulation();
            s.waitForAggregation();
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        if (!started) QSKIP(qPrintable(QStringLiteral("perf_event_open refused here: ") + error));
        QVERIFY(s.data().otherSamples > 0);
        QVERIFY2(s.data().otherFunctions.count("rdtscope_live_inner"), "named through /proc/PID/maps");
    }

    void liveHardwareRecipeExplainsWhyNot()
    {
        const auto refusal = pmutest::engineRefusal(rdt::engine::PmuCaptureKind::All, true);
        if (refusal.empty()) QSKIP("this machine has a usable core PMU");
        PmuSession s;
        PerfTarget target;
        target.systemWide = true;
        QString error;
        QVERIFY(!s.startLive(PmuRecipeKind::All, target, 250, &error));
        QVERIFY(error.contains(QString::fromStdString(refusal).left(30)));
        QVERIFY(!s.live());
        QVERIFY(s.data().empty());
    }

    void propellerHottestFunctionMatchesPerfReport()
    {
        QTemporaryDir dir;
        QVERIFY(pmutest::makeSymbolDir(dir));
        PmuSession s;
        QSignalSpy done(&s, &PmuSession::importFinished);
        s.openPerfData(pmutest::fixture("propeller_sample_1.perfdata"), { dir.path() });
        QVERIFY(done.wait(60000));
        QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
        QCOMPARE(s.data().branches.size(), std::size_t { pmutest::kPropellerSamples });
        QCOMPARE(s.data().branchMode, BranchGraph::Mode::AnyBranch);
        const auto& fns = s.branchGraph().functions;
        QVERIFY(!fns.empty());
        std::uint64_t maxSelf = 0;
        std::string hottest;
        for (const auto& f : fns)
            if (f.self > maxSelf) {
                maxSelf = f.self;
                hottest = f.name;
            }
        QCOMPARE(QString::fromStdString(hottest), QString::fromLatin1(pmutest::kPropellerHottest));
        QCOMPARE(maxSelf, std::uint64_t { pmutest::kPropellerHottestSamples });
        QVERIFY(selfOf(s.branchGraph(), "compute_flag") > 0);
    }

    void importCancelLeavesDataAlone()
    {
        PmuSession s;
        QSignalSpy done(&s, &PmuSession::importFinished);
        QSignalSpy progress(&s, &PmuSession::importProgress);
        s.openPerfData(pmutest::fixture("perf.data.weight_struct"));
        s.cancelImport();
        QVERIFY(done.wait(60000));
        // Either the cancel came in time (an error saying so) or the file was already read; never half-loaded.
        if (!done.at(0).at(0).toBool()) {
            QVERIFY(done.at(0).at(1).toString().contains(QStringLiteral("cancel")));
            QVERIFY(s.data().empty());
        } else {
            QVERIFY(!s.data().loads.empty());
        }
    }

    void weightStructHistogramMatchesDecoder()
    {
        const QString file = pmutest::fixture("perf.data.weight_struct");
        std::uint64_t samples = 0;
        const auto levels = pmutest::decoderLevels(file, &samples);
        QVERIFY(samples > 0);
        PmuSession s;
        QSignalSpy done(&s, &PmuSession::importFinished);
        s.openPerfData(file);
        QVERIFY(done.wait(60000));
        QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
        QCOMPARE(LatencyModel::histogramTotal(s.latency()), samples);
        for (MemLevel l : { MemLevel::L1, MemLevel::Lfb, MemLevel::L2, MemLevel::L3 }) {
            const auto it = levels.find(l);
            QCOMPARE(LatencyModel::levelTotal(s.latency(), static_cast<int>(l)), it == levels.end() ? 0 : it->second);
        }
        QVERIFY(LatencyModel::levelTotal(s.latency(), static_cast<int>(MemLevel::L1)) > 0);
        LatencyModel lines(LatencyModel::Kind::Lines);
        QAbstractItemModelTester tester(&lines, QAbstractItemModelTester::FailureReportingMode::QtTest);
        lines.setReport(s.latencyTables());
        QVERIFY(lines.rowCount() > 0);
        QVERIFY(lines.index(0, LatencyModel::KeyColumn).data().toString().startsWith(QStringLiteral("0x")));
    }
};

QTEST_GUILESS_MAIN(TestPmuModels)
#include "test_pmu_models.moc"
