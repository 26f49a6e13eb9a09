// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The PMU aggregation of one time range and latency filter, as a plain function (no Qt, no shared state) so
// PmuSession can run it on a worker thread over a snapshot of its data: the branch graph and the call trees (both
// narrowed to a thread and CPU when asked), the load-latency histogram and tables, and the slot-weighted TMA
// breakdown of the range.

#include "PmuData.h"
#include "pmu/CallTree.h"
#include "pmu/LoadLatency.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rdt::pmu {

/// Everything an aggregation reads besides the samples (copied into the job, never shared with the GUI).
struct AggregateParams {
    std::uint64_t t0 = 0; ///< the data's first sample time: range seconds count from here
    bool hasRange = false;
    double from = 0, to = 0; ///< seconds since t0, inclusive
    int bucket = -1, level = -1; ///< latency filter of the tables (-1: any)
    bool full = true; ///< false: only the latency tables (a histogram click leaves the rest as it is)
    StackFilter stacks; ///< thread and CPU of the branch graph, the call trees and the flame graph
};

struct Aggregates {
    BranchGraphReport graph;
    /// Call trees over the range and the stack filter: LBR call stacks (call-stack mode) and callchains
    /// (PmuData::stacks). With only call-stack LBR samples its total equals graph.samples.
    CallTreeReport callTree;
    LoadLatencyReport latency; ///< histogram over the range
    LoadLatencyReport tables; ///< function and cache-line tables over the range and the latency filter
    std::vector<TmaBreakdown> tma; ///< one per TMA series (PmuData::tmaSeriesCount), each over the range
    std::size_t rangeBranches = 0;
    double workerMs = 0; ///< how long the aggregation took (the benchmark prints it)
};

/// Seconds of `timeNs` since `t0` (negative before it), the one conversion every range check uses.
double secondsSince(std::uint64_t t0, std::uint64_t timeNs);

/// Aggregates `data` over `p`. Resolves addresses through data.symbols, whose cache it fills: the caller
/// guarantees that nothing else reads or writes `data` (samples or symbols) while this runs.
/// With p.full false only out.tables is computed.
void aggregatePmu(const PmuData& data, const AggregateParams& p, Aggregates& out);

} // namespace rdt::pmu
