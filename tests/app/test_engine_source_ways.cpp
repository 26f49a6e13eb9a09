// SPDX-License-Identifier: GPL-3.0-or-later
// openEngineSource fills the heatmap's way counts (AllocationStateOptions::ways) from CPUID.04H of the machine
// the source controls: the simulated CPU's own CPUID for "sim", so the L3 column says "of 11 ways" there too;
// a replayed session takes them from its recorded CPUID snapshot, and its recorded bandwidth values come with their
// control (MB percent steps from the snapshot, MiBps for mba_MBps values).
#include "EngineSource.h"
#include "models/EngineAllocation.h"
#include "platform/CpuidDump.h"
#include "session/SessionWriter.h"
#include "sim/SimCpuid.h"

#include <QTemporaryDir>

#include <string>
#include <utility>
#include <vector>

#include <QTest>

namespace {
/// A two-second session with these allocation changes at its start (and the CPUID snapshot and resctrl's topology
/// text when given).
void writeSession(const std::string& path, const std::string& cpuidJson,
    const std::vector<std::pair<std::string, std::string>>& changes, const std::string& topology = {})
{
    rdt::session::SessionMeta meta;
    meta.startMonoNs = 1'000'000'000;
    meta.source = "test";
    meta.intervalNs = 100'000'000;
    rdt::session::MachineInfo machine;
    machine.cpuidJson = cpuidJson;
    machine.topology = topology;
    auto w = rdt::session::SessionWriter::create(path, meta, machine);
    QVERIFY2(w, w ? "" : w.error().toString().c_str());
    for (const auto& [resource, value] : changes) {
        rdt::AllocationChanged c;
        c.timeNs = meta.startMonoNs;
        c.who = "test";
        c.resource = resource;
        c.newValue = value;
        c.ok = true;
        QVERIFY((*w)->addAllocation(c));
    }
    for (std::uint64_t t : { meta.startMonoNs, meta.startMonoNs + 1'000'000'000 }) { // the session's span
        rdt::RdtSampleBatch b;
        b.timeNs = t;
        rdt::RdtSample sample;
        sample.timeNs = t;
        b.samples.push_back(sample);
        QVERIFY((*w)->addSamples(b));
    }
    QVERIFY((*w)->close());
}
/// The allocation a replay of `path` shows at its start (fails the test when it cannot be opened or read).
void replayAllocation(const std::string& path, AllocationState& out)
{
    auto bundle = openReplaySource(QString::fromStdString(path));
    QVERIFY2(bundle, bundle ? "" : bundle.error().toString().c_str());
    auto state = bundle->readAllocation();
    QVERIFY2(state, state ? "" : state.error().toString().c_str());
    out = std::move(*state);
}

/// writeSession, then the allocation its replay shows at the start; false (the test failed) when either failed.
bool replayOf(const std::string& path, const std::string& cpuidJson,
    const std::vector<std::pair<std::string, std::string>>& changes, AllocationState& out,
    const std::string& topology = {})
{
    writeSession(path, cpuidJson, changes, topology);
    if (QTest::currentTestFailed()) return false;
    replayAllocation(path, out);
    return !QTest::currentTestFailed();
}
} // namespace

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
            AllocationState state;
            if (!replayOf(path, withSnapshot ? rdt::cpuidTableToJson(*table) : std::string(),
                    { { "L3", "7ff" }, { "MB", "30" } }, state))
                return;
            QCOMPARE(state.caches.size(), std::size_t(1));
            QCOMPARE(state.caches[0].name, std::string("L3"));
            QCOMPARE(state.caches[0].ways, withSnapshot ? 11 : 0); // no snapshot: unknown, never this host's
            // The cache's size comes from the same snapshot (the 6154's 24.75 MiB L3), not 0 B per bit.
            QCOMPARE(state.caches[0].cacheBytes, withSnapshot ? std::uint64_t { 25952256 } : std::uint64_t { 0 });
            // The recorded MB values come with their control (the replay said "No bandwidth allocation" while its
            // markers named MB): percent in the 6154's 10 % steps (CPUID.10H.3:EAX max delay 90), resctrl's usual
            // 10 % without a snapshot.
            QCOMPARE(state.bandwidths.size(), std::size_t(1));
            const BandwidthSchema& mb = state.bandwidths[0];
            QCOMPARE(mb.name, std::string("MB"));
            QCOMPARE(mb.unit, std::string("%"));
            QCOMPARE(mb.minValue, 10u);
            QCOMPARE(mb.granularity, 10u);
            QCOMPARE(state.groups.size(), std::size_t(1));
            QCOMPARE(state.groups[0].bandwidth.at("MB").at(0), 30u);
        }
    }

    void replayOfAnAmdSessionShowsEighthsOfGBps()
    {
        // Recorded on the simulated EPYC: AMD's MB is an absolute limit in 1/8 GB/s up to 1 << the length of
        // CPUID.80000020H.1:EAX (2048 on Genoa, which also means unlimited), not a percentage.
        auto cpu = rdt::sim::presetCpuid("epyc-genoa");
        QVERIFY2(cpu, cpu ? "" : cpu.error().toString().c_str());
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("amd.rdtsession")).toStdString();
        AllocationState state;
        if (!replayOf(path, rdt::cpuidTableToJson(cpu->table()), { { "L3", "ffff" }, { "MB", "256" } }, state)) return;
        QCOMPARE(state.bandwidths.size(), std::size_t(1));
        QCOMPARE(state.bandwidths[0].unit, std::string("GB/s"));
        QCOMPARE(state.bandwidths[0].maxValue, 2048u);
        QCOMPARE(state.groups[0].bandwidth.at("MB").at(0), 256u);
    }

    void replayFollowsTheRecordedResctrlRulesOverTheCpuid()
    {
        // The 4-domain fixture tree (Intel's percent MB) recorded on an AMD machine: the session's CPUID says AMD,
        // its topology text says what resctrl took. The replay showed "12.5 GB/s" for 100 %.
        auto cpu = rdt::sim::presetCpuid("epyc-genoa");
        QVERIFY2(cpu, cpu ? "" : cpu.error().toString().c_str());
        QTemporaryDir dir;
        for (const bool older : { true, false }) { // sessions before the unit was recorded, and after
            const std::string path
                = dir.filePath(older ? QStringLiteral("a.rdts") : QStringLiteral("b.rdts")).toStdString();
            AllocationState state;
            if (!replayOf(path, rdt::cpuidTableToJson(cpu->table()), { { "L3", "fffff" }, { "MB", "100" } }, state,
                    older ? "MB: 8 CLOS, domains 0 1 2 3, min_bandwidth 10, bandwidth_gran 10\n"
                          : "L3: 16 CLOS, domains 0 1 2 3, cbm_mask 20 bits, min_cbm_bits 1, bytes_per_bit 2883584\n"
                            "MB: 8 CLOS, domains 0 1 2 3, min_bandwidth 10, bandwidth_gran 10, max_bandwidth 100, "
                            "delay_linear 1, unit percent\n"))
                return;
            QCOMPARE(state.bandwidths.size(), std::size_t(1));
            QCOMPARE(state.bandwidths[0].unit, std::string("%"));
            QCOMPARE(state.bandwidths[0].minValue, 10u);
            QCOMPARE(state.bandwidths[0].granularity, 10u);
            // The cache's size as resctrl gave it (55 MiB, as the live view showed) when recorded, else the
            // snapshot's.
            QCOMPARE(state.caches.size(), std::size_t(1));
            QVERIFY(state.caches[0].cacheBytes > 0);
            if (!older) QCOMPARE(state.caches[0].cacheBytes, std::uint64_t { 2883584 } * 20);
        }
        // And AMD's own rules recorded, with no CPUID snapshot at all: 1/8 GB/s up to the recorded 2048.
        const std::string path = dir.filePath(QStringLiteral("c.rdts")).toStdString();
        AllocationState state;
        if (!replayOf(path, {}, { { "MB", "256" } }, state,
                "MB: 16 CLOS, domains 0, min_bandwidth 0, bandwidth_gran 1, max_bandwidth 2048, delay_linear 0, unit "
                "gbps8\n"))
            return;
        QCOMPARE(state.bandwidths[0].unit, std::string("GB/s"));
        QCOMPARE(state.bandwidths[0].maxValue, 2048u);
    }

    void replayOfAnSncSessionShowsTheWholeL3()
    {
        // SNC-2: resctrl recorded a node's share (27 MiB, 2.25 MiB per bit); the recorded CPU's L3 is 54 MiB.
        auto cpu = rdt::sim::presetCpuid("icx-8351n-snc2");
        QVERIFY2(cpu, cpu ? "" : cpu.error().toString().c_str());
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("snc.rdts")).toStdString();
        AllocationState state;
        if (!replayOf(path, rdt::cpuidTableToJson(cpu->table()), { { "L3", "fff" } }, state,
                "L3: 16 CLOS, domains 0 1, cbm_mask 12 bits, min_cbm_bits 1, bytes_per_bit 2359296\n"))
            return;
        QCOMPARE(state.caches.size(), std::size_t(1));
        QCOMPARE(state.caches[0].cacheBytes, std::uint64_t { 2359296 } * 12 * 2);
        QCOMPARE(state.caches[0].ways, 12);
    }

    void replayOfAnOlderCbaSessionShowsLevels()
    {
        // CBA values recorded before the topology text carried a unit: levels, not percent.
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("cba.rdts")).toStdString();
        AllocationState state;
        if (!replayOf(
                path, {}, { { "CBA", "4" } }, state, "CBA: 16 CLOS, domains 0, min_bandwidth 0, bandwidth_gran 1\n"))
            return;
        QCOMPARE(state.bandwidths.size(), std::size_t(1));
        QCOMPARE(state.bandwidths[0].unit, std::string("level"));
        QVERIFY(state.bandwidths[0].higherThrottles);
        QCOMPARE(state.groups[0].bandwidth.at("CBA").at(0), 4u);
    }

    void replayOfMbpsValuesShowsMiBps()
    {
        // mba_MBps records MiB/s, not percent: a value over 100 says so (the replay must not show 4000 %).
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("m.rdtsession")).toStdString();
        AllocationState state;
        if (!replayOf(path, {}, { { "MB", "4000" } }, state)) return;
        QCOMPARE(state.bandwidths.size(), std::size_t(1));
        QCOMPARE(state.bandwidths[0].unit, std::string("MiBps"));
        QCOMPARE(state.groups[0].bandwidth.at("MB").at(0), 4000u);
    }
};

QTEST_GUILESS_MAIN(TestEngineSourceWays)
#include "test_engine_source_ways.moc"
