// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #42 item 3: one recorder (engine/EngineRecorder.h) for every front end. A session the GUI's Record button
// writes and one `rdtscope-cli record` writes of the same simulated scenario have the same metadata, interval,
// machine, scenario markers and recorded allocation state: the occupancy-lag scenario's set-up at 0 s and its
// scripted mask change at 5 s.
#include "EngineSource.h"
#include "MainWindow.h"
#include "session/SessionReader.h"
#include "views/TimelineView.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

constexpr std::uint64_t kSec = 1'000'000'000;
constexpr std::uint64_t kHorizonNs = 6 * kSec; ///< both sessions reach this simulated time; compared up to it

using MarkerKey = std::tuple<std::uint64_t, std::string, std::string>;

std::vector<MarkerKey> markersUntil(const rdt::session::SessionReader& r, std::uint64_t untilNs)
{
    std::vector<MarkerKey> out;
    for (const auto& m : r.markers())
        if (m.timeNs <= untilNs) out.emplace_back(m.timeNs, m.kind, m.text);
    std::sort(out.begin(), out.end());
    return out;
}

/// Every allocation value recorded up to `untilNs` (who and when aside: the two front ends look at different times).
std::set<std::tuple<std::string, std::string, int, std::string>> allocationsUntil(
    const rdt::session::SessionReader& r, std::uint64_t untilNs)
{
    std::set<std::tuple<std::string, std::string, int, std::string>> out;
    for (const auto& a : r.allocations())
        if (a.ok && a.timeNs <= untilNs) out.emplace(a.group, a.resource, a.domain, a.newValue);
    return out;
}

} // namespace

class RecordingCliGuiAgree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameScenarioSameSession()
    {
        QTemporaryDir dir;
        const QString cliPath = dir.filePath(QStringLiteral("cli.rdts"));
        const QString guiPath = dir.filePath(QStringLiteral("gui.rdts"));

        QProcess cli;
        cli.start(QStringLiteral(RDTSCOPE_CLI),
            { QStringLiteral("record"), QStringLiteral("-o"), cliPath, QStringLiteral("--source"),
                QStringLiteral("sim"), QStringLiteral("--scenario"), QStringLiteral("occupancy-lag"),
                QStringLiteral("--duration"), QStringLiteral("7") });
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());

        {
            auto sim = openEngineSource("sim", "occupancy-lag", 10.0);
            QVERIFY2(sim.ok(), sim.ok() ? "" : sim.error().toString().c_str());
            MainWindow w;
            w.setSource(std::move(sim.value()));
            QString error;
            QVERIFY2(w.startRecording(guiPath, &error), qPrintable(error));
            // The GUI's simulated machine runs with the wall clock: past the horizon after about 6 s.
            QTRY_VERIFY_WITH_TIMEOUT(
                w.timelines()->plottedPoints(QStringLiteral("scan"), Metric::Occupancy) >= 66, 90000);
            QVERIFY2(w.stopRecording(&error), qPrintable(error));
        }

        auto c = rdt::session::SessionReader::open(cliPath.toStdString());
        auto g = rdt::session::SessionReader::open(guiPath.toStdString());
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().toString().c_str());
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().toString().c_str());
        const auto& cm = c.value()->meta();
        const auto& gm = g.value()->meta();
        QCOMPARE(gm.source, cm.source);
        QCOMPARE(gm.source, std::string("sim:occupancy-lag"));
        QCOMPARE(gm.scenario, cm.scenario);
        QCOMPARE(gm.simulated, cm.simulated);
        QVERIFY(gm.simulated);
        QCOMPARE(gm.timeIsSimulated, cm.timeIsSimulated);
        QCOMPARE(gm.intervalNs, cm.intervalNs); // the engine's interval, both at 10 Hz
        QCOMPARE(gm.intervalNs, std::uint64_t(100'000'000));
        QCOMPARE(gm.host, cm.host);
        QCOMPARE(gm.kernel, cm.kernel);
        QVERIFY(gm.commandLine.rfind("rdtscope-cli", 0) != 0); // who made it differs, and says so
        QVERIFY(cm.commandLine.rfind("rdtscope-cli record", 0) == 0);
        QCOMPARE(g.value()->machine().description, c.value()->machine().description);
        QCOMPARE(g.value()->machine().topology, c.value()->machine().topology);
        QCOMPARE(g.value()->machine().cpuidJson, c.value()->machine().cpuidJson);

        // The scenario's markers, on the simulated clock both sessions share.
        const auto cliMarkers = markersUntil(*c.value(), kHorizonNs);
        const auto guiMarkers = markersUntil(*g.value(), kHorizonNs);
        QCOMPARE(guiMarkers, cliMarkers);
        bool maskChange = false;
        for (const auto& [t, kind, text] : cliMarkers)
            maskChange
                = maskChange || (t == 5 * kSec && kind == "scenario" && text.find("L3:0=003") != std::string::npos);
        QVERIFY(maskChange);

        // And the state a replay seeks through: the initial allocations and the scripted write.
        const auto cliAlloc = allocationsUntil(*c.value(), kHorizonNs);
        QCOMPARE(allocationsUntil(*g.value(), kHorizonNs), cliAlloc);
        QVERIFY(cliAlloc.count({ "scan", "L3", 0, "3" }) == 1);
    }
};

QTEST_MAIN(RecordingCliGuiAgree)
#include "test_recording_cli_gui_agree.moc"
