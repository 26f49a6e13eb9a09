// SPDX-License-Identifier: GPL-3.0-or-later
// Engine::machineReport() (api/MachineReport.h): the CPUID decoded once by the engine, checked against the
// presets' dumps by hand (SDM Vol. 2A CPUID leaf 04H: ways x partitions x line size x sets), for a simulated
// Xeon, the simulated EPYC (whose caches come from 8000001DH) and a replay of a session recorded on the EPYC.
#include "engine/CaptureService.h"
#include "engine/ReplayEngine.h"
#include "platform/CpuidDump.h"
#include "session/SessionWriter.h"
#include "sim/SimCpuid.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

using namespace rdt;

namespace {
api::MachineReport reportOf(const std::string& preset)
{
    engine::ServiceOptions o;
    o.rdt.spec = "sim";
    o.rdt.simPreset = preset;
    auto service = engine::CaptureService::open(o);
    EXPECT_TRUE(service.ok()) << (service ? "" : service.error().toString());
    if (!service) return {};
    auto report = (*service)->machineReport();
    EXPECT_TRUE(report.ok()) << (report ? "" : report.error().toString());
    return report ? *report : api::MachineReport {};
}
constexpr std::uint64_t kMiB = 1u << 20;
} // namespace

TEST(MachineReport, SimulatedXeonFromItsOwnCpuid)
{
    const auto r = reportOf(""); // the default scenario's Xeon Gold 6154
    EXPECT_TRUE(r.cpu.known);
    EXPECT_TRUE(r.cpu.simulated);
    EXPECT_TRUE(r.cpu.isIntel());
    EXPECT_NE(r.cpu.brand.find("6154"), std::string::npos) << r.cpu.brand;
    const auto l3 = r.cache(3);
    ASSERT_TRUE(l3);
    EXPECT_EQ(l3->ways, 11u);
    EXPECT_EQ(l3->bytes, 24 * kMiB + 3 * kMiB / 4); // 24.75 MiB
    EXPECT_EQ(l3->leaf, "CPUID.04H");
    EXPECT_TRUE(r.rdt.monitoring);
    EXPECT_EQ(r.rdt.l3CbmLength, 11u);
    EXPECT_TRUE(r.rdt.mba);
    EXPECT_FALSE(r.pmu.simulatedPmuName.empty());
    EXPECT_TRUE(r.location.empty()); // this process
    EXPECT_FALSE(r.lines.empty()); // describeMachine()'s lines, the Machine page's rows
}

TEST(MachineReport, SimulatedEpycCachesFromLeaf8000001D)
{
    const auto r = reportOf("epyc-genoa");
    EXPECT_TRUE(r.cpu.isAmd());
    const auto l3 = r.cache(3);
    ASSERT_TRUE(l3);
    EXPECT_EQ(l3->ways, 16u);
    EXPECT_EQ(l3->bytes, 32 * kMiB);
    EXPECT_EQ(l3->leaf, "CPUID.8000001DH");
}

TEST(MachineReport, ReplayReportsTheRecordedCpu)
{
    auto cpu = sim::presetCpuid("epyc-genoa");
    ASSERT_TRUE(cpu.ok());
    const std::string path
        = (std::filesystem::temp_directory_path() / ("machine-report-" + std::to_string(::getpid()) + ".rdts"))
              .string();
    {
        session::SessionMeta meta;
        meta.startMonoNs = 1'000'000'000;
        meta.source = "sim:mba";
        meta.simulated = true;
        meta.host = "recorder";
        session::MachineInfo machine;
        machine.cpuidJson = cpuidTableToJson(cpu->table());
        auto w = session::SessionWriter::create(path, meta, machine);
        ASSERT_TRUE(w.ok()) << w.error().toString();
        RdtSampleBatch b;
        b.timeNs = meta.startMonoNs;
        b.samples.emplace_back();
        ASSERT_TRUE((*w)->addSamples(b));
        ASSERT_TRUE((*w)->close());
    }
    auto replay = engine::ReplayEngine::open(path);
    ASSERT_TRUE(replay.ok()) << replay.error().toString();
    const auto r = (*replay)->machineReport();
    std::filesystem::remove(path);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_TRUE(r->cpu.isAmd()); // the recording machine's, never this host's
    EXPECT_TRUE(r->cpu.simulated);
    EXPECT_EQ(r->hostname, "recorder");
    ASSERT_TRUE(r->cache(3));
    EXPECT_EQ(r->cache(3)->bytes, 32 * kMiB);
    EXPECT_FALSE(r->lines.empty());
    EXPECT_FALSE(r->environmentProbed); // a recording has no environment to probe
}
