// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The PMU samples the GUI keeps, in compact form, from any source (simulated, imported perf.data, live).
// Plain types only (no Qt) so importers and the simulator can fill one on a worker thread and hand it over.
// Aggregation (BranchGraph, LoadLatency, TMA averaging) happens from these over any time range (PmuSession).

#include "engine/PmuTypes.h"
#include "pmu/BranchGraph.h"
#include "pmu/CallStackSources.h"
#include "pmu/PerfRecord.h"
#include "pmu/SampleStack.h"
#include "pmu/Symbolizer.h"
#include "pmu/Tma.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rdt::pmu {

enum class PmuSourceKind : std::uint8_t { None, Simulated, Imported, Live };

struct PmuBranchSample {
    std::uint64_t time = 0; ///< ns (perf clock of the source)
    std::uint32_t pid = 0;
    std::uint64_t ip = 0;
    std::vector<BranchEntry> branches; ///< branches[0] is the most recent
    std::uint32_t tid = 0;
    std::uint32_t cpu = kUnknownCpu; ///< kUnknownCpu: the attr had no PERF_SAMPLE_CPU
};

/// A sample's frame-pointer callchain (PERF_SAMPLE_CALLCHAIN), when it has no call-stack LBR to give its stack.
struct PmuStackSample {
    std::uint64_t time = 0;
    std::uint32_t pid = 0, tid = 0;
    std::uint32_t cpu = kUnknownCpu;
    std::vector<std::uint64_t> frames; ///< leaf first, context markers dropped (callchainFrames)
};

struct PmuLoadSample {
    std::uint64_t time = 0;
    std::uint64_t ip = 0;
    std::uint64_t addr = 0;
    std::uint64_t dataSrc = 0;
    std::uint32_t pid = 0;
    std::uint32_t latency = 0; ///< cycles (WEIGHT or WEIGHT_STRUCT var1)
};

struct PmuTmaPoint {
    std::uint64_t time = 0; ///< end of the interval, ns
    TmaBreakdown breakdown;
    std::uint32_t series = 0; ///< index into PmuData::tmaSeries (0 when there is one series)
};

struct PmuData {
    PmuSourceKind kind = PmuSourceKind::None;
    std::string name; ///< file name, "simulated Sapphire Rapids-class PMU", ...
    BranchGraph::Mode branchMode = BranchGraph::Mode::AnyBranch;
    bool branchTypes = true; ///< entries carry PERF_BR_* types (the attr's TYPE_SAVE; live and simulated: yes)
    BranchStackSource branchSource = BranchStackSource::Unknown; ///< set by the import (perfdata::branchStackSource)
    BranchGraph::Info branchInfo() const { return { branchMode, branchTypes, branchSource }; }
    std::vector<PmuBranchSample> branches;
    std::vector<PmuLoadSample> loads;
    /// Callchains of samples without a call-stack LBR (any kind of sample: cpu-clock, loads, any-branch LBR).
    std::vector<PmuStackSample> stacks;
    CallStackSources stackSources; ///< what the samples carry towards a call stack (the trees' "why not")
    std::vector<PmuTmaPoint> tma; ///< the intervals of every TMA series, in the order they were read
    /// Labels of the TMA series, indexed by PmuTmaPoint::series: a live capture on a hybrid part counts TMA per core
    /// PMU ("P-cores (cpu_core)", "E-cores (cpu_atom)"). Empty: one unnamed series (non-hybrid, simulated, imported).
    std::vector<std::string> tmaSeries;
    std::uint64_t otherSamples = 0; ///< samples with neither a branch stack nor a load latency (cpu-clock, ...)
    /// Those samples by the function their IP is in (named through `symbols`, as the engine's captures name them).
    std::map<std::string, std::uint64_t> otherFunctions;
    std::uint64_t lost = 0; ///< records or samples the kernel reported lost
    std::vector<std::string> notes; ///< warnings of the importer, what the simulation models
    std::unique_ptr<Symbolizer> symbols = std::make_unique<Symbolizer>();

    bool empty() const { return branches.empty() && loads.empty() && tma.empty() && stacks.empty(); }
    /// How many TMA series there are (at least 1, so series 0 always exists).
    std::size_t tmaSeriesCount() const { return tmaSeries.empty() ? 1 : tmaSeries.size(); }
    /// The label of TMA series `series` (empty when unnamed).
    std::string tmaSeriesLabel(std::size_t series) const
    {
        return series < tmaSeries.size() ? tmaSeries[series] : std::string();
    }
    /// Earliest and latest sample time over every kind (0, 0 when empty).
    std::pair<std::uint64_t, std::uint64_t> timeSpan() const;
};

/// Copies what the GUI needs from a decoded sample into `data` (branch stack, load latency, or counted as other; and
/// its callchain when no call-stack LBR gives its stack).
void addSample(PmuData& data, const Sample& s, const EventAttr* attr);
/// The same from the engine's record of a sample (a live or simulated capture); `callStackMode`: the capture's LBR
/// recipe is in call-stack mode.
void addSampleRecord(PmuData& data, const engine::PmuSampleRecord& s, bool callStackMode);

} // namespace rdt::pmu
