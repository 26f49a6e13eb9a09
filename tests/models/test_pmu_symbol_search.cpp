// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's perf.data import (models/PmuImport) and the CLI's (perfdata/PerfDataImport) find the profiled binary
// with the same search (perfdata/SymbolSearch): the fixture directory holds it under another name, so only its
// GNU build-id links it to the file. The GUI used to look by path only and showed addresses (issue #16 item 4).
#include "models/PmuImport.h"
#include "perfdata/PerfDataImport.h"

#include <QTest>

#include <algorithm>
#include <map>

class TestPmuSymbolSearch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void guiAndCliNameTheSameFunctionsByBuildId()
    {
        const std::string file = std::string(RDTSCOPE_TEST_DATA) + "/perf/propeller_sample_1.perfdata";
        const std::string dir = std::string(RDTSCOPE_TEST_DATA) + "/perf";
        rdt::perfdata::ImportOptions cliOptions;
        cliOptions.symfs = { dir };
        auto cli = rdt::perfdata::importPerfData(file, cliOptions);
        QVERIFY2(cli.ok(), cli.ok() ? "" : cli.error().toString().c_str());
        QVERIFY(cli->bySymbol.size() >= 2);

        rdt::pmu::PmuImportOptions guiOptions;
        guiOptions.symbolDirs = { dir };
        auto gui = rdt::pmu::importPerfData(file, guiOptions);
        QVERIFY2(gui.ok(), gui.ok() ? "" : gui.error().toString().c_str());
        // The GUI's busiest functions (its samples' IPs through its symbolizer) are the CLI's, by name and count.
        std::map<std::string, std::uint64_t> samplesByFunction = gui->otherFunctions;
        for (const auto& b : gui->branches)
            ++samplesByFunction[gui->symbols->resolve(b.pid, b.ip).function];
        std::vector<std::pair<std::uint64_t, std::string>> byCount;
        for (const auto& [function, samples] : samplesByFunction)
            byCount.emplace_back(samples, function);
        std::sort(byCount.rbegin(), byCount.rend());
        QVERIFY(byCount.size() >= 2);
        QCOMPARE(byCount[0].second, cli->bySymbol[0].symbol);
        QCOMPARE(byCount[0].second, std::string("main"));
        QCOMPARE(byCount[0].first, cli->bySymbol[0].samples);
        QCOMPARE(byCount[1].second, cli->bySymbol[1].symbol);
    }
};

QTEST_MAIN(TestPmuSymbolSearch)
#include "test_pmu_symbol_search.moc"
