// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuCaptures.h"

#include "CaptureService.h"
#include "PmuCapture.h"
#include "platform/CpuidDump.h"
#include "rdt/GroupNames.h"
#include "simpmu/SimPmuModel.h"

#include <cerrno>

namespace rdt::engine {

PmuCaptures::PmuCaptures(const RdtSource& source, const ServiceOptions& options)
    : m_source(source)
    , m_options(options)
{ }

PmuCaptures::~PmuCaptures()
{
    for (auto& [id, c] : m_captures)
        c->stop();
    m_captures.clear();
}

bool PmuCaptures::start(const PmuRequest& asked, PmuStarted& out, PmuRequest& request)
{
    request = asked;
    // The simulated PMU pairs with this engine's simulated CPU (a Skylake-SP machine counts TMA the pre-Ice Lake
    // way), unless the request names a PMU or a machine preset (whose CPU decides, SimPmuCapture.cpp): a capture
    // labelled Sapphire Rapids next to a Skylake machine's RDT data would be mislabelled.
    if (request.simulated && request.simPmu.empty() && request.machine.empty() && m_source.simulation)
        if (auto table = cpuidTableFromJson(m_source.simulation->cpuidJson()))
            request.simPmu = pmu::simulatedPmuModel(decodeCpuFeatures(*table)).pfmName;
    if (auto bad = checkCatGroup(request); !bad.ok) {
        out.failure = PmuFailure::BadRequest;
        out.result = bad;
        return false;
    }
    std::optional<CpuidTable> engineCpu; // the simulated machine's CPU, for a program in one of its groups
    if (request.simulated && m_source.simulation)
        if (auto table = cpuidTableFromJson(m_source.simulation->cpuidJson())) engineCpu = std::move(*table);
    const std::uint32_t id = m_nextId;
    auto c = PmuCapture::start(id, request, out, m_options.perfSyscalls ? m_options.perfSyscalls() : nullptr,
        engineCpu ? &*engineCpu : nullptr);
    if (!c) return false;
    ++m_nextId;
    m_captures[id] = std::move(c);
    followCatGroup(id);
    return true;
}

CommandResult PmuCaptures::checkCatGroup(const PmuRequest& request)
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

void PmuCaptures::followCatGroup(std::uint32_t id)
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

PmuCapture* PmuCaptures::capture(std::uint32_t id)
{
    const auto it = m_captures.find(id);
    return it == m_captures.end() ? nullptr : it->second.get();
}

Result<PmuBatch> PmuCaptures::pump(std::uint32_t id)
{
    auto* c = capture(id);
    if (!c) return errnoError(ENOENT, "no PMU capture " + std::to_string(id));
    followCatGroup(id); // a mask changed since the last pump reaches the program's caches now
    return c->pump();
}

Result<PmuBatch> PmuCaptures::readCounters(std::uint32_t id)
{
    auto* c = capture(id);
    if (!c) return errnoError(ENOENT, "no PMU capture " + std::to_string(id));
    return c->readCounters();
}

bool PmuCaptures::finished(std::uint32_t id)
{
    auto* c = capture(id);
    return c && c->finished();
}

Result<PmuBatch> PmuCaptures::stop(std::uint32_t id)
{
    auto* c = capture(id);
    if (!c) return errnoError(ENOENT, "no PMU capture " + std::to_string(id));
    c->stop();
    return c->lastBatch(); // what the stop drained and the last TMA interval
}

Result<PmuReport> PmuCaptures::report(std::uint32_t id, std::size_t topN)
{
    auto* c = capture(id);
    if (!c) return errnoError(ENOENT, "no PMU capture " + std::to_string(id));
    return c->report(topN);
}

} // namespace rdt::engine
