// SPDX-License-Identifier: GPL-3.0-or-later
// The call trees and the flame graph's data (PmuSession::callTree, CallTreeModel) against the branch call graph of
// the same range, on the simulated PMU (LBR call stacks) and on the perf.data fixtures that carry call stacks:
// perf.lbr.data (--call-graph lbr) and cpu-clock-fp-threads.perfdata (-g, two threads on two CPUs; oracle: perf
// script -F tid,cpu,sym on the same file, perf 6.1). Thread and CPU filters change the totals as perf counts them.
#include "models/CallTreeModel.h"
#include "models/PmuSession.h"
#include "pmu_fixtures.h"

#include "SimulatedPmuSession.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace rdt::pmu;

namespace {

bool import(PmuSession& s, const char* name, const QStringList& symbolDirs = {})
{
    QSignalSpy done(&s, &PmuSession::importFinished);
    s.openPerfData(pmutest::fixture(name), symbolDirs);
    if (!done.wait(60000)) return false;
    if (!done.at(0).at(0).toBool()) qWarning("%s", qPrintable(done.at(0).at(1).toString()));
    return done.at(0).at(0).toBool();
}

std::uint64_t rootChildren(const std::vector<CallTreeNode>& nodes)
{
    std::uint64_t n = 0;
    for (auto c : nodes[0].children)
        n += nodes[static_cast<std::size_t>(c)].inclusive;
    return n;
}

std::uint64_t firstLevel(const CallTreeReport& r, const std::string& function)
{
    for (auto c : r.bottomUp[0].children)
        if (r.bottomUp[static_cast<std::size_t>(c)].function == function)
            return r.bottomUp[static_cast<std::size_t>(c)].inclusive;
    return 0;
}

/// Both trees, both models and the flame graph's root hold `expected` samples.
void checkTotals(const CallTreeReport& r, std::uint64_t expected)
{
    QCOMPARE(r.samples, expected);
    QCOMPARE(r.topDown[0].inclusive, expected);
    QCOMPARE(r.bottomUp[0].inclusive, expected);
    QCOMPARE(rootChildren(r.topDown), expected);
    QCOMPARE(rootChildren(r.bottomUp), expected);
    std::uint64_t self = 0;
    for (const auto& n : r.topDown)
        self += n.self;
    QCOMPARE(self, expected); // every sample stops in one top-down node
    CallTreeModel topDown(CallTreeModel::Kind::TopDown), bottomUp(CallTreeModel::Kind::BottomUp);
    QAbstractItemModelTester t1(&topDown, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&bottomUp, QAbstractItemModelTester::FailureReportingMode::QtTest);
    topDown.setReport(r);
    bottomUp.setReport(r);
    QCOMPARE(topDown.totalSamples(), quint64 { expected });
    QCOMPARE(bottomUp.totalSamples(), quint64 { expected });
    std::uint64_t rows = 0;
    for (int i = 0; i < topDown.rowCount(); ++i)
        rows += topDown.index(i, CallTreeModel::InclusiveColumn).data(CallTreeModel::SortRole).toULongLong();
    QCOMPARE(rows, expected);
}

} // namespace

class TestPmuCallTrees : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void simulatedTreesTotalTheCallGraphOverAnyRange()
    {
        QObject owner;
        PmuSession* s = simulatedSession(&owner, 6);
        QCOMPARE(s->data().branchMode, BranchGraph::Mode::CallStack);
        QVERIFY(s->data().stackSources.whyNone().empty());
        const auto whole = s->branchGraph().samples;
        QVERIFY(whole > 0);
        checkTotals(s->callTree(), whole);
        // Bottom-up, the first level is where samples were taken: each function's self samples in the call graph.
        for (const auto& f : s->branchGraph().functions)
            QCOMPARE(firstLevel(s->callTree(), f.name), f.self);
        const double d = s->duration();
        s->setTimeRange(d * 0.5, d);
        s->waitForAggregation();
        const auto half = s->branchGraph().samples;
        QVERIFY(half > 0 && half < whole);
        checkTotals(s->callTree(), half);
        QCOMPARE(s->callTree().allSamples, half);
    }

    void simulatedThreadFilter()
    {
        QObject owner;
        PmuSession* s = simulatedSession(&owner, 4);
        const auto all = s->callTree().samples;
        QCOMPARE(s->callTree().threads.size(), std::size_t { 1 }); // the simulated program is one thread
        const auto tid = s->callTree().threads[0].tid;
        QCOMPARE(s->callTree().threads[0].samples, all);
        QVERIFY(s->callTree().cpuKnown());
        QSignalSpy changed(s, &PmuSession::stackFilterChanged);
        s->setStackFilter(tid, std::nullopt);
        QCOMPARE(changed.count(), 1);
        s->waitForAggregation();
        checkTotals(s->callTree(), all);
        s->setStackFilter(tid + 1, std::nullopt); // a thread that never ran
        s->waitForAggregation();
        checkTotals(s->callTree(), 0);
        QCOMPARE(s->branchGraph().samples, std::uint64_t { 0 }); // the call graph is narrowed the same way
        QCOMPARE(s->callTree().allSamples, all); // the choices stay
        s->setStackFilter(std::nullopt, 1); // the simulated samples are all on CPU 0
        s->waitForAggregation();
        checkTotals(s->callTree(), 0);
        s->setStackFilter(std::nullopt, std::nullopt);
        s->waitForAggregation();
        checkTotals(s->callTree(), all);
    }

    void lbrCallStackFileTotalsTheCallGraph()
    {
        PmuSession s;
        QVERIFY(import(s, "perf.lbr.data"));
        QCOMPARE(s.data().branchMode, BranchGraph::Mode::CallStack);
        QCOMPARE(s.branchGraph().samples, std::uint64_t { 29 }); // perf script counts 29 samples
        checkTotals(s.callTree(), 29);
        QVERIFY(!s.callTree().cpuKnown()); // sample_type has no CPU: the CPU filter has nothing to offer
        QCOMPARE(s.callTree().threads.size(), std::size_t { 1 });
        s.setStackFilter(std::nullopt, 0);
        s.waitForAggregation();
        checkTotals(s.callTree(), 0);
        QCOMPARE(s.branchGraph().samples, std::uint64_t { 0 });
    }

    void framePointerFileFiltersAsPerfCounts()
    {
        PmuSession s;
        QVERIFY(import(s, "cpu-clock-fp-threads.perfdata", { QStringLiteral(RDTSCOPE_TEST_DATA "/perf") }));
        QVERIFY(s.data().branches.empty());
        QCOMPARE(s.data().stacks.size(), std::size_t { 677 });
        QVERIFY(s.data().stackSources.whyNone().empty());
        const auto& all = s.callTree();
        checkTotals(all, 677);
        // perf script -F tid,cpu: thread 29268 has 3 samples on CPU 0 and 387 on CPU 1, thread 29269 159 and 128.
        QCOMPARE(all.threads.size(), std::size_t { 2 });
        QCOMPARE(all.threads[0].tid, 29268u);
        QCOMPARE(all.threads[0].samples, std::uint64_t { 390 });
        QCOMPARE(all.threads[1].samples, std::uint64_t { 287 });
        QCOMPARE(all.cpus.size(), std::size_t { 2 });
        QCOMPARE(all.cpus[0].samples, std::uint64_t { 162 });
        QCOMPARE(all.cpus[1].samples, std::uint64_t { 515 });
        // perf script -F tid,sym: the leaf functions of each thread.
        QCOMPARE(firstLevel(all, "leaf_mix"), std::uint64_t { 589 });
        QCOMPARE(firstLevel(all, "leaf_sum"), std::uint64_t { 87 });
        const std::vector<std::string> path { "start_thread", "worker_b", "middle_b", "leaf_mix" };
        QVERIFY2(all.findTopDown(path) > 0, "frame-pointer chains name every caller of fp_threads.c");

        s.setStackFilter(29268u, std::nullopt);
        s.waitForAggregation();
        checkTotals(s.callTree(), 390);
        QCOMPARE(firstLevel(s.callTree(), "leaf_mix"), std::uint64_t { 302 });
        QCOMPARE(firstLevel(s.callTree(), "leaf_sum"), std::uint64_t { 87 });
        s.setStackFilter(29269u, std::nullopt);
        s.waitForAggregation();
        checkTotals(s.callTree(), 287);
        QCOMPARE(firstLevel(s.callTree(), "leaf_sum"), std::uint64_t { 0 });
        s.setStackFilter(std::nullopt, 0u);
        s.waitForAggregation();
        checkTotals(s.callTree(), 162);
        s.setStackFilter(29268u, 1u);
        s.waitForAggregation();
        checkTotals(s.callTree(), 387);
        // The range narrows the same stacks: the first half of the recording holds fewer than all.
        s.setStackFilter(std::nullopt, std::nullopt);
        s.setTimeRange(0, s.duration() / 2);
        s.waitForAggregation();
        std::uint64_t expected = 0;
        for (const auto& st : s.data().stacks)
            expected += s.secondsOf(st.time) <= s.duration() / 2 ? 1u : 0u;
        QVERIFY(expected > 0 && expected < 677);
        checkTotals(s.callTree(), expected);
    }

    void recordingsWithoutStacksSayWhy()
    {
        PmuSession any;
        QVERIFY(import(any, "propeller_sample_1.perfdata")); // perf record -b: any-branch LBR
        QVERIFY(!any.data().branches.empty());
        checkTotals(any.callTree(), 0);
        const QString why = QString::fromStdString(any.data().stackSources.whyNone());
        QVERIFY2(why.contains(QStringLiteral("any-branch mode (perf record -b")), qPrintable(why));
        QVERIFY(why.contains(QStringLiteral("--call-graph lbr")));
        // The any-branch samples still offer their threads (and say the CPU was not recorded) to the call graph.
        QCOMPARE(any.callTree().threads.size(), std::size_t { 1 });
        QCOMPARE(any.callTree().threads[0].samples, std::uint64_t { pmutest::kPropellerSamples });
        QVERIFY(!any.callTree().cpuKnown());
        any.setStackFilter(any.callTree().threads[0].tid + 1, std::nullopt);
        any.waitForAggregation();
        QCOMPARE(any.branchGraph().samples, std::uint64_t { 0 });
        PmuSession plain;
        QVERIFY(import(plain, "cpu-clock-zstd.perfdata")); // perf record -e cpu-clock:u, no -g
        const QString none = QString::fromStdString(plain.data().stackSources.whyNone());
        QVERIFY2(none.contains(QStringLiteral("PERF_SAMPLE_CALLCHAIN")), qPrintable(none));
        QVERIFY(none.contains(QStringLiteral(" -g ")));
    }
};

QTEST_GUILESS_MAIN(TestPmuCallTrees)
#include "test_pmu_call_trees.moc"
