// SPDX-License-Identifier: GPL-3.0-or-later
#include "CallStackSources.h"

namespace rdt::pmu {

void CallStackSources::add(bool branchStack, bool callStackMode, bool callchainAddresses, bool userStack)
{
    ++samples;
    if (branchStack) ++(callStackMode ? lbrCallStack : lbrAnyBranch);
    // A call-stack LBR sample is counted as an LBR stack only: its callchain holds the same user frames' start.
    if (callchainAddresses && !(branchStack && callStackMode)) ++callchains;
    if (userStack) ++userStacks;
}

void CallStackSources::add(const Sample& s, bool callStackMode)
{
    bool addresses = false;
    if (s.has(perf::SampleCallchain)) // a decoder's reused Sample keeps the values of fields this one lacks
        for (auto ip : s.callchain)
            if (!perf::isContextMarker(ip) && ip != 0) {
                addresses = true;
                break;
            }
    add(s.has(perf::SampleBranchStack), callStackMode, addresses, s.has(perf::SampleStackUser));
}

std::string CallStackSources::whyNone() const
{
    if (withStacks() > 0) return {};
    static const std::string options
        = "Record call stacks with perf record --call-graph lbr (the LBR as a call stack: Intel Haswell or later, "
          "user space), -g (frame pointers: binaries built with -fno-omit-frame-pointer) or --call-graph dwarf "
          "(a copy of the user stack; rdtscope does not unwind those yet, use -g or lbr).";
    if (samples == 0) return "No samples yet.";
    if (userStacks > 0)
        return "The samples carry copies of the user stack for DWARF unwinding (perf record --call-graph dwarf), "
               "which rdtscope does not unwind, and no frame-pointer callchain. Record with --call-graph lbr or -g "
               "instead.";
    if (lbrAnyBranch > 0)
        return "The LBR was recorded in any-branch mode (perf record -b, or the lbr-any recipe): its entries are the "
               "last taken branches, not a call stack, so they make the branch call graph but no call tree. "
            + options;
    return "The samples carry no call chain (their sample_type has neither PERF_SAMPLE_CALLCHAIN nor a call-stack "
           "LBR). "
        + options;
}

} // namespace rdt::pmu
