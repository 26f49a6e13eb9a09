// SPDX-License-Identifier: GPL-3.0-or-later
// PERF_PKG_MON telemetry (rdt/Telemetry.h): the value parser's table, the backend on the intel.perfpkg fixture
// (tests/data/resctrl/README.md), and the sampler's rates, resets and bad reads.
#include "TestTree.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Sampler.h"
#include "rdt/Telemetry.h"

#include <gtest/gtest.h>

using namespace rdt;
using rdt::test::TempTree;

TEST(Telemetry, ParsesWhatTheKernelPrints)
{
    struct Case {
        const char* text;
        double value;
        bool error, unavailable;
    } cases[] = {
        { "1234.500000\n", 1234.5, false, false }, { "0.000000", 0.0, false, false },
        { "  57.250000  ", 57.25, false, false }, { "5000015\n", 5000015.0, false, false },
        { "18446744073709551615", 18446744073709551615.0, false, false }, { "Error\n", 0, true, false },
        { "Unavailable\n", 0, false, true }, { "", 0, false, true }, { "-1.5", 0, false, true },
        { "1e3", 0, false, true }, { "0x10", 0, false, true }, { "12.", 0, false, true }, { ".5", 0, false, true },
        { "1.2.3", 0, false, true }, { "99999999999999999999999", 0, false, true }, // integer out of u64 range
    };
    for (const auto& c : cases) {
        const auto v = parseTelemetryValue(c.text);
        EXPECT_EQ(v.error, c.error) << c.text;
        EXPECT_EQ(v.unavailable, c.unavailable) << c.text;
        if (v.ok()) {
            EXPECT_DOUBLE_EQ(v.value, c.value) << c.text;
        }
    }
}

TEST(Telemetry, EventUnitsAndMetricNames)
{
    EXPECT_EQ(telemetryEventInfo("core_energy").unit, "J");
    EXPECT_EQ(telemetryEventInfo("core_energy").metricName, "rdtscope_core_energy_joules");
    EXPECT_EQ(telemetryEventInfo("activity").unit, "F");
    EXPECT_EQ(telemetryEventInfo("activity").metricName, "rdtscope_activity_farads");
    EXPECT_EQ(telemetryEventInfo("uops_retired").unit, "");
    EXPECT_EQ(telemetryEventInfo("uops_retired").metricName, "rdtscope_telemetry_uops_retired");
    EXPECT_EQ(telemetryEventInfo("odd-name.x").metricName, "rdtscope_telemetry_odd_name_x");
    EXPECT_EQ(telemetryDomainDir(1), "mon_PERF_PKG_01");
    EXPECT_EQ(formatTelemetryValue("core_energy", 1234.5), "1234.500 J");
    EXPECT_EQ(formatTelemetryRate("core_energy", 12.5), "12.50 W");
    EXPECT_EQ(formatTelemetryRate("activity", 0.25), "0.250 F/s");
}

namespace {
std::unique_ptr<ResctrlBackend> openTree(const TempTree& t)
{
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    EXPECT_TRUE(b.ok()) << (b ? "" : b.error().toString());
    return b ? std::move(*b) : nullptr;
}

const TelemetryReading* find(const GroupCounters& g, int package, const std::string& event)
{
    for (const auto& t : g.telemetry)
        if (t.package == package && t.event == event) return &t;
    return nullptr;
}

const TelemetrySample* find(const RdtSampleBatch& b, const std::string& group, int package, const std::string& event)
{
    for (const auto& t : b.telemetry)
        if (t.group == group && t.package == package && t.event == event) return &t;
    return nullptr;
}
}

TEST(Telemetry, BackendReadsEveryEventOfEveryPackage)
{
    TempTree t("intel.perfpkg");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    auto g = b->readCounters("p0");
    ASSERT_TRUE(g.ok()) << g.error().toString();
    EXPECT_EQ(g->telemetry.size(), 18u); // 9 events x 2 packages
    ASSERT_TRUE(find(*g, 0, "core_energy"));
    EXPECT_DOUBLE_EQ(find(*g, 0, "core_energy")->value, 1234.5);
    EXPECT_DOUBLE_EQ(find(*g, 1, "activity")->value, 57.25);
    EXPECT_DOUBLE_EQ(find(*g, 1, "uops_retired")->value, 7000022.0);
    auto root = b->readCounters("");
    ASSERT_TRUE(root.ok());
    EXPECT_DOUBLE_EQ(find(*root, 0, "core_energy")->value, 3703.5);
    // Bad values are flags, never numbers.
    t.write("p0/mon_data/mon_PERF_PKG_01/core_energy", "Unavailable\n");
    t.write("p0/mon_data/mon_PERF_PKG_00/activity", "Error\n");
    g = b->readCounters("p0");
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(find(*g, 1, "core_energy")->flags, SampleTelemetryUnavailable);
    EXPECT_EQ(find(*g, 0, "activity")->flags, SampleTelemetryError);
    EXPECT_EQ(find(*g, 0, "core_energy")->flags, 0u);
}

TEST(Telemetry, SamplerComputesRatesAndKeepsResetsAndGapsHonest)
{
    TempTree t("intel.perfpkg");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    Sampler sampler(*b, SamplerConfig { 10.0, 16, { "p0" }, 2e12 });
    const std::string energy = "p0/mon_data/mon_PERF_PKG_00/core_energy";
    auto first = sampler.pollOnce(1'000'000'000);
    ASSERT_TRUE(first.ok());
    ASSERT_TRUE(find(*first, "p0", 0, "core_energy"));
    EXPECT_TRUE(find(*first, "p0", 0, "core_energy")->flags & SampleFirst);
    t.write(energy, "1284.500000\n"); // +50 J in 2 s = 25 W
    auto second = sampler.pollOnce(3'000'000'000);
    ASSERT_TRUE(second.ok());
    EXPECT_DOUBLE_EQ(find(*second, "p0", 0, "core_energy")->perSecond, 25.0);
    EXPECT_DOUBLE_EQ(find(*second, "p0", 0, "core_energy")->value, 1284.5);
    EXPECT_DOUBLE_EQ(find(*second, "p0", 1, "core_energy")->perSecond, 0.0); // unchanged
    t.write(energy, "Unavailable\n");
    auto gap = sampler.pollOnce(4'000'000'000);
    ASSERT_TRUE(gap.ok());
    EXPECT_TRUE(find(*gap, "p0", 0, "core_energy")->flags & SampleTelemetryUnavailable);
    EXPECT_DOUBLE_EQ(find(*gap, "p0", 0, "core_energy")->perSecond, 0.0);
    t.write(energy, "1304.500000\n"); // +20 J over the 2 s since the last good read
    auto after = sampler.pollOnce(5'000'000'000);
    ASSERT_TRUE(after.ok());
    EXPECT_DOUBLE_EQ(find(*after, "p0", 0, "core_energy")->perSecond, 10.0);
    t.write(energy, "3.000000\n"); // went backwards: a reset, not a negative rate
    auto reset = sampler.pollOnce(6'000'000'000);
    ASSERT_TRUE(reset.ok());
    EXPECT_TRUE(find(*reset, "p0", 0, "core_energy")->flags & SampleCounterReset);
    EXPECT_DOUBLE_EQ(find(*reset, "p0", 0, "core_energy")->perSecond, 0.0);
}
