// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A control group's PMU counts on a real machine: its tasks (the resctrl tasks file's thread IDs) counted with
// perf_event_open one thread at a time (pmu/TaskCounter.h), one counter set per group, kept between calls so each
// call returns counts cumulative since the group's first (what Engine::countGroupPmu promises).
//
// The memory-bound share (pmu/MemoryBound.h) is not linear in the counts (Skylake's formula is a product of
// ratios), so it cannot be summed as a count. Each call computes the share of the interval since the group's
// previous call from its TMA groups (pmu/TaskGroupCounter.h) and adds share x the interval's cycles to
// memoryStallCycles: a client's difference over its own interval, divided by its cycles, is the cycle-weighted
// mean share of the calls in it, which is that interval's share when it reads at both ends (as a sweep step does).

#include "EngineTypes.h"
#include "pmu/MemoryBound.h"
#include "pmu/PerfSyscalls.h"
#include "pmu/TaskCounter.h"
#include "pmu/TaskGroupCounter.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rdt::engine {

/// The memory-bound groups for this machine (libpfm4's model, CPUID.23H slots per cycle, user-only counting at
/// perf_event_paranoid >= 2 without privileges), or why the share cannot be counted here (hybrid parts, models
/// without a formula).
Result<pmu::MemoryBoundRecipes> hostMemoryBoundRecipes(const pmu::PerfEnvironment& env);

class GroupPmuCounter {
public:
    /// Counts above this many tasks are refused: three counters per thread (and per core PMU) would exhaust file
    /// descriptors on a group such as the default one, which holds every thread of the machine.
    static constexpr std::size_t kMaxTasks = 512;

    using MemoryRecipes = std::function<Result<pmu::MemoryBoundRecipes>(const pmu::PerfEnvironment&)>;
    /// `memoryRecipes` unset: hostMemoryBoundRecipes.
    explicit GroupPmuCounter(std::unique_ptr<pmu::PerfSyscalls> sys, MemoryRecipes memoryRecipes = {});
    Result<GroupPmuCounts> count(const std::string& group, const std::vector<unsigned>& tasks);

private:
    struct GroupState {
        std::unique_ptr<pmu::TaskCounter> counter;
        std::unique_ptr<pmu::TaskGroupCounter> memory; ///< none when the share is not counted
        std::vector<pmu::ReadData> lastMemory; ///< the groups' sums at the previous call
        double lastCycles = 0;
        double memoryCycles = 0; ///< sum of share x cycles over the calls so far
        std::string memoryNote; ///< why the share is not counted
    };
    std::string countMemory(GroupState& s, const std::vector<pid_t>& tids, double cycles, GroupPmuCounts& out);

    std::unique_ptr<pmu::PerfSyscalls> m_sys;
    Result<pmu::MemoryBoundRecipes> m_memoryRecipes;
    std::map<std::string, GroupState> m_groups;
};

} // namespace rdt::engine
