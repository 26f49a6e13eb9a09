// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #42: `rdtscope-cli replay` and the GUI's replay of one session show the same ways, MiB and units, because
// both read engine::ReplayEngine's allocation layout. Sessions are recorded by the built rdtscope-cli on the default
// simulator, on `--preset epyc-genoa --scenario mba` and on a copy of the `full` fixture tree; each is replayed by the
// CLI (its "recorded layout:" lines) and by the GUI's replay source (the heatmap's cache line, the MB schema).
#include "EngineSource.h"
#include "FixtureTree.h"
#include "core/Units.h"
#include "models/AllocationModel.h"
#include "views/CacheWayHeatmap.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <string>

namespace {

/// Runs the CLI with `args`; its stderr, or the test fails (exit code other than 0, or no exit within a minute).
QString runCli(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(QStringLiteral(RDTSCOPE_CLI), args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
        QTest::qFail("rdtscope-cli did not finish within 60 s", __FILE__, __LINE__);
        return {};
    }
    const QString err = QString::fromUtf8(p.readAllStandardError());
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        QTest::qFail(qPrintable(QStringLiteral("rdtscope-cli %1 failed: %2").arg(args.join(QLatin1Char(' ')), err)),
            __FILE__, __LINE__);
    return err;
}

/// The CLI's "recorded layout:" block: resource name -> its line.
std::map<std::string, std::string> layoutLines(const QString& stderrText)
{
    std::map<std::string, std::string> out;
    bool in = false;
    for (const QString& line : stderrText.split(QLatin1Char('\n'))) {
        if (line == QStringLiteral("recorded layout:")) {
            in = true;
            continue;
        }
        if (!in) continue;
        if (!line.startsWith(QStringLiteral("  "))) break;
        const std::string text = line.trimmed().toStdString();
        out[text.substr(0, text.find(':'))] = text;
    }
    return out;
}

/// How the CLI words the unit and bounds the GUI's MB editor uses.
std::string cliWordsFor(const BandwidthSchema& b)
{
    const auto n = [](unsigned v) { return std::to_string(v); };
    if (b.unit == "%") return "percent " + n(b.minValue) + ".." + n(b.maxValue) + " in steps of " + n(b.granularity);
    if (b.unit == "GB/s") return "1/8 GB/s " + n(b.minValue) + ".." + n(b.maxValue);
    if (b.unit == "level") return "throttle level " + n(b.minValue) + ".." + n(b.maxValue);
    if (b.unit == "MiBps") return "MiB/s (mba_MBps)";
    return "unknown unit " + b.unit;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestReplayCliGuiAgree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameWaysMibAndUnits_data()
    {
        QTest::addColumn<QStringList>("source");
        QTest::addColumn<QString>("l3"); // what both must say of the L3 (so a rule broken for both still fails)
        QTest::addColumn<QString>("mbUnit");
        QTest::newRow("default sim") << QStringList { QStringLiteral("--source"), QStringLiteral("sim") }
                                     << QStringLiteral("24.75 MiB|11 ways|CPUID.04H") << QStringLiteral("%");
        QTest::newRow("epyc-genoa mba") << QStringList { QStringLiteral("--source"), QStringLiteral("sim"),
            QStringLiteral("--preset"), QStringLiteral("epyc-genoa"), QStringLiteral("--scenario"),
            QStringLiteral("mba") } << QStringLiteral("32.00 MiB|16 ways|CPUID.8000001DH")
                                        << QStringLiteral("GB/s");
        // A copy of a tree: its 55 MiB from resctrl; ways only where this host's CPUID describes that cache.
        QTest::newRow("fixture tree") << QStringList { QStringLiteral("--source"), QStringLiteral("resctrl:TREE") }
                                      << QStringLiteral("55.00 MiB|20-bit") << QStringLiteral("%");
    }
    void sameWaysMibAndUnits()
    {
        QFETCH(QStringList, source);
        QFETCH(QString, l3);
        QFETCH(QString, mbUnit);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString tree = dir.filePath(QStringLiteral("tree"));
        QVERIFY(copyFixtureTree(QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full"), tree));
        source.replaceInStrings(QStringLiteral("TREE"), tree);
        const QString session = dir.filePath(QStringLiteral("s.rdts"));
        runCli(QStringList { QStringLiteral("record"), QStringLiteral("-o"), session, QStringLiteral("--duration"),
                   QStringLiteral("1") }
            + source);
        if (QTest::currentTestFailed()) return;
        const auto cli = layoutLines(runCli({ QStringLiteral("replay"), session, QStringLiteral("--csv") }));
        if (QTest::currentTestFailed()) return;

        auto bundle = openReplaySource(session);
        QVERIFY2(bundle, bundle ? "" : bundle.error().toString().c_str());
        auto state = bundle->readAllocation();
        QVERIFY2(state, state ? "" : state.error().toString().c_str());
        // Read writability: a replay is read-only, and says why.
        QVERIFY(!state->writable);
        QVERIFY2(contains(state->readOnlyReason, "replay"), state->readOnlyReason.c_str());
        QVERIFY(!bundle->writer);
        // The Machine page of a replay describes the recording's machine, not this host.
        QVERIFY(bundle->remoteMachine);
        QVERIFY2(bundle->remoteMachine->cpuidSource.contains(QStringLiteral("recorded")),
            qPrintable(bundle->remoteMachine->cpuidSource));

        QVERIFY(!state->caches.empty());
        QCOMPARE(cli.size(), state->caches.size() + state->bandwidths.size());
        for (const auto& c : state->caches) {
            QVERIFY2(cli.count(c.name), c.name.c_str());
            const std::string& line = cli.at(c.name);
            QVERIFY2(contains(line, std::to_string(c.cbmLength) + "-bit masks"), line.c_str());
            QVERIFY(c.cacheBytes > 0);
            QVERIFY2(contains(line,
                         ": " + std::to_string(c.cbmLength) + "-bit masks, "
                             + rdt::formatBytes(static_cast<double>(c.cacheBytes)) + " ("),
                line.c_str());
            if (c.ways > 0)
                QVERIFY2(contains(line, std::to_string(c.ways) + " ways (" + c.waysLeaf + ")"), line.c_str());
            else
                QVERIFY2(contains(line, "ways unknown"), line.c_str());
            if (c.name == "L3")
                for (const QString& part : l3.split(QLatin1Char('|')))
                    QVERIFY2(contains(line, part.toStdString()), line.c_str());
        }
        // The heatmap's line for its first cache says the same size and ways.
        AllocationModel model;
        model.setState(*state);
        CacheWayHeatmap heatmap;
        heatmap.setModel(&model);
        const auto& first = state->caches.front();
        const std::string info = heatmap.cacheInfoText().toStdString();
        QVERIFY2(contains(info, rdt::formatBytes(static_cast<double>(first.cacheBytes))), info.c_str());
        if (first.ways > 0)
            QVERIFY2(contains(info, "(" + std::to_string(first.ways) + " ways, " + first.waysLeaf + ")"), info.c_str());
        else
            QVERIFY2(!contains(info, " ways"), info.c_str());

        QCOMPARE(state->bandwidths.size(), std::size_t(1));
        for (const auto& b : state->bandwidths) {
            QVERIFY2(cli.count(b.name), b.name.c_str());
            QVERIFY2(contains(cli.at(b.name), cliWordsFor(b)), (cli.at(b.name) + " vs " + cliWordsFor(b)).c_str());
        }
        QCOMPARE(QString::fromStdString(state->bandwidths[0].unit), mbUnit);
    }
};

QTEST_MAIN(TestReplayCliGuiAgree)
#include "test_replay_cli_gui_agree.moc"
