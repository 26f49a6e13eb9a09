// SPDX-License-Identifier: GPL-3.0-or-later
// openEngineSource fills the heatmap's way counts (AllocationStateOptions::ways) from CPUID.04H of the machine
// the source controls: the simulated CPU's own CPUID for "sim", so the L3 column says "of 11 ways" there too;
// a replayed session takes them from its recorded CPUID snapshot.
#include "EngineSource.h"
#include "ReplaySourceAdapter.h"
#include "models/EngineAllocation.h"
#include "platform/CpuidDump.h"
#include "session/SessionWriter.h"

#include <QTemporaryDir>

#include <QTest>

class TestEngineSourceWays : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void simulatedSourceReportsItsOwnWays()
    {
        auto bundle = openEngineSource("sim", "noisy-neighbour", 10.0);
        QVERIFY2(bundle, bundle ? "" : bundle.error().toString().c_str());
        auto state = bundle->readAllocation();
        QVERIFY2(state, state ? "" : state.error().toString().c_str());
        QVERIFY(!state->caches.empty());
        int checked = 0;
        for (const auto& c : state->caches) {
            QVERIFY2(c.ways > 0, c.name.c_str()); // the info line can say "N of W ways"
            QVERIFY(c.ways >= c.cbmLength); // a CBM bit stands for one way or more (SDM 20.19.4.2)
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    void replayTakesWaysFromTheRecordedCpuid()
    {
        // Recorded on a Xeon Gold 6154 (the InstLatx64 dump): 11-way L3, 16-way L2 (the dump's own text says so).
        auto table = rdt::loadCpuidDump(RDTSCOPE_TEST_DATA "/cpuid/GenuineIntel0050654_SkylakeXeon_CPUID5.txt");
        QVERIFY(table);
        QTemporaryDir dir;
        for (const bool withSnapshot : { true, false }) {
            const std::string path
                = dir.filePath(withSnapshot ? QStringLiteral("a.rdtsession") : QStringLiteral("b.rdtsession"))
                      .toStdString();
            rdt::session::SessionMeta meta;
            meta.startMonoNs = 1'000'000'000;
            meta.source = "test";
            meta.intervalNs = 100'000'000;
            rdt::session::MachineInfo machine;
            if (withSnapshot) machine.cpuidJson = rdt::cpuidTableToJson(*table);
            auto w = rdt::session::SessionWriter::create(path, meta, machine);
            QVERIFY2(w, w ? "" : w.error().toString().c_str());
            rdt::AllocationChanged c;
            c.timeNs = meta.startMonoNs;
            c.who = "test";
            c.resource = "L3";
            c.newValue = "7ff";
            c.ok = true;
            QVERIFY((*w)->addAllocation(c));
            for (std::uint64_t t : { meta.startMonoNs, meta.startMonoNs + 1'000'000'000 }) { // the session's span
                rdt::RdtSampleBatch b;
                b.timeNs = t;
                rdt::RdtSample sample;
                sample.timeNs = t;
                b.samples.push_back(sample);
                QVERIFY((*w)->addSamples(b));
            }
            QVERIFY((*w)->close());
            auto bundle = openReplaySource(QString::fromStdString(path));
            QVERIFY2(bundle, bundle ? "" : bundle.error().toString().c_str());
            auto state = bundle->readAllocation();
            QVERIFY(state);
            QCOMPARE(state->caches.size(), std::size_t(1));
            QCOMPARE(state->caches[0].name, std::string("L3"));
            QCOMPARE(state->caches[0].ways, withSnapshot ? 11 : 0); // no snapshot: unknown, never this host's
            // The cache's size comes from the same snapshot (the 6154's 24.75 MiB L3), not 0 B per bit.
            QCOMPARE(state->caches[0].cacheBytes, withSnapshot ? std::uint64_t { 25952256 } : std::uint64_t { 0 });
        }
    }
};

QTEST_GUILESS_MAIN(TestEngineSourceWays)
#include "test_engine_source_ways.moc"
