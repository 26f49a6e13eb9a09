// SPDX-License-Identifier: GPL-3.0-or-later
// Frame time of the full RDT dashboard rendered offscreen (issue 6 benchmark): the cache-way heatmap (16 CLOS x
// 20 CBM bits with the occupancy overlay) above the timelines (64 groups x one hour at 10 Hz, occupancy and total
// bandwidth shown), one new batch of 64 samples per frame as the 30 Hz frame pump delivers it. One frame = pump
// (append + decimate + set data), the queued replot, and painting the whole dashboard into a pixmap.
// Prints p50 and p99 in ms per frame; target p99 < 16 ms.
// Server scale (issue 16 benchmark): 4 L3 domains x 16 CLOS with 128 monitor groups (144 groups, 576 samples per
// batch), idle and while a second process keeps one core busy.

#include "models/AllocationModel.h"
#include "models/FramePump.h"
#include "models/QueuedFeed.h"
#include "views/CacheWayHeatmap.h"
#include "views/TimelineView.h"

#include <QApplication>
#include <QPixmap>
#include <QSplitter>

#include <benchmark/benchmark.h>

#include <csignal>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {
constexpr int kHistorySamples = 36000; // one hour at 10 Hz
constexpr std::uint64_t kTick = 100'000'000; // 10 Hz in ns

/// The two machines measured: the classic dashboard (64 groups, one domain) and a big server.
struct Scale {
    int controlGroups = 16; ///< incl. the default group
    int monitorGroups = 48;
    int domains = 1;
    int groups() const { return controlGroups + monitorGroups; }
    std::string name(int g) const
    {
        if (g == 0) return {};
        if (g < controlGroups) return "g" + std::to_string(g);
        const int m = g - controlGroups;
        return "g" + std::to_string(1 + m % (controlGroups - 1)) + "/mon_groups/pod-" + std::to_string(7000 + m)
            + "-replica";
    }
};
Scale scaleOf(std::int64_t arg)
{
    return arg == 0 ? Scale {} : Scale { 16, 128, 4 };
}

AllocationState sixteenClos(const Scale& scale)
{
    AllocationState st;
    CacheSchema c;
    c.name = "L3";
    c.cbmLength = 20;
    c.shareableBits = 0xc0000;
    c.cacheBytes = 20ull * 1792 * 1024;
    c.ways = 20;
    st.caches.push_back(c);
    for (int d = 0; d < scale.domains; ++d)
        st.domains.push_back(d);
    for (int g = 0; g < scale.controlGroups; ++g) {
        GroupAllocation a;
        a.group = scale.name(g);
        a.closid = g;
        for (int d = 0; d < scale.domains; ++d)
            a.cbm["L3"][d] = g == 0 ? 0xfffff : (0x7ull << ((g + d) % 18));
        st.groups.push_back(a);
    }
    st.writable = true;
    return st;
}

double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

double percentile(std::vector<double> v, int p)
{
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, v.size() * static_cast<std::size_t>(p) / 100)];
}

double valueAt(int group, int i)
{
    return 1e9 * (1.0 + group % 7) * (1.2 + std::sin(i * 0.01 + group));
}

rdt::RdtSampleBatch batchAt(int i, const Scale& scale)
{
    rdt::RdtSampleBatch b;
    b.timeNs = static_cast<std::uint64_t>(i) * kTick;
    for (int g = 0; g < scale.groups(); ++g)
        for (int d = 0; d < scale.domains; ++d) {
            rdt::RdtSample s;
            s.timeNs = b.timeNs;
            s.group = scale.name(g);
            s.domain = d;
            s.occupancyBytes = static_cast<std::uint64_t>(valueAt(g + d, i) / 200.0);
            s.mbmTotalBps = valueAt(g + d, i);
            s.mbmLocalBps = s.mbmTotalBps * 0.7;
            b.samples.push_back(std::move(s));
        }
    return b;
}

/// A second process spinning on one core for as long as this lives (the "busy machine" case).
class BusyCore {
public:
    explicit BusyCore(bool on)
    {
        if (!on) return;
        m_pid = ::fork();
        if (m_pid == 0) {
            volatile unsigned long spins = 0;
            for (;;)
                spins = spins + 1;
        }
    }
    ~BusyCore()
    {
        if (m_pid <= 0) return;
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }

private:
    pid_t m_pid = -1;
};

void dashboardFrames(benchmark::State& state)
{
    const Scale scale = scaleOf(state.range(1));
    FramePump pump;
    auto feed = std::make_unique<QueuedFeed>(SourceDescription { SourceKind::Simulated, "bench", "synthetic", {}, {} });
    QueuedFeed* raw = feed.get();
    pump.setFeed(std::move(feed));
    // One hour of history straight into the store (the pump path for the newest batches below).
    raw->push(batchAt(0, scale));
    pump.pumpOnce();
    TimeSeriesStore& store = pump.store();
    for (int i = 1; i < kHistorySamples; ++i) {
        for (int g = 0; g < scale.groups(); ++g) {
            const double v = valueAt(g, i) * scale.domains;
            store.append(
                store.groupIndex(QString::fromStdString(scale.name(g))), i * 0.1, { v / 200.0, v, v * 0.7, v * 0.3 });
        }
    }

    AllocationModel model;
    model.setState(sixteenClos(scale));
    QSplitter dashboard(Qt::Vertical);
    auto* heatmap = new CacheWayHeatmap(&dashboard);
    heatmap->setModel(&model);
    auto* timelines = new TimelineView(&pump, &dashboard);
    dashboard.addWidget(heatmap);
    dashboard.addWidget(timelines);
    dashboard.resize(1280, 900);
    dashboard.show();
    QCoreApplication::processEvents();

    timelines->setWindowSeconds(static_cast<double>(state.range(0)));
    QCoreApplication::processEvents();
    std::vector<double> ms;
    std::vector<double> cpu;
    int i = kHistorySamples;
    const BusyCore busy(state.range(2) != 0);
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = threadCpuMs();
        raw->push(batchAt(i++, scale));
        pump.pumpOnce(); // appends, decimates and queues one replot
        std::map<std::string, std::map<int, std::uint64_t>> occ;
        for (const auto& g : model.state().groups)
            for (int d = 0; d < scale.domains; ++d)
                occ[g.group][d] = static_cast<std::uint64_t>(valueAt(g.closid + d, i) / 200.0);
        model.setOccupancy(occ);
        QCoreApplication::processEvents(); // runs the queued replot
        const QPixmap frame = dashboard.grab(); // paints heatmap + timelines
        benchmark::DoNotOptimize(frame.cacheKey());
        const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ms.push_back(elapsed);
        cpu.push_back(threadCpuMs() - c0);
        state.SetIterationTime(elapsed / 1000.0);
    }
    // Wall time is what a user sees on an idle machine; on a shared, overloaded one (the CI box runs 8 builds on
    // 2 cores) the GUI thread's CPU time is the figure that measures our code, so both are printed.
    const double p50 = percentile(ms, 50);
    const double p99 = percentile(ms, 99);
    const double cpu50 = percentile(cpu, 50);
    const double cpu99 = percentile(cpu, 99);
    state.counters["p50_ms"] = p50;
    state.counters["p99_ms"] = p99;
    state.counters["cpu_p50_ms"] = cpu50;
    state.counters["cpu_p99_ms"] = cpu99;
    state.counters["groups"] = store.groupCount();
    state.counters["points_per_group"] = static_cast<double>(store.sampleCount(1));
    std::printf("dashboard frame, %lld s window, %s%s, 1280x900: wall p50 %.2f ms p99 %.2f ms; GUI-thread CPU p50 "
                "%.2f ms p99 %.2f ms (target p99 < 16 ms: %s)\n",
        static_cast<long long>(state.range(0)),
        scale.domains == 1 ? "64 groups x 1 h at 10 Hz + 16x20 heatmap"
                           : "server: 4 domains x 16 CLOS + 128 monitor groups x 1 h at 10 Hz",
        state.range(2) ? ", a second process busy on one core" : "", p50, p99, cpu50, cpu99,
        p99 < 16.0 ? "met" : (cpu99 < 16.0 ? "met in CPU time; wall time inflated by machine load" : "MISSED"));
}
BENCHMARK(dashboardFrames)
    ->Args({ 3600, 0, 0 })
    ->Args({ 300, 0, 0 })
    ->Args({ 3600, 1, 0 })
    ->Args({ 3600, 1, 1 })
    ->ArgNames({ "window_s", "server", "busy" })
    ->Iterations(300)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
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
