// SPDX-License-Identifier: GPL-3.0-or-later
#include "CaptureService.h"

#include "ExternalChangeDetector.h"
#include "GroupPmuCounting.h"
#include "PmuCaptures.h"
#include "SourceAssembly.h"
#include "core/Time.h"
#include "platform/CpuidDump.h"
#include "platform/HostCapabilityReport.h"
#include "platform/LiveCpuid.h"
#include "rdt/AllocationEngine.h"
#include "rdt/MsrBackend.h"
#include "rdt/Sampler.h"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <sys/utsname.h>
#include <unistd.h>
#include <utility>

namespace rdt::engine {

CommandResult CommandResult::success(std::vector<std::string> notes)
{
    CommandResult r;
    r.notes = std::move(notes);
    return r;
}

CommandResult CommandResult::failure(const Error& error)
{
    CommandResult r;
    r.ok = false;
    r.code = error.code;
    r.reason = error.message;
    r.advice = error.advice;
    return r;
}

namespace {
CommandResult fromStatus(const Status& s)
{
    return s ? CommandResult::success() : CommandResult::failure(s.error());
}

Error noRdt()
{
    return errnoError(ENODEV, "no RDT source is open in this service", "open the service with an RDT source");
}
}

CaptureService::CaptureService(const ServiceOptions& options)
    : m_options(options)
    , m_pmu(std::make_unique<PmuCaptures>(m_source, m_options))
    , m_groupPmu(std::make_unique<GroupPmuCounting>(m_source, m_options))
{ }

CaptureService::~CaptureService()
{
    stopSampling();
    m_pmu.reset(); // stops every capture
    m_allocation.reset();
    m_sampler.reset();
}

Result<std::unique_ptr<CaptureService>> CaptureService::open(const ServiceOptions& options)
{
    std::unique_ptr<CaptureService> s(new CaptureService(options));
    if (options.openRdt)
        if (auto st = s->openRdt(); !st) return st.error();
    return Result<std::unique_ptr<CaptureService>>(std::move(s));
}

Result<std::unique_ptr<CaptureService>> CaptureService::openWith(RdtSource source, const ServiceOptions& options)
{
    if (!source.backend) return errnoError(EINVAL, "no RDT backend in the source given to the capture service");
    std::unique_ptr<CaptureService> s(new CaptureService(options));
    s->adopt(std::move(source));
    return Result<std::unique_ptr<CaptureService>>(std::move(s));
}

Status CaptureService::openRdt()
{
    auto opened = openRdtSource(m_options.rdt);
    if (!opened) return opened.error();
    adopt(std::move(*opened));
    return {};
}

void CaptureService::adopt(RdtSource source)
{
    m_source = std::move(source);
    m_description.kind = m_source.kind;
    m_description.why = m_source.why;
    m_description.simulated = m_source.simulated;
    m_description.warnings = m_source.warnings;
    m_description.writability = writabilityOf(m_source);
    if (m_source.simulation) {
        m_description.simulation = m_source.simulation->describe();
        m_description.scenario = m_source.simulation->scenarioName();
    }
    attachBackend();
}

void CaptureService::attachBackend()
{
    m_description.backend = m_source.backend->describe();
    m_source.backend->setSncNodeReadings(m_options.sncNodeSamples);
    m_allocation = std::make_unique<AllocationEngine>(*m_source.backend);
    if (auto* sim = m_source.simulation.get()) m_allocation->setClock([sim] { return sim->nowNs(); });
    m_allocation->setListener([this](const AllocationChanged& e) { push(e); });
    {
        std::lock_guard lock(m_externalMutex);
        if (!m_external) m_external = std::make_unique<ExternalChangeDetector>();
        m_external->reset(); // a new backend (or a remount): its state now is the baseline
    }
    checkExternalChanges(true);
    (void)setSamplingInterval(m_requestedIntervalNs);
}

Result<MachineDescription> CaptureService::machine()
{
    if (!hasRdt()) return noRdt();
    auto caps = m_source.backend->capabilities();
    if (!caps) return caps.error();
    MachineDescription m;
    m.source = m_description;
    m.capabilities = std::move(*caps);
    if (m_source.simulation) {
        m.cpuidJson = m_source.simulation->cpuidJson();
    } else {
        LiveCpuid cpuid;
        m.cpuidJson = cpuidTableToJson(snapshotCpuid(cpuid));
    }
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0) m.hostname = host;
    utsname u {};
    if (::uname(&u) == 0) m.kernel = std::string(u.sysname) + " " + u.release + " " + u.version + " " + u.machine;
    return m;
}

GroupsSnapshot CaptureService::snapshot(bool withTasks)
{
    GroupsSnapshot out;
    if (!hasRdt()) {
        out.result = CommandResult::failure(noRdt());
        return out;
    }
    out.timeNs = nowNs();
    auto groups = m_source.backend->listGroups();
    if (!groups) {
        out.result = CommandResult::failure(groups.error());
        return out;
    }
    for (auto& g : *groups) {
        GroupState s;
        s.info = g;
        if (g.isControl) {
            if (auto sch = m_source.backend->readSchemata(g.path))
                s.schemata = std::move(*sch);
            else
                s.schemataError = sch.error().toString();
        }
        if (auto c = m_source.backend->cpus(g.path)) {
            s.cpus = std::move(*c);
            s.cpusKnown = true;
        }
        if (auto t = m_source.backend->tasks(g.path)) {
            s.taskCount = t->size();
            if (withTasks) s.tasks = std::move(*t);
        }
        out.groups.push_back(std::move(s));
    }
    return out;
}

std::uint64_t CaptureService::nowNs() const
{
    return m_source.simulation ? m_source.simulation->nowNs() : monotonicNs();
}

void CaptureService::advanceTo(std::uint64_t timeNs)
{
    if (!m_source.simulation) return;
    m_source.simulation->advanceTo(timeNs);
    takeSimulationEvents();
}

bool CaptureService::holdScenarioSteps(bool hold)
{
    return m_source.simulation && m_source.simulation->holdTimedSteps(hold);
}

CommandResult CaptureService::createGroup(const std::string& name)
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    std::lock_guard lock(m_externalMutex);
    auto made = m_source.backend->createControlGroup(name);
    if (made) m_external->adoptGroup(*m_source.backend, name); // its defaults are ours, not another program's
    return fromStatus(made);
}

CommandResult CaptureService::createMonitorGroup(const std::string& parent, const std::string& name)
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    return fromStatus(m_source.backend->createMonitorGroup(parent, name));
}

CommandResult CaptureService::deleteGroup(const std::string& path)
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    return fromStatus(m_source.backend->removeGroup(path));
}

CommandResult CaptureService::assignTasks(const std::string& path, const std::vector<unsigned>& pids)
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    return fromStatus(m_source.backend->assignTasks(path, pids));
}

CommandResult CaptureService::assignCpus(const std::string& path, const std::vector<unsigned>& cpus)
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    return fromStatus(m_source.backend->assignCpus(path, cpus));
}

CommandResult CaptureService::assignCounter(const std::string& path, const std::string& event, int domain, bool assign)
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    return fromStatus(m_source.backend->assignCounter(path, event, domain, assign));
}

CommandResult CaptureService::configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions)
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    return fromStatus(m_source.backend->configureMbmEvent(event, domain, transactions));
}

CommandResult CaptureService::setCdp(bool enabled)
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    const std::string on = enabled ? "on" : "off";
    if (auto caps = m_source.backend->capabilities(); caps && caps->cdpL3 == enabled)
        return CommandResult::success({ "L3 CDP is already " + on });
    // The MSR sources own IA32_L3_QOS_CFG: the SDM 20.19.6.2 sequence, rolled back on any failure.
    if (auto* msr = dynamic_cast<MsrBackend*>(m_source.backend.get())) return fromStatus(msr->setCdp("L3", enabled));
    if (!m_source.simulation)
        // The kernel sets IA32_L3_QOS_CFG.CDP only when resctrl is mounted (Documentation/filesystems/resctrl.rst),
        // and unmounting removes every group: that is for the administrator to decide, not a command of ours.
        return CommandResult::failure(
            errnoError(EOPNOTSUPP, "L3 CDP is switched " + on + " only when resctrl is mounted, not on a live mount",
                std::string("as root, knowing that the unmount removes every group: umount /sys/fs/resctrl && ")
                    + "mount -t resctrl resctrl " + (enabled ? "-o cdp " : "") + "/sys/fs/resctrl"));
    const bool wasSampling = m_sampler && m_sampler->running();
    stopSampling();
    auto fresh = m_source.simulation->remountWithCdp(enabled);
    if (!fresh) {
        if (wasSampling) (void)startSampling();
        return CommandResult::failure(fresh.error());
    }
    // The old mount is gone: drop everything that reads it before anything can.
    m_allocation.reset();
    m_sampler.reset();
    m_source.backend = std::move(*fresh);
    attachBackend();
    takeSimulationEvents();
    if (wasSampling)
        if (auto r = startSampling(); !r.ok) return r;
    return CommandResult::success({ "simulated resctrl remounted with L3 CDP " + on
        + "; the groups were re-made with their tasks and CPUs, their allocations reset to the defaults" });
}

AllocationResult CaptureService::applyAllocation(const std::string& group, const Schemata& change)
{
    AllocationResult out;
    if (!hasRdt()) {
        out.result = CommandResult::failure(noRdt());
        return out;
    }
    std::lock_guard lock(m_externalMutex); // the listener acknowledges each write before a check can read it
    auto outcome = m_allocation->apply({ group, change, m_options.who });
    out.result = outcome.ok ? CommandResult::success(outcome.notes) : CommandResult::failure(outcome.error);
    if (!outcome.ok) out.result.notes = outcome.notes;
    out.applied = std::move(outcome.applied);
    out.rolledBack = outcome.rolledBack;
    out.changes = std::move(outcome.events);
    out.steps = std::move(outcome.steps);
    return out;
}

CommandResult CaptureService::setSamplingInterval(std::uint64_t intervalNs)
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    if (intervalNs == 0) return CommandResult::failure(errnoError(EINVAL, "a sampling interval must be positive"));
    const bool wasRunning = m_sampler && m_sampler->running();
    if (wasRunning) m_sampler->stop();
    m_requestedIntervalNs = intervalNs;
    SamplerConfig cfg;
    cfg.rateHz = 1e9 / static_cast<double>(intervalNs);
    m_sampler = std::make_unique<Sampler>(*m_source.backend, cfg, m_source.simulation.get());
    // One path from the sampler to its consumers: every batch, polled on the sampler's thread or synchronously,
    // becomes one event in this service's queue (and its taps); the sampler keeps no queue of its own.
    m_sampler->setCallback([this](const RdtSampleBatch& b) { push(b); });
    std::vector<std::string> notes;
    if (!m_sampler->rateNote().empty()) notes.push_back(m_sampler->rateNote());
    if (wasRunning)
        if (auto st = startSampling(); !st.ok) return st;
    return CommandResult::success(std::move(notes));
}

std::uint64_t CaptureService::samplingIntervalNs() const
{
    return m_sampler ? m_sampler->intervalNs() : m_requestedIntervalNs;
}

CommandResult CaptureService::pollRdt()
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    if (m_sampler->running())
        return CommandResult::failure(errnoError(
            EBUSY, "the sampler is polling on its own thread", "stop sampling before polling synchronously"));
    auto batch = m_sampler->pollOnce(nowNs()); // the callback queued it as an event
    if (!batch) return CommandResult::failure(batch.error());
    return CommandResult::success();
}

CommandResult CaptureService::startSampling()
{
    if (!hasRdt()) return CommandResult::failure(noRdt());
    auto st = m_sampler->start();
    if (!st) return CommandResult::failure(st.error());
    return CommandResult::success();
}

void CaptureService::stopSampling()
{
    if (m_sampler && m_sampler->running()) {
        m_sampler->stop();
    }
}

void CaptureService::push(EngineEvent event)
{
    if (const auto* change = std::get_if<AllocationChanged>(&event); change && change->who != kExternalWho) {
        std::lock_guard lock(m_externalMutex);
        if (m_external) m_external->acknowledge(*change);
    }
    {
        std::lock_guard lock(m_eventMutex);
        m_taps.notify(event);
        m_events.push_back(std::move(event));
        while (m_events.size() > m_options.eventCapacity) {
            m_events.pop_front();
            ++m_dropped;
        }
    }
    if (m_wakeup) m_wakeup();
}

namespace {
/// The group a scenario step's "write GROUP/schemata TEXT" (or mode) event names (sim/Simulation.cpp records a
/// write step so), or none.
std::optional<std::string> allocationWriteOf(const SimulationEvent& e)
{
    if (!e.ok || e.note || e.text.rfind("write ", 0) != 0) return std::nullopt;
    const std::string path = e.text.substr(6, e.text.find(' ', 6) - 6);
    for (const char* file : { "schemata", "mode" }) {
        const std::string f = file;
        if (path == f) return std::string {};
        if (path.size() > f.size() && path.compare(path.size() - f.size() - 1, std::string::npos, "/" + f) == 0)
            return path.substr(0, path.size() - f.size() - 1);
    }
    return std::nullopt;
}
}

void CaptureService::takeSimulationEvents()
{
    if (!m_source.simulation) return;
    for (auto& e : m_source.simulation->takeEvents()) {
        if (auto group = allocationWriteOf(e)) {
            std::lock_guard lock(m_externalMutex);
            m_scenarioWrites.insert(*group);
        }
        push(std::move(e));
    }
}

void CaptureService::checkExternalChanges(bool force)
{
    if (!hasRdt()) return;
    const auto wall = monotonicNs();
    if (!force && wall - m_lastExternalCheckNs < m_options.externalCheckIntervalNs) return;
    m_lastExternalCheckNs = wall;
    std::vector<AllocationChanged> found;
    {
        std::lock_guard lock(m_externalMutex);
        found = m_external->check(*m_source.backend, nowNs());
        // A step the sampler's thread ran while the groups were read is in them: its event explains it too. What
        // it names stays explained for the next check as well, in case the read came before it.
        auto explained = std::exchange(m_scenarioWrites, {});
        takeSimulationEvents();
        explained.insert(m_scenarioWrites.begin(), m_scenarioWrites.end());
        std::erase_if(found, [&](const AllocationChanged& c) { return explained.count(c.group) > 0; });
    }
    for (auto& c : found)
        push(std::move(c));
}

std::uint64_t CaptureService::addEventTap(EventTap tap)
{
    std::lock_guard lock(m_eventMutex);
    for (const auto& e : m_events)
        tap(e);
    return m_taps.add(std::move(tap));
}

std::vector<EngineEvent> CaptureService::drainEvents()
{
    takeSimulationEvents();
    checkExternalChanges(false);
    std::lock_guard lock(m_eventMutex);
    std::vector<EngineEvent> out(std::make_move_iterator(m_events.begin()), std::make_move_iterator(m_events.end()));
    m_events.clear();
    return out;
}

PmuStarted CaptureService::startPmu(const PmuRequest& asked)
{
    PmuStarted out;
    PmuRequest request;
    if (m_pmu->start(asked, out, request)) push(PmuCaptureStarted { nowNs(), out.info, request });
    return out;
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
    auto b = m_pmu->pump(id);
    if (!b) return CommandResult::failure(b.error());
    pushPmu(std::move(*b));
    return CommandResult::success();
}

CommandResult CaptureService::readPmuCounters(std::uint32_t id)
{
    auto b = m_pmu->readCounters(id);
    if (!b) return CommandResult::failure(b.error());
    pushPmu(std::move(*b));
    return CommandResult::success();
}

bool CaptureService::pmuFinished(std::uint32_t id)
{
    return m_pmu->finished(id);
}

CommandResult CaptureService::stopPmu(std::uint32_t id)
{
    auto b = m_pmu->stop(id);
    if (!b) return CommandResult::failure(b.error());
    pushPmu(std::move(*b));
    return CommandResult::success();
}

Result<PmuReport> CaptureService::pmuReport(std::uint32_t id, std::size_t topN)
{
    return m_pmu->report(id, topN);
}

Result<GroupPmuCounts> CaptureService::countGroupPmu(const std::string& group)
{
    const auto snap = snapshot(true);
    if (!snap.result.ok) return snap.result.error();
    const auto it = std::find_if(
        snap.groups.begin(), snap.groups.end(), [&](const GroupState& g) { return g.info.path == group; });
    if (it == snap.groups.end()) return errnoError(ENOENT, "no group '" + group + "'");
    return m_groupPmu->count(group, it->tasks);
}

std::vector<PmuBatch> CaptureService::drainPmuBatches()
{
    std::lock_guard lock(m_eventMutex);
    std::vector<PmuBatch> out(
        std::make_move_iterator(m_pmuBatches.begin()), std::make_move_iterator(m_pmuBatches.end()));
    m_pmuBatches.clear();
    return out;
}

std::uint64_t CaptureService::droppedEvents() const
{
    std::lock_guard lock(m_eventMutex);
    return m_dropped;
}

// The machine the service runs on, as `rdtscope-cli info` describes it, so `info --connect URL` prints the agent's
// machine with the same code and in the same format as the local command.
Result<CapabilityReport> CaptureService::describeMachine()
{
    return hostCapabilityReport();
}

} // namespace rdt::engine
