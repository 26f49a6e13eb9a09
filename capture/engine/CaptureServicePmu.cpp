// SPDX-License-Identifier: GPL-3.0-or-later
// CaptureService's PMU captures: starting one (simulated or through perf_event_open), following a CAT group's
// tasks, pumping and reading it, stopping it, and the per-group PMU counts. RDT is in CaptureService.cpp.
#include "CaptureService.h"

#include "GroupPmuCounter.h"
#include "PmuCapture.h"
#include "platform/CpuidDump.h"
#include "pmu/PerfSyscalls.h"
#include "rdt/GroupNames.h"
#include "simpmu/SimPmuModel.h"

#include <algorithm>

namespace rdt::engine {

PmuStarted CaptureService::startPmu(const PmuRequest& asked)
{
    PmuStarted out;
    PmuRequest request = asked;
    // The simulated PMU pairs with this engine's simulated CPU (a Skylake-SP machine counts TMA the pre-Ice Lake
    // way), unless the request names a PMU or a machine preset (whose CPU decides, SimPmuCapture.cpp): a capture
    // labelled Sapphire Rapids next to a Skylake machine's RDT data would be mislabelled.
    if (request.simulated && request.simPmu.empty() && request.machine.empty() && m_source.simulation)
        if (auto table = cpuidTableFromJson(m_source.simulation->cpuidJson()))
            request.simPmu = pmu::simulatedPmuModel(decodeCpuFeatures(*table)).pfmName;
    if (auto bad = checkCatGroup(request); !bad.ok) {
        out.failure = PmuFailure::BadRequest;
        out.result = bad;
        return out;
    }
    std::optional<CpuidTable> engineCpu; // the simulated machine's CPU, for a program in one of its groups
    if (request.simulated && m_source.simulation)
        if (auto table = cpuidTableFromJson(m_source.simulation->cpuidJson())) engineCpu = std::move(*table);
    const std::uint32_t id = m_nextPmuId;
    auto c = PmuCapture::start(id, request, out, m_options.perfSyscalls ? m_options.perfSyscalls() : nullptr,
        engineCpu ? &*engineCpu : nullptr);
    if (!c) return out;
    ++m_nextPmuId;
    m_pmu[id] = std::move(c);
    followCatGroup(id);
    push(PmuCaptureStarted { nowNs(), out.info, request });
    return out;
}

CommandResult CaptureService::checkCatGroup(const PmuRequest& request)
{
    if (request.catGroup.empty()) return CommandResult::success();
    const std::string& g = request.catGroup;
    if (auto st = checkGroupPath(g); !st) return CommandResult::failure(st.error());
    if (!request.simulated)
        return CommandResult::failure(errnoError(EINVAL,
            "only the simulated PMU's program runs in a group ('" + g + "'); a real capture measures its target",
            "move the target's tasks into the group (rdtscope-cli groups assign) instead"));
    if (!m_source.backend)
        return CommandResult::failure(errnoError(EINVAL,
            "a program in group '" + g + "' follows that group's L3 mask, and this engine has no RDT source",
            "start the capture on the simulated machine's engine (--source sim)"));
    if (request.machine.empty() && !m_source.simulation)
        return CommandResult::failure(errnoError(EINVAL,
            "a simulated program in group '" + g + "' needs a simulated machine's caches, and " + m_source.kind
                + " is a real machine",
            "name a machine preset for the program's caches, or use --source sim"));
    if (auto schemata = m_source.backend->readSchemata(g); !schemata)
        return CommandResult::failure(errnoError(ENOENT, "no control group '" + g + "' to run the program in",
            "name one of the groups `rdtscope-cli groups list` shows (" + schemata.error().message + ")"));
    return CommandResult::success();
}

void CaptureService::followCatGroup(std::uint32_t id)
{
    auto* c = capture(id);
    if (!c || c->catGroup().empty() || !m_source.backend) return;
    // The group's L3 mask in domain 0 (its data mask with CDP on, which is what the program's loads fill).
    auto schemata = m_source.backend->readSchemata(c->catGroup());
    if (!schemata) return; // the group is gone: the capture keeps the last mask it had
    auto value = schemata->value("L3", 0);
    if (!value) value = schemata->value("L3DATA", 0);
    if (!value) return;
    if (auto mask = parseMask(*value)) c->setL3Mask(static_cast<std::uint32_t>(*mask));
}

PmuCapture* CaptureService::capture(std::uint32_t id)
{
    const auto it = m_pmu.find(id);
    return it == m_pmu.end() ? nullptr : it->second.get();
}

void CaptureService::pushPmu(PmuBatch batch)
{
    std::lock_guard lock(m_eventMutex);
    m_pmuBatches.push_back(std::move(batch));
    while (m_pmuBatches.size() > m_options.eventCapacity) {
        m_pmuBatches.pop_front();
        ++m_dropped;
    }
}

CommandResult CaptureService::pumpPmu(std::uint32_t id)
{
    auto* c = capture(id);
    if (!c) return CommandResult::failure(errnoError(ENOENT, "no PMU capture " + std::to_string(id)));
    followCatGroup(id); // a mask changed since the last pump reaches the program's caches now
    pushPmu(c->pump());
    return CommandResult::success();
}

CommandResult CaptureService::readPmuCounters(std::uint32_t id)
{
    auto* c = capture(id);
    if (!c) return CommandResult::failure(errnoError(ENOENT, "no PMU capture " + std::to_string(id)));
    auto b = c->readCounters();
    if (!b) return CommandResult::failure(b.error());
    pushPmu(std::move(*b));
    return CommandResult::success();
}

bool CaptureService::pmuFinished(std::uint32_t id)
{
    auto* c = capture(id);
    return c && c->finished();
}

CommandResult CaptureService::stopPmu(std::uint32_t id)
{
    auto* c = capture(id);
    if (!c) return CommandResult::failure(errnoError(ENOENT, "no PMU capture " + std::to_string(id)));
    c->stop();
    pushPmu(c->lastBatch()); // what the stop drained and the last TMA interval

    return CommandResult::success();
}

Result<PmuReport> CaptureService::pmuReport(std::uint32_t id, std::size_t topN)
{
    auto* c = capture(id);
    if (!c) return errnoError(ENOENT, "no PMU capture " + std::to_string(id));
    return c->report(topN);
}

Result<GroupPmuCounts> CaptureService::countGroupPmu(const std::string& group)
{
    const auto snap = snapshot(true);
    if (!snap.result.ok) return snap.result.error();
    const auto it = std::find_if(
        snap.groups.begin(), snap.groups.end(), [&](const GroupState& g) { return g.info.path == group; });
    if (it == snap.groups.end()) return errnoError(ENOENT, "no group '" + group + "'");
    // A simulated source's task IDs are not this machine's threads: never count them with the host's PMU.
    if (!m_source.simulation && m_source.simulated)
        return errnoError(ENOTSUP, "this simulated source has no model of its tasks' execution");
    if (!m_source.simulation) {
        if (!m_groupPmu)
            m_groupPmu = std::make_unique<GroupPmuCounter>(
                m_options.perfSyscalls ? m_options.perfSyscalls() : std::make_unique<pmu::LinuxPerfSyscalls>(),
                m_options.memoryBoundRecipes);
        return m_groupPmu->count(group, it->tasks);
    }
    const auto counts = m_source.simulation->taskCounts(it->tasks);
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
