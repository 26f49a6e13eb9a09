// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's PMU pages and the CLI's pmu commands see one capture alike: the GUI keeps the engine's batches
// (decoded samples and the engine's names, PmuRequest::keepSamples) and aggregates them itself; the engine's report
// is what the CLI prints. Over one capture both must give the same functions with the same counts, including code
// that was mapped before the capture started (named only through /proc/PID/maps in the engine).
#include "engine/CaptureService.h"
#include "models/PmuCaptureRun.h"
#include "models/PmuSession.h"

#include <QTest>

#include <map>
#include <sys/wait.h>
#include <unistd.h>

using namespace rdt::pmu;
namespace engine = rdt::engine;

namespace {

std::shared_ptr<engine::CaptureService> pmuService()
{
    engine::ServiceOptions so;
    so.openRdt = false;
    auto svc = engine::CaptureService::open(so);
    return svc ? std::shared_ptr<engine::CaptureService>(std::move(*svc)) : nullptr;
}

/// Runs a simulated capture of `kind` for `pumps` slices, keeping samples; the data the GUI would hold and the
/// report the CLI would print.
std::pair<PmuData, engine::PmuReport> simulatedCapture(engine::CaptureService& svc, engine::PmuCaptureKind kind)
{
    engine::PmuRequest request;
    request.kind = kind;
    request.simulated = true;
    request.keepSamples = true;
    const auto started = svc.startPmu(request);
    if (!started.result.ok) qFatal("simulated capture: %s", started.result.toString().c_str());
    PmuData data;
    if (kind == engine::PmuCaptureKind::LbrCallStack) data.branchMode = BranchGraph::Mode::CallStack;
    for (int i = 0; i < 30; ++i)
        (void)svc.pumpPmu(started.info.id);
    (void)svc.stopPmu(started.info.id);
    for (const auto& b : svc.drainPmuBatches())
        appendBatch(data, b, { 0 });
    auto report = svc.pmuReport(started.info.id, 20);
    if (!report) qFatal("report: %s", report.error().toString().c_str());
    return { std::move(data), std::move(*report) };
}

} // namespace

class TestPmuEnginePath : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void branchGraphMatchesTheEngineReport()
    {
        auto svc = pmuService();
        QVERIFY(svc);
        auto [data, report] = simulatedCapture(*svc, engine::PmuCaptureKind::LbrCallStack);
        QVERIFY(report.branches);
        QVERIFY(report.branches->samples > 100);
        QCOMPARE(static_cast<std::uint64_t>(data.branches.size()), report.branches->samples);
        PmuSession s;
        s.setData(std::move(data));
        s.waitForAggregation();
        const auto& gui = s.branchGraph();
        QCOMPARE(gui.samples, report.branches->samples);
        QCOMPARE(gui.functions.size(), report.branches->functions.size());
        for (std::size_t i = 0; i < gui.functions.size(); ++i) {
            QCOMPARE(QString::fromStdString(gui.functions[i].name),
                QString::fromStdString(report.branches->functions[i].name));
            QCOMPARE(gui.functions[i].self, report.branches->functions[i].self);
            QCOMPARE(gui.functions[i].inclusive, report.branches->functions[i].inclusive);
        }
        QVERIFY(!gui.functions.empty());
        QVERIFY(gui.functions.front().name.find("0x") == std::string::npos); // named, not an address
    }

    void loadLatencyMatchesTheEngineReport()
    {
        auto svc = pmuService();
        QVERIFY(svc);
        auto [data, report] = simulatedCapture(*svc, engine::PmuCaptureKind::LoadLatency);
        QVERIFY(report.loads);
        QVERIFY(report.loads->total.count > 100);
        PmuSession s;
        s.setData(std::move(data));
        s.waitForAggregation();
        QCOMPARE(s.latency().total.count, report.loads->total.count);
        QCOMPARE(s.latency().histogram, report.loads->histogram);
        QVERIFY(!report.loads->functions.empty());
        for (std::size_t i = 0; i < std::min<std::size_t>(5, report.loads->functions.size()); ++i)
            QCOMPARE(QString::fromStdString(s.latency().functions.at(i).key),
                QString::fromStdString(report.loads->functions[i].key));
    }

    void attachedProcessNamedAsTheEngineReportNamesIt()
    {
        // Attached late, the process sends no MMAP record for code mapped before: the engine names it from
        // /proc/PID/maps, and the GUI shows the engine's names, sample for sample.
        const pid_t child = ::fork();
        if (child == 0) {
            ::execl(PMU_LIVE_TARGET, PMU_LIVE_TARGET, "1.2", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        QVERIFY(child > 0);
        QTest::qWait(150); // let it exec and start spinning
        auto svc = pmuService();
        QVERIFY(svc);
        PmuSession s;
        s.setEngine(svc);
        PerfTarget target;
        target.pids = { child };
        QString error;
        const bool started = s.startLive(PmuRecipeKind::CpuClock, target, 1000000, &error);
        if (started) {
            for (int i = 0; i < 20; ++i) {
                QTest::qWait(25);
                s.waitForAggregation();
                s.stepSimulation();
            }
            s.stopSimulation();
            s.waitForAggregation();
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        if (!started) QSKIP(qPrintable(QStringLiteral("perf_event_open refused here: ") + error));
        auto report = svc->pmuReport(1, 1000); // the session's capture is the service's first
        QVERIFY(report.ok());
        std::map<std::string, std::uint64_t> engineByName;
        std::uint64_t engineTotal = 0;
        for (const auto& f : report->hotFunctions) {
            engineByName[f.name] += f.self;
            engineTotal += f.self;
        }
        QVERIFY(engineTotal > 0);
        QCOMPARE(s.data().otherSamples, engineTotal);
        QVERIFY2(s.data().otherFunctions.count("rdtscope_live_inner"), "named through /proc/PID/maps");
        QCOMPARE(s.data().otherFunctions, engineByName);
    }
};

QTEST_MAIN(TestPmuEnginePath)
#include "test_pmu_engine_path.moc"
