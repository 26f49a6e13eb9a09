// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimMachine.h"
#include "SimCacheContents.h"
#include "SimMachineImpl.h"
#include "SimRdtRegisters.h"
#include "SimRmidMonitor.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <map>

namespace rdt::sim {

const char* hitLevelName(HitLevel level)
{
    switch (level) {
    case HitLevel::L1:
        return "L1";
    case HitLevel::L2:
        return "L2";
    case HitLevel::L3:
        return "L3";
    case HitLevel::LocalDram:
        return "local DRAM";
    case HitLevel::RemoteDram:
        return "remote DRAM";
    }
    return "?";
}

SimMachine::SimMachine(SimCpuid cpuid, SimFeatures features, SimOptions options)
    : m_impl(std::make_unique<Impl>())
    , m_cpuid(std::move(cpuid))
    , m_features(std::move(features))
    , m_options(options)
{ }

SimMachine::~SimMachine() = default;

Result<std::unique_ptr<SimMachine>> SimMachine::create(SimCpuid cpuid, SimOptions options)
{
    SimFeatures f = decodeFeatures(cpuid);
    const SimTopology& topo = options.topology;
    if (topo.sockets < 1 || topo.sockets > 8 || topo.coresPerSocket < 1 || topo.coresPerSocket > 128
        || topo.threadsPerCore < 1 || topo.threadsPerCore > 4)
        return errnoError(
            EINVAL, "unsupported simulated topology", "use 1-8 sockets, 1-128 cores per socket, 1-4 threads per core");
    if (!f.l3.present() || !f.l2.present() || !f.l1d.present())
        return errnoError(EINVAL, "the CPUID of '" + cpuid.name + "' does not describe L1, L2 and L3 (leaf 04H)",
            "use a dump that contains leaf 04H subleaves 0-3");
    std::uint32_t s = std::max<std::uint32_t>(1, options.setSampling);
    if ((s & (s - 1)) != 0) return errnoError(EINVAL, "set sampling factor must be a power of two", "e.g. 1, 16, 64");
    // CAT needs every way of a sampled set, so the sample must not be coarser than the CAT caches' set counts.
    while (s > 1 && (s > f.l3.sets || (f.l2Cat.present && s > f.l2.sets)))
        s /= 2;
    options.setSampling = s;
    if (options.maxTimeScale == 0 || (options.maxTimeScale & (options.maxTimeScale - 1)) != 0
        || options.maxTimeScale > 64)
        return errnoError(EINVAL, "time scale must be a power of two from 1 to 64", "e.g. 1 (off) or 8");
    if (options.tickNs == 0) options.tickNs = 1'000'000;
    std::unique_ptr<SimMachine> m(new SimMachine(std::move(cpuid), f, options));
    Impl& im = *m->m_impl;
    im.self = m.get();
    im.f = &m->m_features;
    im.o = &m->m_options;
    im.S = s;
    im.sShift = static_cast<unsigned>(std::countr_zero(s));
    im.seedCounter = options.seed;
    im.timeScale = TimeScale(options.maxTimeScale);
    im.cores.resize(topo.sockets * topo.coresPerSocket);
    const SimFeatures& F = m->m_features;
    for (auto& k : im.cores) {
        k.l1d.configure(F.l1d.sets * F.l1d.partitions, F.l1d.ways, s);
        const CacheGeometry& l1i = F.l1i.present() ? F.l1i : F.l1d;
        k.l1i.configure(l1i.sets * l1i.partitions, l1i.ways, s);
        k.l2.configure(F.l2.sets * F.l2.partitions, F.l2.ways, s);
    }
    // The L3 of one socket (or CCX): CPUID.04H/8000001DH describes the whole shared cache.
    im.domains.resize(topo.l3Count());
    const std::uint32_t rmids = F.mon.present ? F.mon.l3MaxRmid + 1 : 1;
    for (auto& d : im.domains) {
        d.l3.configure(F.l3.sets * F.l3.partitions, F.l3.ways, s);
        d.rmids.assign(rmids, {});
        d.unavailableUntil.assign(rmids, 0);
    }
    im.cpus.resize(topo.cpuCount());
    m->resetRdtState();
    return m;
}

std::uint64_t SimMachine::nowNs() const
{
    std::lock_guard lock(m_mutex);
    return m_impl->now;
}

std::uint32_t SimMachine::timeScale() const
{
    std::lock_guard lock(m_mutex);
    return m_impl->timeScale.scale();
}

void SimMachine::advance(std::uint64_t ns)
{
    std::lock_guard lock(m_mutex);
    std::uint64_t end = m_impl->now + ns;
    while (m_impl->now < end)
        m_impl->tick();
}

int SimMachine::addTickListener(std::function<void(std::uint64_t)> fn)
{
    std::lock_guard lock(m_mutex);
    int id = m_impl->nextListener++;
    m_impl->listeners[id] = std::move(fn);
    return id;
}

void SimMachine::removeTickListener(int id)
{
    std::lock_guard lock(m_mutex);
    m_impl->listeners.erase(id);
}

Result<int> SimMachine::addThread(const std::string& name, unsigned cpu, const WorkloadSpec& spec)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    if (cpu >= cpuCount())
        return errnoError(EINVAL, "thread '" + name + "': CPU " + std::to_string(cpu) + " does not exist",
            "the simulated machine has CPUs 0-" + std::to_string(cpuCount() - 1));
    Impl& im = *m_impl;
    int tid = im.nextTid++;
    std::uint64_t base = std::uint64_t(tid - 1000) << 38;
    Impl::Thread t { {}, AddressGenerator(spec, base, im.S, im.seedCounter * 7919 + std::uint64_t(tid)), 0, 0 };
    t.info.tid = tid;
    t.info.name = name;
    t.info.cpu = cpu;
    t.info.spec = spec;
    Pqr p = im.effective(t);
    t.info.clos = p.clos;
    t.info.rmid = p.rmid;
    im.threads.push_back(std::move(t));
    return tid;
}

Status SimMachine::removeThread(int tid)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& v = m_impl->threads;
    auto it = std::find_if(v.begin(), v.end(), [&](const Impl::Thread& t) { return t.info.tid == tid; });
    if (it == v.end()) return errnoError(ESRCH, "no simulated thread " + std::to_string(tid));
    v.erase(it);
    return {};
}

Status SimMachine::setThreadCpu(int tid, unsigned cpu)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    if (cpu >= cpuCount()) return errnoError(EINVAL, "CPU " + std::to_string(cpu) + " does not exist");
    for (auto& t : m_impl->threads)
        if (t.info.tid == tid) {
            t.info.cpu = cpu;
            return {};
        }
    return errnoError(ESRCH, "no simulated thread " + std::to_string(tid));
}

Status SimMachine::setWorkload(int tid, const WorkloadSpec& spec)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    for (auto& t : m_impl->threads)
        if (t.info.tid == tid) {
            t.info.spec = spec;
            t.gen = AddressGenerator(spec, std::uint64_t(tid - 1000) << 38, m_impl->S,
                m_impl->seedCounter * 7919 + std::uint64_t(tid) + m_impl->now);
            return {};
        }
    return errnoError(ESRCH, "no simulated thread " + std::to_string(tid));
}

Status SimMachine::setTaskAssociation(int tid, std::uint32_t clos, std::uint32_t rmid)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    for (auto& t : m_impl->threads)
        if (t.info.tid == tid) {
            t.info.taskClos = clos;
            t.info.taskRmid = rmid;
            Pqr p = m_impl->effective(t);
            t.info.clos = p.clos;
            t.info.rmid = p.rmid;
            return {};
        }
    return errnoError(ESRCH, "no simulated thread " + std::to_string(tid));
}

std::vector<SimThreadInfo> SimMachine::threads() const
{
    std::lock_guard lock(m_mutex);
    std::vector<SimThreadInfo> out;
    for (const auto& t : m_impl->threads) {
        out.push_back(t.info);
        Pqr p = m_impl->effective(t);
        out.back().clos = p.clos;
        out.back().rmid = p.rmid;
    }
    return out;
}

std::optional<SimThreadInfo> SimMachine::thread(int tid) const
{
    for (auto& t : threads())
        if (t.tid == tid) return t;
    return std::nullopt;
}

std::optional<int> SimMachine::findThread(const std::string& name) const
{
    std::lock_guard lock(m_mutex);
    for (const auto& t : m_impl->threads)
        if (t.info.name == name) return t.info.tid;
    return std::nullopt;
}

AccessResult SimMachine::access(unsigned cpu, std::uint64_t address, AccessKind kind)
{
    std::lock_guard lock(m_mutex);
    Impl& im = *m_impl;
    if (cpu >= cpuCount()) cpu = 0;
    std::uint64_t line = address >> 6;
    AccessResult r;
    if (line % im.S != 0) {
        r.simulated = false;
        r.level = im.estimate(cpu, line);
    } else {
        Pqr tag = im.cpus[cpu].pqr;
        for (const auto& t : im.threads)
            if (t.info.cpu == cpu) {
                tag = im.effective(t);
                break;
            }
        std::uint64_t bytes = 0;
        r.level = im.simulate(cpu, line / im.S, kind, im.physical(tag, cpu), false, bytes);
        im.recordHist(cpu, r.level);
    }
    r.latencyCycles = static_cast<std::uint32_t>(im.levelLatency(r.level));
    return r;
}

// ---------------------------------------------------------------------------------------------------------------
// RDT registers, monitoring and cache contents: each its own class over the state, called under the mutex

SimMachine::Pqr SimMachine::pqr(unsigned cpu) const
{
    std::lock_guard lock(m_mutex);
    return SimRdtRegisters(*m_impl).pqr(cpu);
}

void SimMachine::setPqr(unsigned cpu, Pqr value)
{
    std::lock_guard lock(m_mutex);
    SimRdtRegisters(*m_impl).setPqr(cpu, value);
}

std::uint32_t SimMachine::l3Mask(unsigned domain, std::uint32_t index) const
{
    std::lock_guard lock(m_mutex);
    return SimRdtRegisters(*m_impl).l3Mask(domain, index);
}

void SimMachine::setL3Mask(unsigned domain, std::uint32_t index, std::uint32_t cbm)
{
    std::lock_guard lock(m_mutex);
    SimRdtRegisters(*m_impl).setL3Mask(domain, index, cbm);
}

std::uint32_t SimMachine::l2Mask(unsigned l2Domain, std::uint32_t index) const
{
    std::lock_guard lock(m_mutex);
    return SimRdtRegisters(*m_impl).l2Mask(l2Domain, index);
}

void SimMachine::setL2Mask(unsigned l2Domain, std::uint32_t index, std::uint32_t cbm)
{
    std::lock_guard lock(m_mutex);
    SimRdtRegisters(*m_impl).setL2Mask(l2Domain, index, cbm);
}

bool SimMachine::l3Cdp(unsigned domain) const
{
    std::lock_guard lock(m_mutex);
    return SimRdtRegisters(*m_impl).l3Cdp(domain);
}

void SimMachine::setL3Cdp(unsigned domain, bool on)
{
    std::lock_guard lock(m_mutex);
    SimRdtRegisters(*m_impl).setL3Cdp(domain, on);
}

bool SimMachine::l2Cdp(unsigned l2Domain) const
{
    std::lock_guard lock(m_mutex);
    return SimRdtRegisters(*m_impl).l2Cdp(l2Domain);
}

void SimMachine::setL2Cdp(unsigned l2Domain, bool on)
{
    std::lock_guard lock(m_mutex);
    SimRdtRegisters(*m_impl).setL2Cdp(l2Domain, on);
}

std::uint32_t SimMachine::mbaDelay(unsigned domain, std::uint32_t clos) const
{
    std::lock_guard lock(m_mutex);
    return SimRdtRegisters(*m_impl).mbaDelay(domain, clos);
}

void SimMachine::setMbaDelay(unsigned domain, std::uint32_t clos, std::uint32_t delay)
{
    std::lock_guard lock(m_mutex);
    SimRdtRegisters(*m_impl).setMbaDelay(domain, clos, delay);
}

std::uint8_t SimMachine::cbaLevel(unsigned cpu, std::uint32_t clos) const
{
    std::lock_guard lock(m_mutex);
    return SimRdtRegisters(*m_impl).cbaLevel(cpu, clos);
}

void SimMachine::setCbaLevel(unsigned cpu, std::uint32_t clos, std::uint8_t level)
{
    std::lock_guard lock(m_mutex);
    SimRdtRegisters(*m_impl).setCbaLevel(cpu, clos, level);
}

void SimMachine::resetRdtState()
{
    std::lock_guard lock(m_mutex);
    SimRdtRegisters(*m_impl).reset();
}

double SimMachine::throttleFraction(unsigned cpu) const
{
    std::lock_guard lock(m_mutex);
    return SimRdtRegisters(*m_impl).throttleFraction(cpu);
}

RmidCounters SimMachine::counters(unsigned domain, std::uint32_t rmid) const
{
    std::lock_guard lock(m_mutex);
    return SimRmidMonitor(*m_impl).counters(domain, rmid);
}

std::uint64_t SimMachine::occupancyBytes(unsigned domain, std::uint32_t rmid) const
{
    std::lock_guard lock(m_mutex);
    return SimRmidMonitor(*m_impl).occupancyBytes(domain, rmid);
}

void SimMachine::setMbmEventConfig(unsigned domain, std::uint32_t event, std::uint32_t transactions)
{
    std::lock_guard lock(m_mutex);
    SimRmidMonitor(*m_impl).setMbmEventConfig(domain, event, transactions);
}

std::optional<std::uint64_t> SimMachine::counterUnits(unsigned domain, std::uint32_t rmid, std::uint32_t event) const
{
    std::lock_guard lock(m_mutex);
    return SimRmidMonitor(*m_impl).counterUnits(domain, rmid, event);
}

std::uint64_t SimMachine::counterWraps(unsigned domain, std::uint32_t rmid, std::uint32_t event) const
{
    std::lock_guard lock(m_mutex);
    return SimRmidMonitor(*m_impl).counterWraps(domain, rmid, event);
}

void SimMachine::setUnavailable(unsigned domain, std::uint32_t rmid, std::uint64_t untilNs)
{
    std::lock_guard lock(m_mutex);
    SimRmidMonitor(*m_impl).setUnavailable(domain, rmid, untilNs);
}

bool SimMachine::unavailable(unsigned domain, std::uint32_t rmid) const
{
    std::lock_guard lock(m_mutex);
    return SimRmidMonitor(*m_impl).unavailable(domain, rmid);
}

std::vector<std::vector<std::uint64_t>> SimMachine::occupancyByClosAndWay(unsigned domain) const
{
    std::lock_guard lock(m_mutex);
    return SimCacheContents(*m_impl).occupancyByClosAndWay(domain);
}

std::vector<std::uint64_t> SimMachine::occupancyByWay(unsigned domain, bool code) const
{
    std::lock_guard lock(m_mutex);
    return SimCacheContents(*m_impl).occupancyByWay(domain, code);
}

std::uint32_t SimMachine::waysOfL3Cbm(std::uint32_t cbm) const
{
    return SimCacheContents(*m_impl).waysOfL3Cbm(cbm);
}

std::uint32_t SimMachine::waysOfL2Cbm(std::uint32_t cbm) const
{
    return SimCacheContents(*m_impl).waysOfL2Cbm(cbm);
}

std::uint32_t SimMachine::l3Ways() const
{
    return SimCacheContents(*m_impl).l3Ways();
}

void SimMachine::flushCaches()
{
    std::lock_guard lock(m_mutex);
    SimCacheContents(*m_impl).flushCaches();
}

} // namespace rdt::sim
