// SPDX-License-Identifier: GPL-3.0-or-later
#include "GroupPmuCounter.h"

#include <cerrno>

namespace rdt::engine {

GroupPmuCounter::GroupPmuCounter(std::unique_ptr<pmu::PerfSyscalls> sys)
    : m_sys(std::move(sys))
{ }

Result<GroupPmuCounts> GroupPmuCounter::count(const std::string& group, const std::vector<unsigned>& tasks)
{
    const std::string shown = group.empty() ? "default" : group;
    if (tasks.size() > kMaxTasks)
        return errnoError(EMFILE,
            shown + " has " + std::to_string(tasks.size()) + " tasks; counting more than " + std::to_string(kMaxTasks)
                + " one by one is refused",
            "sweep a group that holds the workload's own tasks");
    auto& counter = m_groups[group];
    if (!counter) counter = std::make_unique<pmu::TaskCounter>(*m_sys);
    const std::vector<pid_t> tids(tasks.begin(), tasks.end());
    auto c = counter->count(tids);
    if (!c) {
        m_groups.erase(group); // a later call starts again rather than from counters half opened
        return c.error();
    }
    GroupPmuCounts out;
    out.tasks = c->tasks;
    out.cycles = c->cycles;
    out.instructions = c->instructions;
    out.llcMisses = c->llcMisses;
    // Unfinished: the memory-bound share needs a model's stall events (or the TMA slots group); not counted here.
    out.method = "perf_event_open on each of the group's " + std::to_string(c->tasks)
        + " thread(s): cycles, instructions, cache-misses (LONGEST_LAT_CACHE.MISS on Intel)"
        + (c->userOnly ? ", user space only (perf_event_paranoid >= 2)" : "")
        + "; memory-bound share not counted on real machines yet";
    return out;
}

} // namespace rdt::engine
