// SPDX-License-Identifier: GPL-3.0-or-later
// Frame time of the cache-way heatmap alone (issue 6 benchmark, heatmap part): 16 CLOS x 20 CBM bits with the
// occupancy overlay, occupancy updated every frame as the 30 Hz frame pump does, rendered offscreen.
// Prints p50 and p99 in ms per frame (target for the whole dashboard: p99 < 16 ms).

#include "models/AllocationModel.h"
#include "views/CacheWayHeatmap.h"
#include "views/HeatmapGrid.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace {
AllocationState sixteenClos(bool cdp)
{
    AllocationState st;
    for (const char* n : cdp ? std::vector<const char*> { "L3CODE", "L3DATA" } : std::vector<const char*> { "L3" }) {
        CacheSchema c;
        c.name = n;
        c.cbmLength = 20;
        c.shareableBits = 0xc0000;
        c.cacheBytes = 20ull * 1792 * 1024; // 35 MiB (BDW-E: 20 bits, c0000 shareable)
        c.ways = 20;
        st.caches.push_back(c);
    }
    st.domains = { 0, 1 };
    for (int g = 0; g < (cdp ? 8 : 16); ++g) {
        GroupAllocation a;
        a.group = g == 0 ? std::string() : "g" + std::to_string(g);
        a.closid = g;
        for (const auto& c : st.caches)
            for (int d : st.domains)
                a.cbm[c.name][d] = g == 0 ? 0xfffff : (0x7ull << (g % 18));
        st.groups.push_back(a);
    }
    st.writable = true;
    return st;
}

void frames(benchmark::State& state)
{
    AllocationModel model;
    model.setState(sixteenClos(state.range(0) != 0));
    CacheWayHeatmap heatmap;
    heatmap.setModel(&model);
    heatmap.resize(heatmap.sizeHint());
    QImage target(heatmap.grid()->sizeHint(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> ms;
    std::uint64_t tick = 0;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        std::map<std::string, std::map<int, std::uint64_t>> occ;
        for (const auto& g : model.state().groups)
            occ[g.group][0] = (tick * 7919 + std::hash<std::string> {}(g.group)) % (35ull << 20);
        ++tick;
        model.setOccupancy(occ);
        QPainter p(&target);
        heatmap.grid()->render(&p);
        p.end();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    state.counters["p50_ms"] = ms[ms.size() / 2];
    state.counters["p99_ms"] = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
    state.counters["rows"] = model.rowCount();
}
BENCHMARK(frames)->Arg(0)->Arg(1)->ArgName("cdp")->Iterations(300)->Unit(benchmark::kMillisecond);
} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
