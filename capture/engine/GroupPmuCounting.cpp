// SPDX-License-Identifier: GPL-3.0-or-later
#include "GroupPmuCounting.h"

#include "CaptureService.h"
#include "GroupPmuCounter.h"
#include "pmu/PerfSyscalls.h"

#include <cerrno>

namespace rdt::engine {

GroupPmuCounting::GroupPmuCounting(const RdtSource& source, const ServiceOptions& options)
    : m_source(source)
    , m_options(options)
{ }

GroupPmuCounting::~GroupPmuCounting() = default;

Result<GroupPmuCounts> GroupPmuCounting::count(const std::string& group, const std::vector<unsigned>& tasks)
{
    // A simulated source's task IDs are not this machine's threads: never count them with the host's PMU.
    if (!m_source.simulation && m_source.simulated)
        return errnoError(ENOTSUP, "this simulated source has no model of its tasks' execution");
    if (!m_source.simulation) {
        if (!m_hostCounter)
            m_hostCounter = std::make_unique<GroupPmuCounter>(
                m_options.perfSyscalls ? m_options.perfSyscalls() : std::make_unique<pmu::LinuxPerfSyscalls>(),
                m_options.memoryBoundRecipes);
        return m_hostCounter->count(group, tasks);
    }
    const auto counts = m_source.simulation->taskCounts(tasks);
    if (!counts) return errnoError(ENOTSUP, "this simulated source has no model of its tasks' execution");
    GroupPmuCounts out;
    out.simulated = true;
    out.tasks = counts->threads;
    out.cycles = counts->cycles;
    out.instructions = counts->instructions;
    out.llcMisses = counts->llcMisses;
    out.memoryStallCycles = counts->memoryStallCycles;
    out.method = "simulated: the machine model's cycles, L3 misses and memory-stall cycles of the group's threads; "
                 "one instruction per line touched plus one per compute cycle";
    return out;
}

} // namespace rdt::engine
