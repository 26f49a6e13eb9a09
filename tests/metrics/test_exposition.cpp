// SPDX-License-Identifier: GPL-3.0-or-later
// The exposition formats and the metrics state, without HTTP: names, suffixes, metadata, escaping, negotiation,
// and the counter semantics (wraps stay monotonic, a re-created group restarts its series).
#include "metrics/Exposition.h"
#include "metrics/MetricsState.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::metrics;

namespace {

std::vector<MetricFamily> sampleFamilies()
{
    return { { "demo_bytes", MetricType::Counter, "Bytes moved.\nSecond \"line\" \\.", "bytes",
                 { { { { "group", "a\"b\\c\nd" } }, 42, 1700000000.5 } } },
        { "demo_ratio", MetricType::Gauge, "A ratio.", "ratio", { { {}, 0.25, std::nullopt } } } };
}

RdtSample sample(const std::string& group, std::uint64_t total, std::uint32_t flags = 0)
{
    RdtSample s;
    s.group = group;
    s.domain = 0;
    s.mbmTotalBytes = total;
    s.mbmLocalBytes = total / 2;
    s.occupancyBytes = 1024;
    s.flags = flags;
    return s;
}

double valueOf(const std::vector<MetricFamily>& families, const std::string& family, const std::string& group)
{
    for (const auto& f : families)
        if (f.name == family)
            for (const auto& p : f.points)
                if (p.labels.front().second == group) return p.value;
    return -1;
}

} // namespace

TEST(Exposition, PrometheusTextNamesCountersBySampleNameAndHasNoEof)
{
    const std::string text = renderExposition(sampleFamilies(), ExpositionFormat::Prometheus004);
    EXPECT_NE(text.find("# HELP demo_bytes_total Bytes moved.\\nSecond \"line\" \\\\.\n"), std::string::npos) << text;
    EXPECT_NE(text.find("# TYPE demo_bytes_total counter\n"), std::string::npos);
    EXPECT_NE(text.find("demo_bytes_total{group=\"a\\\"b\\\\c\\nd\"} 42\n"), std::string::npos);
    EXPECT_EQ(text.find("_created"), std::string::npos);
    EXPECT_EQ(text.find("# UNIT"), std::string::npos);
    EXPECT_EQ(text.find("# EOF"), std::string::npos);
    EXPECT_NE(text.find("demo_ratio 0.25\n"), std::string::npos);
}

TEST(Exposition, OpenMetricsHasUnitCreatedAndEof)
{
    const std::string text = renderExposition(sampleFamilies(), ExpositionFormat::OpenMetrics100);
    EXPECT_NE(text.find("# HELP demo_bytes Bytes moved.\\nSecond \\\"line\\\" \\\\.\n"), std::string::npos) << text;
    EXPECT_NE(text.find("# TYPE demo_bytes counter\n# UNIT demo_bytes bytes\n"), std::string::npos);
    EXPECT_NE(text.find("demo_bytes_total{group=\"a\\\"b\\\\c\\nd\"} 42\n"), std::string::npos);
    EXPECT_NE(text.find("demo_bytes_created{group=\"a\\\"b\\\\c\\nd\"} 1700000000.5\n"), std::string::npos);
    EXPECT_NE(text.find("# UNIT demo_ratio ratio\n"), std::string::npos);
    ASSERT_GE(text.size(), 6u);
    EXPECT_EQ(text.substr(text.size() - 6), "# EOF\n");
}

TEST(Exposition, LargeByteCountsPrintAsIntegers)
{
    std::vector<MetricFamily> f { { "big_bytes", MetricType::Counter, "h", "bytes", { { {}, 69818130432.0, {} } } } };
    EXPECT_NE(
        renderExposition(f, ExpositionFormat::Prometheus004).find("big_bytes_total 69818130432\n"), std::string::npos);
}

TEST(Exposition, NegotiatesOpenMetricsOnlyWhenOffered)
{
    EXPECT_EQ(negotiateFormat(""), ExpositionFormat::Prometheus004);
    EXPECT_EQ(negotiateFormat("*/*"), ExpositionFormat::Prometheus004);
    EXPECT_EQ(negotiateFormat("text/plain;version=0.0.4"), ExpositionFormat::Prometheus004);
    EXPECT_EQ(negotiateFormat("application/openmetrics-text"), ExpositionFormat::OpenMetrics100);
    // What Prometheus 2.x sends.
    EXPECT_EQ(negotiateFormat("application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
                              "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"),
        ExpositionFormat::OpenMetrics100);
    EXPECT_EQ(
        negotiateFormat("application/openmetrics-text; version=0.0.1, text/plain"), ExpositionFormat::Prometheus004);
    EXPECT_EQ(negotiateFormat("application/openmetrics-text;q=0"), ExpositionFormat::Prometheus004);
    EXPECT_STREQ(
        contentType(ExpositionFormat::OpenMetrics100), "application/openmetrics-text; version=1.0.0; charset=utf-8");
    EXPECT_STREQ(contentType(ExpositionFormat::Prometheus004), "text/plain; version=0.0.4; charset=utf-8");
}

TEST(MetricsState, CountersFollowTheWrapSafeSamplerAndRestartOnReset)
{
    MetricsState state("1.2.3");
    RdtSampleBatch b;
    b.samples = { sample("", 100, SampleFirst), sample("p0/mon_groups/m1", 1000, SampleFirst) };
    state.addBatch(b, 10.0);
    b.samples = { sample("", 300, SampleWrapped), sample("p0/mon_groups/m1", 5000) };
    state.addBatch(b, 11.0);
    auto families = state.families();
    EXPECT_EQ(valueOf(families, "rdtscope_mbm_total_bytes", "/"), 300); // a corrected wrap is just more bytes
    EXPECT_EQ(valueOf(families, "rdtscope_mbm_local_bytes", "p0/mon_groups/m1"), 2500);
    // The group was re-created: the series restarts from what this poll moved, with a new _created.
    b.samples = { sample("", 350), sample("p0/mon_groups/m1", 5200, SampleCounterReset) };
    state.addBatch(b, 12.0);
    families = state.families();
    EXPECT_EQ(valueOf(families, "rdtscope_mbm_total_bytes", "p0/mon_groups/m1"), 200);
    for (const auto& f : families) {
        if (f.name != "rdtscope_mbm_total_bytes") continue;
        for (const auto& p : f.points) {
            EXPECT_EQ(*p.createdSeconds, p.labels.front().second == "/" ? 10.0 : 12.0);
            EXPECT_EQ(p.labels[1].second, p.labels.front().second == "/" ? "/" : "p0"); // ctrl_group
        }
    }
    EXPECT_EQ(valueOf(families, "rdtscope_sample_errors", "counter_reset"), 1);
    EXPECT_EQ(valueOf(families, "rdtscope_build_info", "1.2.3"), 1);
    // A group that is gone leaves the exposition.
    b.samples = { sample("", 400) };
    state.addBatch(b, 13.0);
    EXPECT_EQ(valueOf(state.families(), "rdtscope_llc_occupancy_bytes", "p0/mon_groups/m1"), -1);
}

TEST(MetricsState, WaysAndThrottleComeFromSchemata)
{
    Capabilities caps;
    ResourceCaps mb;
    mb.name = "MB";
    mb.kind = ResourceKind::Bandwidth;
    caps.resources.push_back(mb);
    engine::GroupsSnapshot groups;
    engine::GroupState g;
    g.info.path = "streamer";
    g.schemata = *Schemata::parse("L3:0=003;1=7ff\nL2:0=f\nMB:0=30;1=100\n");
    groups.groups.push_back(g);
    MetricsState state("v");
    state.setGroups(groups, caps);
    state.setGroupLabels("streamer", { { "namespace", "batch" } });
    const auto text = renderExposition(state.families(), ExpositionFormat::Prometheus004);
    EXPECT_NE(text.find("rdtscope_l3_allocated_ways{group=\"streamer\",ctrl_group=\"streamer\",domain=\"0\","
                        "namespace=\"batch\"} 2\n"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("rdtscope_l3_allocated_ways{group=\"streamer\",ctrl_group=\"streamer\",domain=\"1\","
                        "namespace=\"batch\"} 11\n"),
        std::string::npos);
    EXPECT_NE(text.find("rdtscope_l2_allocated_ways{group=\"streamer\",ctrl_group=\"streamer\",domain=\"0\","
                        "namespace=\"batch\"} 4\n"),
        std::string::npos);
    EXPECT_NE(text.find("rdtscope_mba_throttle_ratio{group=\"streamer\",ctrl_group=\"streamer\",domain=\"0\","
                        "namespace=\"batch\"} 0.7\n"),
        std::string::npos);
    EXPECT_NE(text.find("rdtscope_mba_throttle_ratio{group=\"streamer\",ctrl_group=\"streamer\",domain=\"1\","
                        "namespace=\"batch\"} 0\n"),
        std::string::npos);
}

TEST(MetricsState, TmaSlotsPerGroupAndCategoryWithoutDomain)
{
    engine::GroupsSnapshot groups;
    engine::GroupState ctrl;
    ctrl.info.path = "batch";
    ctrl.info.isControl = true;
    engine::GroupState mon;
    mon.info.path = "batch/mon_groups/pod-a";
    mon.info.parent = "batch";
    mon.info.isControl = false;
    groups.groups = { ctrl, mon };
    MetricsState state("v");
    state.setGroups(groups, Capabilities {});
    EXPECT_EQ(
        renderExposition(state.families(), ExpositionFormat::Prometheus004).find("rdtscope_tma"), std::string::npos)
        << "no TMA family unless a group is counted";

    state.setGroupLabels("batch/mon_groups/pod-a", { { "pod", "a" } });
    state.setTmaSlots("batch/mon_groups/pod-a", { 100, 25, 500, 375 }, 1700000000);
    const auto text = renderExposition(state.families(), ExpositionFormat::OpenMetrics100);
    EXPECT_NE(text.find("# TYPE rdtscope_tma_slots counter\n"), std::string::npos) << text;
    const std::string labels = "{group=\"batch/mon_groups/pod-a\",ctrl_group=\"batch\",pod=\"a\",category=\"";
    for (const auto& [category, value] : std::vector<std::pair<std::string, std::string>> { { "frontend_bound", "100" },
             { "bad_speculation", "25" }, { "retiring", "500" }, { "backend_bound", "375" } }) {
        EXPECT_NE(text.find("rdtscope_tma_slots_total" + labels + category + "\"} " + value + "\n"), std::string::npos)
            << category << "\n"
            << text;
        EXPECT_NE(text.find("rdtscope_tma_slots_created" + labels + category + "\"} 1700000000\n"), std::string::npos)
            << category;
    }

    groups.groups = { ctrl }; // the pod's group is gone: so are its TMA series
    state.setGroups(groups, Capabilities {});
    EXPECT_EQ(
        renderExposition(state.families(), ExpositionFormat::Prometheus004).find("rdtscope_tma"), std::string::npos);
}

namespace {
/// One control group "g" with `schemata`, on a machine whose resources are `resources`.
std::string exportedAllocations(const std::vector<ResourceCaps>& resources, const std::string& schemata)
{
    Capabilities caps;
    caps.resources = resources;
    engine::GroupsSnapshot groups;
    engine::GroupState g;
    g.info.path = "g";
    g.info.isControl = true;
    g.schemata = *Schemata::parse(schemata);
    groups.groups.push_back(g);
    MetricsState state("v");
    state.setGroups(groups, caps);
    return renderExposition(state.families(), ExpositionFormat::Prometheus004);
}

ResourceCaps bandwidthResource(const std::string& name, BandwidthUnit unit, unsigned max)
{
    ResourceCaps r;
    r.name = name;
    r.kind = ResourceKind::Bandwidth;
    r.bandwidthUnit = unit;
    r.maxBandwidth = max;
    return r;
}

ResourceCaps cacheResource(const std::string& name)
{
    ResourceCaps r;
    r.name = name;
    r.kind = ResourceKind::Cache;
    r.cbmMask = 0xfff;
    r.cbmBits = 12;
    return r;
}

bool has(const std::string& text, const std::string& line)
{
    return text.find(line + "\n") != std::string::npos;
}
} // namespace

// The exporter reads what a value means from the engine's rule (api/BandwidthControl.h), per machine dialect: an AMD
// cap is bytes per second and AMD's maximum is unlimited, never a throttle ratio; CBA is a level; mba_MBps MiB/s.
TEST(MetricsState, BandwidthSeriesFollowTheControlsUnit)
{
    const std::string labels = "{group=\"g\",ctrl_group=\"g\",domain=\"0\"";
    // AMD (the simulated EPYC): MB:0=70 is 70/8 GB/s = 8.75e9 B/s; 2048 (its maximum) means no limit.
    const auto amd = exportedAllocations({ bandwidthResource("MB", BandwidthUnit::EighthGBps, 2048),
                                             bandwidthResource("SMBA", BandwidthUnit::EighthGBps, 2048) },
        "MB:0=70;1=2048\nSMBA:0=16\n");
    EXPECT_TRUE(has(amd, "rdtscope_mba_limit_bytes_per_second" + labels + ",resource=\"MB\"} 8750000000")) << amd;
    EXPECT_TRUE(
        has(amd, "rdtscope_mba_limit_bytes_per_second{group=\"g\",ctrl_group=\"g\",domain=\"1\",resource=\"MB\"} +Inf"))
        << amd;
    EXPECT_TRUE(has(amd, "rdtscope_mba_limit_bytes_per_second" + labels + ",resource=\"SMBA\"} 2000000000")) << amd;
    EXPECT_EQ(amd.find("rdtscope_mba_throttle_ratio"), std::string::npos) << amd; // not even an empty family
    // mba_MBps: MiB/s, 4294967295 unlimited.
    const auto mbps
        = exportedAllocations({ bandwidthResource("MB", BandwidthUnit::MiBps, 100) }, "MB:0=1024;1=4294967295\n");
    EXPECT_TRUE(has(mbps, "rdtscope_mba_limit_bytes_per_second" + labels + ",resource=\"MB\"} 1073741824")) << mbps;
    EXPECT_TRUE(has(
        mbps, "rdtscope_mba_limit_bytes_per_second{group=\"g\",ctrl_group=\"g\",domain=\"1\",resource=\"MB\"} +Inf"));
    EXPECT_EQ(mbps.find("rdtscope_mba_throttle_ratio{"), std::string::npos);
    // CBA through the MSRs (SDM 20.19.8): throttle levels.
    const auto cba = exportedAllocations({ bandwidthResource("CBA", BandwidthUnit::ThrottleLevel, 9) }, "CBA:0=4\n");
    EXPECT_TRUE(has(cba, "rdtscope_cba_throttle_level" + labels + "} 4")) << cba;
    EXPECT_EQ(cba.find("rdtscope_mba_throttle_ratio{"), std::string::npos);
    EXPECT_EQ(cba.find("rdtscope_mba_limit_bytes_per_second{"), std::string::npos);
    // Intel percent: the throttle ratio only.
    const auto intel = exportedAllocations({ bandwidthResource("MB", BandwidthUnit::Percent, 100) }, "MB:0=30\n");
    EXPECT_TRUE(has(intel, "rdtscope_mba_throttle_ratio" + labels + "} 0.7")) << intel;
    EXPECT_EQ(intel.find("rdtscope_mba_limit_bytes_per_second{"), std::string::npos);
}

TEST(MetricsState, CdpMasksAreExportedAsCodeAndData)
{
    const auto text = exportedAllocations(
        { cacheResource("L3CODE"), cacheResource("L3DATA") }, "L3CODE:0=00f;1=fff\nL3DATA:0=ff0;1=fff\n");
    EXPECT_TRUE(has(text, "rdtscope_l3_allocated_ways{group=\"g\",ctrl_group=\"g\",domain=\"0\",cdp=\"code\"} 4"))
        << text;
    EXPECT_TRUE(has(text, "rdtscope_l3_allocated_ways{group=\"g\",ctrl_group=\"g\",domain=\"0\",cdp=\"data\"} 8"));
    EXPECT_TRUE(has(text, "rdtscope_l3_allocated_ways{group=\"g\",ctrl_group=\"g\",domain=\"1\",cdp=\"code\"} 12"));
}

TEST(MetricsState, ALineTheCapabilitiesDoNotDescribeIsNotGuessed)
{
    const auto text = exportedAllocations({}, "L3:0=00f\nMB:0=50\n");
    EXPECT_TRUE(has(text, "rdtscope_l3_allocated_ways{group=\"g\",ctrl_group=\"g\",domain=\"0\"} 4")) << text;
    EXPECT_EQ(text.find("rdtscope_mba_throttle_ratio{"), std::string::npos) << text;
}

// resctrl beyond x86 (docs/RESCTRL.md "Dialects"): CBQRI's blocks and weights are their own families, a described
// control of unit "all" a share, and a control whose meaning is unknown exports nothing; a counter the machine does
// not have (Arm MPAM's mbm_local_bytes) has no series, never a 0.
TEST(MetricsState, DialectsBeyondX86ExportWhatTheirValuesMean)
{
    const std::string labels = "{group=\"g\",ctrl_group=\"g\",domain=\"0\"";
    const auto cbqri = exportedAllocations({ bandwidthResource("MB_MIN", BandwidthUnit::Blocks, 819),
                                               bandwidthResource("MB_WGHT", BandwidthUnit::Weight, 255) },
        "MB_MIN:0=62\nMB_WGHT:0=0\n");
    EXPECT_TRUE(has(cbqri, "rdtscope_mb_reserved_blocks" + labels + "} 62")) << cbqri;
    EXPECT_TRUE(has(cbqri, "rdtscope_mb_weight" + labels + "} 0")) << cbqri;
    EXPECT_EQ(cbqri.find("rdtscope_mba_limit_bytes_per_second{"), std::string::npos) << cbqri;
    EXPECT_EQ(cbqri.find("rdtscope_mba_throttle_ratio{"), std::string::npos) << cbqri;

    auto region = bandwidthResource("MB_REGION0_MAX", BandwidthUnit::Described, 511);
    region.description.emplace();
    region.description->unit = "all";
    region.description->resolution = 512;
    region.description->scale = 1;
    auto unknown = bandwidthResource("MB_REGION0_MIN", BandwidthUnit::Described, 511);
    unknown.description.emplace(); // its scale, resolution and unit were not readable
    const auto described = exportedAllocations({ region, unknown }, "MB_REGION0_MAX:0=128\nMB_REGION0_MIN:0=5\n");
    EXPECT_TRUE(has(described, "rdtscope_mb_region_share_ratio" + labels + ",resource=\"MB_REGION0_MAX\"} 0.25"))
        << described;
    EXPECT_EQ(described.find("MB_REGION0_MIN"), std::string::npos) << described;

    MetricsState state("v");
    RdtSampleBatch b;
    auto s = sample("g", 4096, SampleMbmLocalAbsent);
    s.mbmLocalBytes = 0;
    b.samples = { s };
    state.addBatch(b, 10.0);
    s.mbmTotalBytes = 8192;
    b.samples = { s };
    state.addBatch(b, 11.0);
    const auto families = state.families();
    EXPECT_EQ(valueOf(families, "rdtscope_mbm_total_bytes", "g"), 4096);
    EXPECT_EQ(valueOf(families, "rdtscope_mbm_local_bytes", "g"), -1) << "no series for a counter that does not exist";
}
