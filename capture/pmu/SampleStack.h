// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The call stack a sample carries, as addresses leaf first, and the thread/CPU filter every stack view applies
// (docs/PMU.md "Call trees and flame graph"). Two sources:
//  - an LBR in call-stack mode (branch_sample_type CALL_STACK, perf's --call-graph lbr): entries[0].to (the current
//    function) followed by entries[i].from (the call sites), an all-zero entry ending the valid stack (SDM 21.1.2.4);
//    an empty stack leaves only the sample's IP;
//  - a PERF_SAMPLE_CALLCHAIN (perf's -g, frame pointers): the kernel's list of instruction pointers, leaf first, with
//    context markers such as PERF_CONTEXT_USER between the kernel and user parts (uapi perf_event.h), dropped here.

#include "PerfRecord.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace rdt::pmu {

/// A sample whose attr did not record PERF_SAMPLE_CPU.
constexpr std::uint32_t kUnknownCpu = 0xffffffffu;

/// The CPU of a sample, kUnknownCpu when its attr had no PERF_SAMPLE_CPU.
inline std::uint32_t sampleCpu(const Sample& s)
{
    return s.has(perf::SampleCpu) ? s.cpu : kUnknownCpu;
}

/// Leaf-first frames of an LBR call-stack sample (see above). `Entries` is a BranchStack or a vector of BranchEntry.
template <class Entries>
void lbrCallStackFrames(std::uint64_t ip, const Entries& entries, std::vector<std::uint64_t>& frames)
{
    frames.clear();
    if (entries.size() == 0 || (entries[0].from == 0 && entries[0].to == 0)) {
        frames.push_back(ip); // only the IP is known
        return;
    }
    frames.push_back(entries[0].to);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const BranchEntry e = entries[i];
        if (e.from == 0 && e.to == 0) break;
        frames.push_back(e.from);
    }
}

/// Leaf-first frames of a PERF_SAMPLE_CALLCHAIN, context markers dropped (empty when it holds none).
void callchainFrames(std::span<const std::uint64_t> callchain, std::vector<std::uint64_t>& frames);

/// Which samples a stack view keeps: one thread, one CPU, or both (unset: any). A sample whose CPU was not recorded
/// never matches a CPU filter.
struct StackFilter {
    std::optional<std::uint32_t> tid;
    std::optional<std::uint32_t> cpu;
    bool active() const { return tid.has_value() || cpu.has_value(); }
    bool accepts(std::uint32_t sampleTid, std::uint32_t cpuOfSample) const
    {
        return (!tid || *tid == sampleTid) && (!cpu || *cpu == cpuOfSample);
    }
};

} // namespace rdt::pmu
