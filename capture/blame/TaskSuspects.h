// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The default group's busiest tasks as suspects of their own (docs/BLAME.md "Tasks of the default group"). resctrl
// counts occupancy and traffic per group, never per task, so a task has no passive evidence of its own: the default
// group's evidence is shared by all its tasks, and a task is judged by its probe alone (moved for a moment into a
// fenced group of its own, then moved back). Which tasks are busiest comes from their CPU time (/proc/PID/stat utime
// plus stime, proc(5)) where the engine runs on this host; a simulated or remote source has no per-task CPU time
// here, and its tasks are taken as the engine lists them.

#include "BlameTypes.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdt::blame {

/// One task's CPU time and command name, read from /proc (none where the task is gone or /proc says nothing).
struct TaskStat {
    std::optional<std::uint64_t> cpuTicks; ///< utime + stime, in clock ticks
    std::string comm; ///< /proc/PID/comm, "" when unknown
};

/// /proc/PID/stat and /proc/PID/comm of each PID, under `procRoot` (tests give a directory of their own).
std::map<unsigned, TaskStat> readTaskStats(const std::vector<unsigned>& pids, const std::string& procRoot = "/proc");

struct BusyTask {
    unsigned pid = 0;
    std::string comm;
    std::optional<double> cpuShare; ///< CPU time over the observation per second of it; none when unknown
};

/// The `count` tasks of `pids` that used the most CPU between `before` and `after` (`seconds` apart), busiest first;
/// without CPU times (empty maps), the first `count` PIDs as listed. Tasks that used none are left out.
std::vector<BusyTask> busiestTasks(const std::vector<unsigned>& pids, const std::map<unsigned, TaskStat>& before,
    const std::map<unsigned, TaskStat>& after, double seconds, unsigned ticksPerSecond, std::size_t count);

/// "default/1234 stream" (the JSON and the tables spell a task suspect so).
std::string taskSuspectName(unsigned pid, const std::string& comm);
/// A suspect as front ends name it: its group ("default" for the root) or, for a task, taskSuspectName.
std::string suspectName(const Suspect& suspect);

} // namespace rdt::blame
