// SPDX-License-Identifier: GPL-3.0-or-later
#include "GroupPmuCounter.h"
#include "rdt/GroupNames.h"

#include "pmu/CorePmus.h"
#include "pmu/PmuCpuid.h"

#include <cerrno>

namespace rdt::engine {

Result<pmu::MemoryBoundRecipes> hostMemoryBoundRecipes(const pmu::PerfEnvironment& env)
{
    if (!env.hybridPmus().empty())
        return makeError("the memory-bound share is not counted on hybrid parts",
            "unfinished: per-thread TMA groups would be needed once per core PMU (cpu_core, cpu_atom); IPC and MPKI "
            "are still counted");
    auto parts = pmu::corePmuParts(env);
    if (!parts) return parts.error();
    if (parts->empty()) return makeError("no core PMU to count the memory-bound share with");
    pmu::RecipeOptions ro = pmu::hostRecipeOptions(env, pmu::readPmuCpuid());
    ro.kernel = env.isRoot || !env.paranoidKnown || env.paranoid < 2; // as TaskCounter's events (perf :u at 2)
    return pmu::memoryBoundRecipes(parts->front().encoder, ro);
}

GroupPmuCounter::GroupPmuCounter(std::unique_ptr<pmu::PerfSyscalls> sys, MemoryRecipes memoryRecipes)
    : m_sys(std::move(sys))
    , m_memoryRecipes(
          memoryRecipes ? memoryRecipes(m_sys->environment()) : hostMemoryBoundRecipes(m_sys->environment()))
{ }

std::string GroupPmuCounter::countMemory(
    GroupState& s, const std::vector<pid_t>& tids, double cycles, GroupPmuCounts& out)
{
    if (!m_memoryRecipes) return m_memoryRecipes.error().toString();
    if (!s.memoryNote.empty()) return s.memoryNote;
    if (!s.memory) s.memory = std::make_unique<pmu::TaskGroupCounter>(*m_sys, m_memoryRecipes->groups);
    auto sums = s.memory->count(tids);
    if (!sums) {
        // The groups may not open where IPC's events do (counters held by another tool, an event the kernel
        // refuses): the share is left out and IPC and MPKI stay.
        s.memory.reset();
        s.memoryNote = "not counted: " + sums.error().toString();
        return s.memoryNote;
    }
    std::vector<pmu::ReadData> deltas;
    for (std::size_t i = 0; i < sums->size(); ++i)
        deltas.push_back(i < s.lastMemory.size() ? pmu::deltaRead((*sums)[i], s.lastMemory[i]) : (*sums)[i]);
    const auto share = pmu::memoryBoundShare(*m_memoryRecipes, deltas);
    const double dCycles = cycles - s.lastCycles;
    s.lastMemory = std::move(*sums);
    s.lastCycles = cycles;
    if (share.share) s.memoryCycles += *share.share * dCycles;
    // An interval with cycles but no share (the groups were never scheduled) gives no figure rather than a zero.
    if (share.share || dCycles <= 0) out.memoryStallCycles = s.memoryCycles;
    return m_memoryRecipes->description + (share.note.empty() ? "" : " (" + share.note + ")");
}

Result<GroupPmuCounts> GroupPmuCounter::count(const std::string& group, const std::vector<unsigned>& tasks)
{
    const std::string shown = displayGroup(group);
    if (tasks.size() > kMaxTasks)
        return errnoError(EMFILE,
            shown + " has " + std::to_string(tasks.size()) + " tasks; counting more than " + std::to_string(kMaxTasks)
                + " one by one is refused",
            "sweep a group that holds the workload's own tasks");
    auto& s = m_groups[group];
    if (!s.counter) s.counter = std::make_unique<pmu::TaskCounter>(*m_sys);
    const std::vector<pid_t> tids(tasks.begin(), tasks.end());
    auto c = s.counter->count(tids);
    if (!c) {
        m_groups.erase(group); // a later call starts again rather than from counters half opened
        return c.error();
    }
    GroupPmuCounts out;
    out.tasks = c->tasks;
    out.cycles = c->cycles;
    out.instructions = c->instructions;
    out.llcMisses = c->llcMisses;
    const std::string memory = countMemory(s, tids, c->cycles, out);
    out.method = "perf_event_open on each of the group's " + std::to_string(c->tasks)
        + " thread(s): cycles, instructions, cache-misses (LONGEST_LAT_CACHE.MISS on Intel)"
        + (c->userOnly ? ", user space only (perf_event_paranoid >= 2)" : "") + "; memory-bound share: " + memory;
    return out;
}

} // namespace rdt::engine
