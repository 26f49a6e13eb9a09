// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the samples of a recording carry towards a call stack, and when none does, why and which `perf record` option
// would record one (docs/PMU.md "Call trees and flame graph"): an LBR in call-stack mode (--call-graph lbr), a
// frame-pointer callchain (-g), or a user stack copy for DWARF unwinding (--call-graph dwarf), which rdtscope does not
// unwind. An LBR in any-branch mode (-b) holds taken branches, not a call stack.

#include "PerfRecord.h"

#include <cstdint>
#include <string>

namespace rdt::pmu {

struct CallStackSources {
    std::uint64_t samples = 0; ///< every sample seen
    std::uint64_t lbrCallStack = 0; ///< with an LBR in call-stack mode
    std::uint64_t lbrAnyBranch = 0; ///< with an LBR in any-branch mode
    std::uint64_t callchains = 0; ///< with a PERF_SAMPLE_CALLCHAIN holding at least one address
    std::uint64_t userStacks = 0; ///< with PERF_SAMPLE_STACK_USER (perf's --call-graph dwarf)

    /// Counts one sample by what it carries.
    void add(bool branchStack, bool callStackMode, bool callchainAddresses, bool userStack);
    /// Counts a decoded sample; `callStackMode`: its attr's LBR is in call-stack mode (BranchGraph::Info::fromAttr).
    void add(const Sample& s, bool callStackMode);

    /// Samples that give a call stack (LBR call stacks and callchains).
    std::uint64_t withStacks() const { return lbrCallStack + callchains; }
    /// Empty when some sample carries a call stack; otherwise why none does and what would record one.
    std::string whyNone() const;
};

} // namespace rdt::pmu
