// SPDX-License-Identifier: GPL-3.0-or-later
// SimMachine: the RDT register state (what the MSRs hold) and the monitoring counters.
#include "SimMachine.h"
#include "SimMachineImpl.h"

namespace rdt::sim {

SimMachine::Pqr SimMachine::pqr(unsigned cpu) const
{
    std::lock_guard lock(m_mutex);
    return cpu < m_impl->cpus.size() ? m_impl->cpus[cpu].pqr : Pqr {};
}

void SimMachine::setPqr(unsigned cpu, Pqr value)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    if (cpu < m_impl->cpus.size()) m_impl->cpus[cpu].pqr = value;
}

std::uint32_t SimMachine::l3Mask(unsigned domain, std::uint32_t index) const
{
    std::lock_guard lock(m_mutex);
    const auto& d = m_impl->domains.at(domain);
    return index < d.l3Masks.size() ? d.l3Masks[index] : 0;
}

void SimMachine::setL3Mask(unsigned domain, std::uint32_t index, std::uint32_t cbm)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& d = m_impl->domains.at(domain);
    if (index < d.l3Masks.size()) {
        d.l3Masks[index] = cbm;
        m_impl->recomputeL3Ways(d);
    }
}

std::uint32_t SimMachine::l2Mask(unsigned l2Domain, std::uint32_t index) const
{
    std::lock_guard lock(m_mutex);
    const auto& k = m_impl->cores.at(l2Domain);
    return index < k.l2Masks.size() ? k.l2Masks[index] : 0;
}

void SimMachine::setL2Mask(unsigned l2Domain, std::uint32_t index, std::uint32_t cbm)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& k = m_impl->cores.at(l2Domain);
    if (index < k.l2Masks.size()) {
        k.l2Masks[index] = cbm;
        m_impl->recomputeL2Ways(k);
    }
}

bool SimMachine::l3Cdp(unsigned domain) const
{
    std::lock_guard lock(m_mutex);
    return m_impl->domains.at(domain).cdp;
}

void SimMachine::setL3Cdp(unsigned domain, bool on)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& d = m_impl->domains.at(domain);
    d.cdp = on;
    m_impl->recomputeL3Ways(d);
}

bool SimMachine::l2Cdp(unsigned l2Domain) const
{
    std::lock_guard lock(m_mutex);
    return m_impl->cores.at(l2Domain).l2Cdp;
}

void SimMachine::setL2Cdp(unsigned l2Domain, bool on)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& k = m_impl->cores.at(l2Domain);
    k.l2Cdp = on;
    m_impl->recomputeL2Ways(k);
}

std::uint32_t SimMachine::mbaDelay(unsigned domain, std::uint32_t clos) const
{
    std::lock_guard lock(m_mutex);
    const auto& d = m_impl->domains.at(domain);
    return clos < d.mbaDelay.size() ? d.mbaDelay[clos] : 0;
}

void SimMachine::setMbaDelay(unsigned domain, std::uint32_t clos, std::uint32_t delay)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& d = m_impl->domains.at(domain);
    if (clos < d.mbaDelay.size()) d.mbaDelay[clos] = delay;
}

std::uint8_t SimMachine::cbaLevel(unsigned cpu, std::uint32_t clos) const
{
    std::lock_guard lock(m_mutex);
    const auto& c = m_impl->cpus.at(cpu);
    return clos < c.cba.size() ? c.cba[clos] : 0;
}

void SimMachine::setCbaLevel(unsigned cpu, std::uint32_t clos, std::uint8_t level)
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& c = m_impl->cpus.at(cpu);
    if (clos < c.cba.size()) c.cba[clos] = level;
}

void SimMachine::resetRdtState()
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    Impl& im = *m_impl;
    const SimFeatures& F = m_features;
    for (auto& d : im.domains) {
        d.l3Masks.assign(F.l3Cat.present ? F.l3Cat.numClos : 0, F.l3Cat.fullMask());
        d.cdp = false;
        // Intel: delay 0 (no throttling); AMD: the limit that means unlimited (2048).
        d.mbaDelay.assign(F.mba.present ? F.mba.numClos : 0, F.mba.maxBandwidth);
        im.recomputeL3Ways(d);
    }
    for (auto& k : im.cores) {
        k.l2Masks.assign(F.l2Cat.present ? F.l2Cat.numClos : 0, F.l2Cat.fullMask());
        k.l2Cdp = false;
        im.recomputeL2Ways(k);
    }
    for (auto& c : im.cpus) {
        c.pqr = {};
        c.cba.assign(F.cba.present ? F.cba.numClos : 0, 0);
    }
}

RmidCounters SimMachine::counters(unsigned domain, std::uint32_t rmid) const
{
    std::lock_guard lock(m_mutex);
    const auto& d = m_impl->domains.at(domain);
    return rmid < d.rmids.size() ? d.rmids[rmid] : RmidCounters {};
}

std::uint64_t SimMachine::occupancyBytes(unsigned domain, std::uint32_t rmid) const
{
    RmidCounters c = counters(domain, rmid);
    return c.occupancyLines <= 0 ? 0 : std::uint64_t(c.occupancyLines) * m_impl->S * m_features.l3.lineSize;
}

namespace {
/// The bytes an MBM event counts for an RMID: every read and writeback (total) or the local node's (local), or with
/// an AMD BMEC filter the transaction types it selects (resctrl.rst "mbm_total_bytes_config": bit 0 local reads, 1
/// remote reads, 6 dirty victims; the simulated programs make no non-temporal writes nor slow-memory reads).
std::uint64_t mbmBytes(const RmidCounters& c, std::uint32_t event, std::uint32_t filter)
{
    if (filter == 0) return event == 2 ? c.totalBytes : event == 3 ? c.localBytes : 0;
    return (filter & 0x01 ? c.localReadBytes : 0) + (filter & 0x02 ? c.remoteReadBytes : 0)
        + (filter & 0x40 ? c.victimBytes : 0);
}
} // namespace

void SimMachine::setMbmEventConfig(unsigned domain, std::uint32_t event, std::uint32_t transactions)
{
    std::lock_guard lock(m_mutex);
    if (domain >= m_impl->domains.size() || (event != 2 && event != 3)) return;
    m_impl->domains[domain].bmec[event - 2] = transactions;
}

std::optional<std::uint64_t> SimMachine::counterUnits(unsigned domain, std::uint32_t rmid, std::uint32_t event) const
{
    std::lock_guard lock(m_mutex);
    const MonCaps& mon = m_features.mon;
    if (!mon.present || rmid > mon.l3MaxRmid || domain >= m_impl->domains.size()) return std::nullopt;
    const auto& d = m_impl->domains[domain];
    const RmidCounters& c = d.rmids[rmid];
    const std::uint64_t widthMask = mon.counterWidth >= 64 ? ~0ull : (1ull << mon.counterWidth) - 1;
    switch (event) {
    case 1:
        if (!mon.occupancy) return std::nullopt;
        return occupancyBytes(domain, rmid) / mon.scale;
    case 2:
        if (!mon.mbmTotal) return std::nullopt;
        return (mbmBytes(c, 2, d.bmec[0]) / mon.scale) & widthMask;
    case 3:
        if (!mon.mbmLocal) return std::nullopt;
        return (mbmBytes(c, 3, d.bmec[1]) / mon.scale) & widthMask;
    default:
        return std::nullopt;
    }
}

std::uint64_t SimMachine::counterWraps(unsigned domain, std::uint32_t rmid, std::uint32_t event) const
{
    std::lock_guard lock(m_mutex);
    const MonCaps& mon = m_features.mon;
    if (!mon.present || rmid > mon.l3MaxRmid || domain >= m_impl->domains.size() || mon.counterWidth >= 64) return 0;
    const auto& d = m_impl->domains[domain];
    const std::uint64_t bytes = event == 2 || event == 3 ? mbmBytes(d.rmids[rmid], event, d.bmec[event - 2]) : 0;
    return (bytes / mon.scale) >> mon.counterWidth;
}

void SimMachine::setUnavailable(unsigned domain, std::uint32_t rmid, std::uint64_t untilNs)
{
    std::lock_guard lock(m_mutex);
    auto& d = m_impl->domains.at(domain);
    if (rmid < d.unavailableUntil.size()) d.unavailableUntil[rmid] = untilNs;
}

bool SimMachine::unavailable(unsigned domain, std::uint32_t rmid) const
{
    std::lock_guard lock(m_mutex);
    const auto& d = m_impl->domains.at(domain);
    return rmid < d.unavailableUntil.size() && m_impl->now < d.unavailableUntil[rmid];
}

std::vector<std::vector<std::uint64_t>> SimMachine::occupancyByClosAndWay(unsigned domain) const
{
    std::lock_guard lock(m_mutex);
    auto& d = m_impl->domains.at(domain);
    std::vector<std::vector<std::uint64_t>> out(m_features.closMax + 1, std::vector<std::uint64_t>(d.l3.ways(), 0));
    const std::uint64_t per = std::uint64_t { m_impl->S } * m_features.l3.lineSize;
    for (std::size_t i = 0; i < d.l3.lineCount(); ++i)
        if (d.l3.key(i) != CacheSlice::kInvalid) {
            auto clos = d.l3.meta(i).clos;
            if (clos < out.size()) out[clos][d.l3.wayOf(i)] += per;
        }
    return out;
}

std::vector<std::uint64_t> SimMachine::occupancyByWay(unsigned domain, bool code) const
{
    std::lock_guard lock(m_mutex);
    auto& d = m_impl->domains.at(domain);
    std::vector<std::uint64_t> out(d.l3.ways(), 0);
    for (std::size_t i = 0; i < d.l3.lineCount(); ++i)
        if (d.l3.key(i) != CacheSlice::kInvalid && bool(d.l3.meta(i).flags & CacheSlice::Code) == code)
            out[d.l3.wayOf(i)] += std::uint64_t { m_impl->S } * m_features.l3.lineSize;
    return out;
}

std::uint32_t SimMachine::waysOfL3Cbm(std::uint32_t cbm) const
{
    return waysOfCbm(cbm, m_features.l3Cat.cbmLen, m_impl->domains.at(0).l3.ways());
}

std::uint32_t SimMachine::waysOfL2Cbm(std::uint32_t cbm) const
{
    return waysOfCbm(cbm, m_features.l2Cat.cbmLen, m_impl->cores.at(0).l2.ways());
}

std::uint32_t SimMachine::l3Ways() const
{
    return m_impl->domains.at(0).l3.ways();
}

void SimMachine::flushCaches()
{
    std::lock_guard lock(m_mutex);
    m_impl->timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    const SimFeatures& F = m_features;
    std::uint32_t s = m_impl->S;
    for (auto& k : m_impl->cores) {
        k.l1d.configure(F.l1d.sets * F.l1d.partitions, F.l1d.ways, s);
        const CacheGeometry& l1i = F.l1i.present() ? F.l1i : F.l1d;
        k.l1i.configure(l1i.sets * l1i.partitions, l1i.ways, s);
        k.l2.configure(F.l2.sets * F.l2.partitions, F.l2.ways, s);
        m_impl->recomputeL2Ways(k);
    }
    for (auto& d : m_impl->domains) {
        d.l3.configure(F.l3.sets * F.l3.partitions, F.l3.ways, s);
        for (auto& r : d.rmids)
            r.occupancyLines = 0;
        m_impl->recomputeL3Ways(d);
    }
}

double SimMachine::throttleFraction(unsigned cpu) const
{
    std::lock_guard lock(m_mutex);
    return std::min(m_impl->mbaFraction(cpu), m_impl->cbaFraction(cpu));
}

} // namespace rdt::sim
