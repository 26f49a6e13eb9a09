// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Cycles, instructions and last-level-cache misses of a changing set of tasks (a control group's tasks file lists
// its threads), counted with perf_event_open per thread (pid = TID, cpu = -1: the counters follow the thread to
// whatever CPU runs it). What a sweep turns into IPC and MPKI per step on a real machine (docs/EXPERIMENTS.md).
//
// The events are the generic hardware ones perf calls cycles, instructions and cache-misses; on Intel the kernel
// maps cache-misses to the architectural event LLC Misses, LONGEST_LAT_CACHE.MISS (event 2EH, umask 41H: SDM 22.2.1.2
// "Pre-defined Architectural Performance Events"; arch/x86/events/intel/core.c intel_perfmon_event_map).
// Hybrid parts count each event once per core PMU (cpu_core, cpu_atom: the PMU's type in config bits 32-63, as
// perf does), and the two are summed.

#include "PerfSyscalls.h"

#include <cstdint>
#include <map>
#include <vector>

namespace rdt::pmu {

/// Cumulative counts of every task ever counted, scaled for multiplexing (value * enabled / running).
struct TaskCounts {
    std::size_t tasks = 0; ///< tasks counted now
    std::size_t gone = 0; ///< tasks that left the set (their counts up to the last read are kept)
    double cycles = 0;
    double instructions = 0;
    double llcMisses = 0;
    bool userOnly = false; ///< kernel time excluded (perf_event_paranoid >= 2 without privileges, as perf :u)
};

class TaskCounter {
public:
    explicit TaskCounter(PerfSyscalls& sys);

    /// Starts counting the tasks of `tids` not counted yet, stops counting those no longer in it (their counts so
    /// far are kept), and reads every counter: the sums since each task's counting began. A task that exited
    /// before its counters opened is skipped; any other refusal fails with perf's advice (openAdvice).
    Result<TaskCounts> count(const std::vector<pid_t>& tids);

private:
    struct Counter {
        UniqueFd fd;
        unsigned event = 0; ///< index into the events (cycles, instructions, LLC misses)
        double last = 0; ///< scaled value at the last read
    };
    Status open(pid_t tid, std::vector<Counter>& out);
    Result<double> read(const Counter& c);

    PerfSyscalls& m_sys;
    PerfEnvironment m_env;
    std::map<pid_t, std::vector<Counter>> m_tasks;
    double m_gone[3] = { 0, 0, 0 }; ///< the counts of tasks no longer counted
    std::size_t m_goneTasks = 0;
};

} // namespace rdt::pmu
