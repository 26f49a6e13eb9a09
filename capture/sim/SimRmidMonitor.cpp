// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimRmidMonitor.h"

#include "SimMachineImpl.h"

#include <algorithm>

namespace rdt::sim {

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

SimRmidMonitor::SimRmidMonitor(SimMachine::Impl& impl)
    : m_impl(impl)
    , m_features(*impl.f)
{ }

RmidCounters SimRmidMonitor::counters(unsigned domain, std::uint32_t rmid) const
{
    const auto& d = m_impl.domains.at(domain);
    return rmid < d.rmids.size() ? d.rmids[rmid] : RmidCounters {};
}

std::uint64_t SimRmidMonitor::occupancyBytes(unsigned domain, std::uint32_t rmid) const
{
    RmidCounters c = counters(domain, rmid);
    return c.occupancyLines <= 0 ? 0 : std::uint64_t(c.occupancyLines) * m_impl.S * m_features.l3.lineSize;
}

void SimRmidMonitor::setMbmEventConfig(unsigned domain, std::uint32_t event, std::uint32_t transactions)
{
    if (domain >= m_impl.domains.size() || (event != 2 && event != 3)) return;
    m_impl.domains[domain].bmec[event - 2] = transactions;
}

std::optional<std::uint64_t> SimRmidMonitor::counterUnits(
    unsigned domain, std::uint32_t rmid, std::uint32_t event) const
{
    const MonCaps& mon = m_features.mon;
    if (!mon.present || rmid > mon.l3MaxRmid || domain >= m_impl.domains.size()) return std::nullopt;
    const auto& d = m_impl.domains[domain];
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

std::uint64_t SimRmidMonitor::counterWraps(unsigned domain, std::uint32_t rmid, std::uint32_t event) const
{
    const MonCaps& mon = m_features.mon;
    if (!mon.present || rmid > mon.l3MaxRmid || domain >= m_impl.domains.size() || mon.counterWidth >= 64) return 0;
    const auto& d = m_impl.domains[domain];
    const std::uint64_t bytes = event == 2 || event == 3 ? mbmBytes(d.rmids[rmid], event, d.bmec[event - 2]) : 0;
    return (bytes / mon.scale) >> mon.counterWidth;
}

void SimRmidMonitor::setUnavailable(unsigned domain, std::uint32_t rmid, std::uint64_t untilNs)
{
    auto& d = m_impl.domains.at(domain);
    if (rmid < d.unavailableUntil.size()) d.unavailableUntil[rmid] = untilNs;
}

bool SimRmidMonitor::unavailable(unsigned domain, std::uint32_t rmid) const
{
    const auto& d = m_impl.domains.at(domain);
    return rmid < d.unavailableUntil.size() && m_impl.now < d.unavailableUntil[rmid];
}

} // namespace rdt::sim
