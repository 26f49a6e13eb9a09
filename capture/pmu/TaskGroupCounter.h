// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Counting recipes' event groups (Recipes.h: a leader and members read together with PERF_FORMAT_GROUP) on a
// changing set of threads, as TaskCounter.h counts single events: per thread (pid = TID, cpu = -1), a thread that
// leaves keeps its counts so far, one that exited before its groups opened is skipped. What the sweep's
// memory-bound share is counted with on a real machine (MemoryBound.h, docs/EXPERIMENTS.md).

#include "PerfSyscalls.h"
#include "Recipes.h"

#include <map>
#include <vector>

namespace rdt::pmu {

class TaskGroupCounter {
public:
    TaskGroupCounter(PerfSyscalls& sys, std::vector<Recipe> groups);

    /// Starts counting the new threads of `tids`, stops the ones no longer in it and reads every group: one
    /// ReadData per recipe, each value the sum over the threads of value * time_enabled / time_running (perf's
    /// scaling for a multiplexed group), with timeEnabled = timeRunning = the summed enabled time of the threads
    /// whose group ran (both 0 when none did), so the sums need no more scaling.
    Result<std::vector<ReadData>> count(const std::vector<pid_t>& tids);

    std::size_t tasks() const { return m_tasks.size(); }

private:
    struct Group {
        std::vector<UniqueFd> fds; ///< fds[0] is the leader
        ReadData last; ///< the scaled counts at the last read
    };
    Status open(pid_t tid, std::vector<Group>& out);
    Status read(Group& g, std::size_t recipe);

    PerfSyscalls& m_sys;
    PerfEnvironment m_env;
    std::vector<Recipe> m_groups;
    std::map<pid_t, std::vector<Group>> m_tasks;
    std::vector<ReadData> m_gone; ///< the counts of threads no longer counted, per recipe
};

} // namespace rdt::pmu
