// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReplayEngine.h"

#include "AllocationLayoutOf.h"
#include "core/IdList.h"
#include "platform/CapabilityReport.h"
#include "session/RecordedCapabilities.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <map>
#include <set>

namespace rdt::engine {

namespace {

const char* const kReadOnlyReason = "a replay shows a recorded session; it changes nothing";
const char* const kReadOnlyFix = "open the machine's live source (--source, or File > Switch source) to change it";

SourceDescription replayDescription(const session::SessionReader& reader)
{
    const auto& meta = reader.meta();
    SourceDescription d;
    d.kind = "replay";
    d.backend = "session " + reader.path();
    d.why = "recorded from " + (meta.source.empty() ? std::string("an unknown source") : meta.source);
    if (!meta.host.empty()) d.why += " on " + meta.host;
    if (meta.simulated) d.why += " (SIMULATED data)";
    if (!reader.issues().empty())
        d.why += "; " + std::to_string(reader.issues().size()) + " problem(s) reading it: " + reader.issues().front();
    d.simulated = meta.simulated;
    if (meta.simulated) d.simulation = "simulated, recorded from " + meta.source;
    d.scenario = meta.scenario;
    d.writability = api::Writability::no(kReadOnlyReason, kReadOnlyFix);
    return d;
}

} // namespace

Result<std::unique_ptr<ReplayEngine>> ReplayEngine::open(const std::string& path)
{
    auto reader = session::SessionReader::open(path);
    if (!reader) return reader.error();
    return std::make_unique<ReplayEngine>(std::shared_ptr<session::SessionReader>(std::move(*reader)));
}

ReplayEngine::ReplayEngine(std::shared_ptr<session::SessionReader> reader, session::ReplaySource::Clock clock)
    : m_reader(std::move(reader))
    , m_replay(m_reader, std::move(clock))
    , m_cpu(session::recordedCpu(m_reader->machine()))
    , m_description(replayDescription(*m_reader))
{ }

Capabilities ReplayEngine::capabilitiesAt(std::uint64_t timeNs) const
{
    return session::recordedCapabilities(
        m_reader->machine(), m_cpu ? &*m_cpu : nullptr, session::recordedValuesOf(m_replay.allocationStateAt(timeNs)));
}

Result<MachineDescription> ReplayEngine::machine()
{
    MachineDescription m;
    m.source = m_description;
    m.capabilities = capabilitiesAt(positionNs());
    m.cpuidJson = m_reader->machine().cpuidJson;
    m.hostname = m_reader->meta().host;
    m.kernel = m_reader->meta().kernel;
    return m;
}

Result<api::AllocationLayout> ReplayEngine::allocationLayout()
{
    return allocationLayoutOf(capabilitiesAt(positionNs()), m_cpu ? &*m_cpu : nullptr);
}

Result<CapabilityReport> ReplayEngine::describeMachine()
{
    if (!m_cpu)
        return errnoError(ENODATA, "the session recorded no CPUID snapshot of its machine",
            "sessions recorded by rdtscope-cli record or the GUI's Record keep one");
    auto report = buildCapabilityReport(*m_cpu, nullptr, nullptr);
    report.source = "CPUID recorded in " + m_reader->path();
    return report;
}

GroupsSnapshot ReplayEngine::snapshot(bool withTasks)
{
    GroupsSnapshot out;
    out.timeNs = positionNs();
    std::map<std::string, GroupState> groups; // std::map order: the default group "" first
    const auto groupAt = [&groups](const std::string& path) -> GroupState& {
        GroupState& g = groups[path];
        g.info.path = path;
        const auto slash = path.rfind('/');
        g.info.name = slash == std::string::npos ? path : path.substr(slash + 1);
        const auto mon = path.find("mon_groups/");
        g.info.isControl = mon == std::string::npos;
        if (!g.info.isControl) g.info.parent = mon == 0 ? std::string() : path.substr(0, mon - 1);
        return g;
    };
    for (const auto& [key, value] : m_replay.allocationStateAt(out.timeNs)) {
        const auto& [group, resource, domain] = key;
        groupAt(group).schemata.set(resource, domain, value);
    }
    for (const auto& [path, member] : m_replay.membershipAt(out.timeNs)) {
        GroupState& g = groupAt(path);
        if (auto cpus = parseIdList(member.cpus, kernelCpuBound())) {
            g.cpus = std::move(*cpus);
            g.cpusKnown = true;
        }
        // The recorder keeps PIDs, or a label such as "stream x4" for simulated tasks: a count only for PIDs.
        if (auto tasks = parseTaskList(member.tasks, kernelPidBound())) {
            g.taskCount = tasks->size();
            if (withTasks) g.tasks = std::move(*tasks);
        }
    }
    for (auto& [path, g] : groups)
        out.groups.push_back(std::move(g));
    return out;
}

CommandResult ReplayEngine::refused(const std::string& what) const
{
    return CommandResult::failure(errnoError(EROFS, "cannot " + what + ": " + kReadOnlyReason, kReadOnlyFix));
}

CommandResult ReplayEngine::createGroup(const std::string& name)
{
    return refused("create group " + name);
}
CommandResult ReplayEngine::createMonitorGroup(const std::string& parent, const std::string& name)
{
    return refused("create monitor group " + (parent.empty() ? name : parent + "/mon_groups/" + name));
}
CommandResult ReplayEngine::deleteGroup(const std::string& path)
{
    return refused("delete group " + path);
}
CommandResult ReplayEngine::assignTasks(const std::string& path, const std::vector<unsigned>& pids)
{
    (void)pids;
    return refused("move tasks into " + path);
}
CommandResult ReplayEngine::assignCpus(const std::string& path, const std::vector<unsigned>& cpus)
{
    (void)cpus;
    return refused("assign CPUs to " + path);
}
CommandResult ReplayEngine::configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions)
{
    (void)domain;
    (void)transactions;
    return refused("configure " + event);
}
CommandResult ReplayEngine::assignCounter(const std::string& path, const std::string& event, int domain, bool assign)
{
    (void)event;
    (void)domain;
    return refused(std::string(assign ? "assign" : "free") + " an MBM counter of " + path);
}
CommandResult ReplayEngine::setCdp(bool enabled)
{
    return refused(std::string(enabled ? "enable" : "disable") + " CDP");
}
AllocationResult ReplayEngine::applyAllocation(const std::string& group, const Schemata& change)
{
    (void)change;
    AllocationResult r;
    r.result = refused("change the allocation of " + (group.empty() ? std::string("the default group") : group));
    return r;
}

CommandResult ReplayEngine::setSamplingInterval(std::uint64_t intervalNs)
{
    (void)intervalNs;
    const auto recorded = samplingIntervalNs();
    if (recorded == 0) return CommandResult::success({ "the session did not record its sampling interval" });
    char text[64];
    std::snprintf(text, sizeof text, "recorded every %.3f s", static_cast<double>(recorded) * 1e-9);
    return CommandResult::success({ text });
}
std::uint64_t ReplayEngine::samplingIntervalNs() const
{
    return m_reader->meta().intervalNs;
}

PmuStarted ReplayEngine::startPmu(const PmuRequest& request)
{
    (void)request;
    PmuStarted s;
    s.result = CommandResult::failure(errnoError(
        ENOTSUP, "a replay runs no PMU captures", "open a perf.data file or a live source for PMU captures"));
    s.failure = PmuFailure::Unavailable;
    return s;
}
CommandResult ReplayEngine::pumpPmu(std::uint32_t id)
{
    return CommandResult::failure(errnoError(ENOENT, "no PMU capture " + std::to_string(id) + " in a replay"));
}
CommandResult ReplayEngine::readPmuCounters(std::uint32_t id)
{
    return pumpPmu(id);
}
bool ReplayEngine::pmuFinished(std::uint32_t id)
{
    (void)id;
    return false;
}
CommandResult ReplayEngine::stopPmu(std::uint32_t id)
{
    return pumpPmu(id);
}
Result<PmuReport> ReplayEngine::pmuReport(std::uint32_t id, std::size_t topN)
{
    (void)topN;
    return pumpPmu(id).error();
}

void ReplayEngine::setPlaying(bool playing)
{
    if (playing)
        m_replay.play();
    else
        m_replay.pause();
}

void ReplayEngine::seek(std::uint64_t timeNs)
{
    m_replay.seek(timeNs);
    m_finished = false;
    m_seekSeen = true;
}

std::vector<EngineEvent> ReplayEngine::drainEvents()
{
    session::ReplayUpdate u;
    const bool fast = m_replay.speed() == kAsFastAsPossible;
    if (!m_replay.playing())
        u = m_replay.poll(); // nothing is due; only a seek to report
    else if (fast)
        u = m_replay.samplesUntil(std::min(m_stopNs, m_replay.endNs()), kMaxSamplesPerDrain);
    else {
        u = m_replay.samplesUntil(std::min(m_stopNs, m_replay.position()), kMaxSamplesPerDrain);
        if (u.batches.empty() && !u.atEnd && m_replay.position() < m_stopNs) u.skippedNs = m_replay.skipLongGap();
    }
    m_finished = u.atEnd
        || (m_replay.playing() && u.batches.empty() && (fast || m_replay.position() >= std::min(m_stopNs, endNs())));

    std::vector<EngineEvent> out;
    out.reserve(u.batches.size() + u.allocations.size() + 1);
    std::size_t next = 0;
    const auto changesUntil = [&](std::uint64_t t) {
        for (; next < u.allocations.size() && u.allocations[next].timeNs <= t; ++next)
            out.emplace_back(std::move(u.allocations[next]));
    };
    for (auto& b : u.batches) {
        changesUntil(b.timeNs);
        out.emplace_back(std::move(b));
    }
    changesUntil(UINT64_MAX);
    if (u.skippedNs > 0) {
        char text[96];
        std::snprintf(text, sizeof text, "skipped %.3f s of session time with no samples",
            static_cast<double>(u.skippedNs) / 1e9);
        out.emplace_back(EngineWarning { positionNs(), text });
    }
    for (const auto& e : out)
        m_taps.notify(e);
    return out;
}

} // namespace rdt::engine
