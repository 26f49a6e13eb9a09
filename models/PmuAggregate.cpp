// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuAggregate.h"

#include <chrono>
#include <span>
#include <vector>

namespace rdt::pmu {

namespace {

/// Slot-weighted mean: each interval counts by how many issue slots it had (SDM 22.2.9.6: slots are the unit of TMA).
TmaBreakdown averageTma(const std::vector<const TmaBreakdown*>& points)
{
    TmaBreakdown out;
    double total = 0;
    for (const auto* b : points) {
        if (!b->valid) continue;
        const double w = b->slots > 0 ? b->slots : 1.0;
        total += w;
        out.level1.retiring += w * b->level1.retiring;
        out.level1.badSpeculation += w * b->level1.badSpeculation;
        out.level1.frontendBound += w * b->level1.frontendBound;
        out.level1.backendBound += w * b->level1.backendBound;
        out.level2.present = out.level2.present || b->level2.present;
        out.level2.heavyOperations += w * b->level2.heavyOperations;
        out.level2.lightOperations += w * b->level2.lightOperations;
        out.level2.branchMispredicts += w * b->level2.branchMispredicts;
        out.level2.machineClears += w * b->level2.machineClears;
        out.level2.fetchLatency += w * b->level2.fetchLatency;
        out.level2.fetchBandwidth += w * b->level2.fetchBandwidth;
        out.level2.memoryBound += w * b->level2.memoryBound;
        out.level2.coreBound += w * b->level2.coreBound;
        out.slots += b->slots;
    }
    if (total <= 0) {
        out.note = "no TMA interval in the selected range";
        return out;
    }
    out.valid = true;
    for (double* v : { &out.level1.retiring, &out.level1.badSpeculation, &out.level1.frontendBound,
             &out.level1.backendBound, &out.level2.heavyOperations, &out.level2.lightOperations,
             &out.level2.branchMispredicts, &out.level2.machineClears, &out.level2.fetchLatency,
             &out.level2.fetchBandwidth, &out.level2.memoryBound, &out.level2.coreBound })
        *v /= total;
    return out;
}

/// Fills the fields LoadLatency::add reads into a reused Sample (a fresh Sample per load costs more than the add).
const Sample& loadSample(const PmuLoadSample& l)
{
    thread_local Sample s = [] {
        Sample init;
        init.present = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleAddr | perf::SampleWeightStruct
            | perf::SampleDataSrc;
        return init;
    }();
    s.ip = l.ip;
    s.pid = l.pid;
    s.time = l.time;
    s.addr = l.addr;
    s.weight.var1 = l.latency;
    s.weight.full = l.latency;
    s.dataSrc = l.dataSrc;
    return s;
}

} // namespace

double secondsSince(std::uint64_t t0, std::uint64_t timeNs)
{
    return timeNs >= t0 ? static_cast<double>(timeNs - t0) * 1e-9 : -static_cast<double>(t0 - timeNs) * 1e-9;
}

void aggregatePmu(const PmuData& data, const AggregateParams& p, Aggregates& out)
{
    const auto start = std::chrono::steady_clock::now();
    auto inRange = [&p](std::uint64_t t) {
        if (!p.hasRange) return true;
        const double s = secondsSince(p.t0, t);
        return s >= p.from && s <= p.to;
    };
    if (p.full) {
        BranchGraph graph(data.branchInfo());
        CallTree tree(p.stacks);
        const bool lbrStacks = data.branchMode == BranchGraph::Mode::CallStack;
        std::vector<std::uint64_t> frames;
        Sample scratch;
        scratch.present = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleBranchStack;
        out.rangeBranches = 0;
        for (const auto& b : data.branches) {
            if (!inRange(b.time)) continue;
            if (lbrStacks) { // the tree lists every thread and CPU of the range; it applies the filter itself
                lbrCallStackFrames(b.ip, b.branches, frames);
                tree.add(b.pid, b.tid, b.cpu, frames);
            } else {
                tree.listOnly(b.pid, b.tid, b.cpu); // the call graph's thread and CPU choices
            }
            if (!p.stacks.accepts(b.tid, b.cpu)) continue;
            scratch.ip = b.ip;
            scratch.pid = b.pid;
            scratch.time = b.time;
            scratch.branches.view(std::as_bytes(std::span(b.branches))); // no copy per sample
            scratch.branchNr = b.branches.size();
            graph.add(scratch);
            ++out.rangeBranches;
        }
        for (const auto& st : data.stacks)
            if (inRange(st.time)) tree.add(st.pid, st.tid, st.cpu, st.frames);
        out.callTree = tree.report(*data.symbols);
        out.graph = graph.report(*data.symbols);

        // One slot-weighted mean per series: P-core and E-core slots differ in width and meaning, never mix them.
        std::vector<std::vector<const TmaBreakdown*>> points(data.tmaSeriesCount());
        for (const auto& t : data.tma)
            if (t.series < points.size() && inRange(t.time)) points[t.series].push_back(&t.breakdown);
        out.tma.clear();
        for (const auto& series : points)
            out.tma.push_back(averageTma(series));
    }
    const bool filtered = p.bucket >= 0 || p.level >= 0;
    LoadLatency all, narrowed;
    for (const auto& l : data.loads) {
        if (!inRange(l.time)) continue;
        if (p.full || !filtered) all.add(loadSample(l));
        if (!filtered) continue;
        if (p.bucket >= 0 && LoadLatency::bucketOf(l.latency) != static_cast<std::size_t>(p.bucket)) continue;
        if (p.level >= 0 && DataSource::decode(l.dataSrc).level() != static_cast<MemLevel>(p.level)) continue;
        narrowed.add(loadSample(l));
    }
    if (p.full) out.latency = all.report(*data.symbols, 50);
    if (!filtered)
        out.tables = p.full ? out.latency : all.report(*data.symbols, 50);
    else
        out.tables = narrowed.report(*data.symbols, 50);
    out.workerMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace rdt::pmu
