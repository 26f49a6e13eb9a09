// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A control group's PMU counts on a real machine: its tasks (the resctrl tasks file's thread IDs) counted with
// perf_event_open one thread at a time (pmu/TaskCounter.h), one counter set per group, kept between calls so each
// call returns counts cumulative since the group's first (what Engine::countGroupPmu promises).

#include "EngineTypes.h"
#include "pmu/PerfSyscalls.h"
#include "pmu/TaskCounter.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rdt::engine {

class GroupPmuCounter {
public:
    /// Counts above this many tasks are refused: three counters per thread (and per core PMU) would exhaust file
    /// descriptors on a group such as the default one, which holds every thread of the machine.
    static constexpr std::size_t kMaxTasks = 512;

    explicit GroupPmuCounter(std::unique_ptr<pmu::PerfSyscalls> sys);
    Result<GroupPmuCounts> count(const std::string& group, const std::vector<unsigned>& tasks);

private:
    std::unique_ptr<pmu::PerfSyscalls> m_sys;
    std::map<std::string, std::unique_ptr<pmu::TaskCounter>> m_groups;
};

} // namespace rdt::engine
