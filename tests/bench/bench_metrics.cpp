// SPDX-License-Identifier: GPL-3.0-or-later
// One scrape of rdtscope-agent --metrics at server scale: 128 groups x 8 L3 domains (synthetic counters), rendered
// as /metrics renders it, in both formats, with and without Kubernetes labels. Prints CPU per scrape and bytes
// per scrape (target: <= 1 ms of agent CPU per scrape).
#include "metrics/MetricsServer.h"
#include "metrics/MetricsState.h"

#include <benchmark/benchmark.h>
#include <memory>

using namespace rdt;
using namespace rdt::metrics;

namespace {

std::shared_ptr<const std::vector<MetricFamily>> serverScale(bool podLabels)
{
    MetricsState state("bench");
    engine::GroupsSnapshot groups;
    for (int g = 0; g < 16; ++g) {
        engine::GroupState ctrl;
        ctrl.info.path = "clos" + std::to_string(g);
        ctrl.schemata = *Schemata::parse("L3:0=7ff;1=7ff;2=7ff;3=7ff;4=7ff;5=7ff;6=7ff;7=7ff\n"
                                         "MB:0=100;1=90;2=80;3=70;4=60;5=50;6=40;7=30\n");
        groups.groups.push_back(ctrl);
    }
    Capabilities caps;
    ResourceCaps mb;
    mb.name = "MB";
    mb.kind = ResourceKind::Bandwidth;
    caps.resources.push_back(mb);
    state.setGroups(groups, caps);
    for (int round = 0; round < 2; ++round) {
        RdtSampleBatch batch;
        for (int g = 0; g < 128; ++g) {
            const std::string path = "clos" + std::to_string(g % 16) + "/mon_groups/pod-" + std::to_string(g);
            if (podLabels && round == 0)
                state.setGroupLabels(path,
                    { { "namespace", "team-" + std::to_string(g % 7) },
                        { "pod", "service-" + std::to_string(g) + "-7d9f8b6c5-q2x4z" },
                        { "pod_uid", "0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f" + std::to_string(1000 + g) },
                        { "container", "main" } });
            for (int d = 0; d < 8; ++d) {
                RdtSample s;
                s.group = path;
                s.domain = d;
                s.occupancyBytes = 1'048'576ull * static_cast<unsigned>(g + d);
                s.mbmTotalBytes = 123'456'789'012ull * static_cast<unsigned>(round + 1) + static_cast<unsigned>(g * d);
                s.mbmLocalBytes = s.mbmTotalBytes / 3;
                s.flags = round == 0 ? std::uint32_t { SampleFirst } : 0u;
                batch.samples.push_back(s);
            }
        }
        state.addBatch(batch, 1.7e9 + round);
    }
    return std::make_shared<const std::vector<MetricFamily>>(state.families());
}

void scrape(benchmark::State& st, ExpositionFormat format, bool podLabels)
{
    auto families = serverScale(podLabels);
    MetricsServer server({}, [families] { return families; });
    std::size_t bytes = 0;
    for (auto _ : st) {
        auto body = server.scrapeBody(format);
        bytes = body.size();
        benchmark::DoNotOptimize(body);
    }
    st.counters["bytes_per_scrape"] = static_cast<double>(bytes);
    st.counters["series"] = static_cast<double>(128 * 8 * 3 + 16 * 8 * 2 + 9);
}

} // namespace

BENCHMARK_CAPTURE(scrape, openmetrics_128x8, ExpositionFormat::OpenMetrics100, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(scrape, prometheus_128x8, ExpositionFormat::Prometheus004, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(scrape, openmetrics_128x8_pods, ExpositionFormat::OpenMetrics100, true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
