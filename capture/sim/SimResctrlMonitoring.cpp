// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation: monitoring reads and the kernel's periodic work (fs/resctrl/monitor.c
// mon_event_count, mbm_overflow_count, mbm_handle_overflow, cqm_handle_limbo; docs/RESCTRL.md).
#include "SimResctrlMonitoring.h"

#include "KernelStrtoint.h"
#include "SimMachine.h"
#include "SimResctrlGroups.h"
#include "core/Text.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace rdt::sim {

SimResctrlMonitoring::SimResctrlMonitoring(
    SimMachine& machine, SimMbmCounters& mbm, SimResctrlAmdMonitoring& amd, const SimResctrlGroups& groups)
    : m_machine(machine)
    , m_mbm(mbm)
    , m_amd(amd)
    , m_groups(groups)
{ }

bool SimResctrlMonitoring::present() const
{
    return m_machine.features().mon.present;
}

void SimResctrlMonitoring::init(std::uint64_t nowNs)
{
    const SimFeatures& f = m_machine.features();
    if (f.mon.present) {
        for (std::uint32_t r = 1; r < rmidsPerNode(); ++r) // SNC divides the RMIDs among the nodes
            m_freeRmids.push_back(r);
        // resctrl_rmid_realloc_threshold: cache size / num_rmids, rounded down to the counter unit (per node).
        std::uint64_t t = f.l3.sizeBytes() / sncNodes() / rmidsPerNode();
        m_threshold = t / f.mon.scale * f.mon.scale;
        resetMbmState(0);
        m_amd.init();
    }
    m_lastPollNs = m_lastLimboNs = nowNs;
}

unsigned SimResctrlMonitoring::sncNodes() const
{
    return std::max(1u, m_machine.options().topology.sncNodes);
}

std::uint32_t SimResctrlMonitoring::rmidsPerNode() const
{
    return (m_machine.features().mon.l3MaxRmid + 1) / sncNodes();
}

std::vector<std::uint32_t> SimResctrlMonitoring::physicalRmids(std::uint32_t rmid, int node) const
{
    // logical_rmid_to_physical_rmid: RMID + node x (RMIDs per node); without SNC the RMID itself.
    std::vector<std::uint32_t> out;
    for (unsigned n = 0; n < sncNodes(); ++n)
        if (node < 0 || static_cast<unsigned>(node) == n) out.push_back(rmid + n * rmidsPerNode());
    return out;
}

std::string SimResctrlMonitoring::subDomainName(unsigned domain, unsigned node) const
{
    // mon_sub_L3_YY: YY is the NUMA node id; a socket's nodes are numbered after the previous sockets'.
    const unsigned id = domain * sncNodes() + node;
    return "mon_sub_L3_" + std::string(id < 10 ? "0" : "") + std::to_string(id);
}

void SimResctrlMonitoring::resetMbmState(std::uint32_t rmid)
{
    // resctrl_arch_reset_rmid: the next read starts counting from the counter's current value.
    for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
        for (std::uint32_t hw : physicalRmids(rmid))
            for (std::uint32_t ev = 2; ev <= 3; ++ev)
                m_mbm.restart(d, hw, ev);
}

Result<std::string> SimResctrlMonitoring::readMon(const ResctrlGroup& g, int domain, int node, const std::string& event)
{
    const MonCaps& mon = m_machine.features().mon;
    const auto dom = static_cast<unsigned>(domain);
    const std::uint32_t ev = event == "llc_occupancy" ? 1 : event == "mbm_total_bytes" ? 2 : 3;
    std::vector<std::uint32_t> rmids { g.rmid };
    if (g.ctrl) // a CTRL_MON group reports the sum over itself and its MON groups
        for (const auto& [n, m] : g.mon)
            rmids.push_back(m->rmid);
    std::uint64_t total = 0;
    const std::uint64_t widthMask = mon.counterWidth >= 64 ? ~0ull : (1ull << mon.counterWidth) - 1;
    bool counted = false;
    for (std::uint32_t rmid : rmids) {
        // mbm_event mode: an RMID without a counter for the event is left out of the sum (mon_event_count);
        // "Unassigned" only when none of the group's RMIDs has one.
        if (!m_amd.counterAssigned(dom, rmid, ev)) continue;
        counted = true;
        if (ev != 1 && m_amd.takeBmecCleared(dom, rmid)) { // BMEC cleared the domain's counters
            m_mbm.restart(dom, rmid, 2);
            m_mbm.restart(dom, rmid, 3);
            return std::string("Unavailable\n");
        }
        // SNC: a mon_L3_XX file is the sum over the domain's nodes, a mon_sub_L3_YY file one node's count.
        for (std::uint32_t hw : physicalRmids(rmid, node)) {
            auto units = m_machine.counterUnits(dom, hw, ev);
            // rdtgroup_mondata_show prints the error instead of a number; the read itself succeeds.
            if (!units) return std::string("Error\n");
            if (m_machine.unavailable(dom, hw)) return std::string("Unavailable\n");
            if (ev == 1) {
                total += *units * mon.scale;
                continue;
            }
            total += m_mbm.advance(dom, hw, ev, *units, widthMask) * mon.scale; // mbm_overflow_count
        }
    }
    if (!counted) return std::string("Unassigned\n");
    return std::to_string(total) + "\n";
}

void SimResctrlMonitoring::pollIfDue(std::uint64_t nowNs)
{
    // MBM_OVERFLOW_INTERVAL is 1000 ms.
    if (!present() || nowNs - m_lastPollNs < 1'000'000'000ull) return;
    m_lastPollNs = nowNs;
    const std::uint64_t widthMask
        = m_machine.features().mon.counterWidth >= 64 ? ~0ull : (1ull << m_machine.features().mon.counterWidth) - 1;
    for (std::uint32_t rmid : m_groups.rmids())
        for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
            for (std::uint32_t hw : physicalRmids(rmid))
                for (std::uint32_t ev = 2; ev <= 3; ++ev) {
                    auto units = m_machine.counterUnits(d, hw, ev);
                    if (!units || m_machine.unavailable(d, hw)) continue;
                    m_mbm.advance(d, hw, ev, *units, widthMask);
                }
}

void SimResctrlMonitoring::checkLimboIfDue(std::uint64_t nowNs)
{
    // CQM_LIMBOCHECK_INTERVAL is 1000 ms.
    if (!present() || m_limbo.empty() || nowNs - m_lastLimboNs < 1'000'000'000ull) return;
    m_lastLimboNs = nowNs;
    std::vector<std::uint32_t> still;
    for (std::uint32_t rmid : m_limbo) {
        bool busy = false;
        for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
            for (std::uint32_t hw : physicalRmids(rmid))
                if (m_machine.occupancyBytes(d, hw) > m_threshold) busy = true;
        if (busy)
            still.push_back(rmid);
        else
            m_freeRmids.push_back(rmid);
    }
    m_limbo = std::move(still);
}

Result<std::uint32_t> SimResctrlMonitoring::allocRmid()
{
    if (!present()) return 0u;
    if (m_freeRmids.empty()) // resctrl_find_free_rmid: limbo RMIDs may come back, so EBUSY rather than ENOSPC
        return errnoError(m_limbo.empty() ? ENOSPC : EBUSY, "Out of RMIDs");
    std::uint32_t r = m_freeRmids.front();
    m_freeRmids.pop_front();
    resetMbmState(r);
    if (m_amd.assignOnMkdir()) m_amd.assignCounters(r); // mbm_assign_on_mkdir
    return r;
}

void SimResctrlMonitoring::freeRmid(std::uint32_t rmid)
{
    if (!present() || rmid == 0) return;
    m_amd.releaseCounters(rmid);
    // Lines tagged with the RMID stay in the cache: it waits in limbo until occupancy drops below the threshold.
    m_limbo.push_back(rmid);
}

Status SimResctrlMonitoring::writeThreshold(const std::string& path, const std::string& data)
{
    // max_threshold_occ_write: no status text, EINVAL above the cache size.
    long long v = 0;
    if (!kstrtoint(data, v) || v < 0 || std::uint64_t(v) > m_machine.features().l3.sizeBytes())
        return errnoError(
            EINVAL, "cannot write " + path + ": invalid threshold", "give a byte count up to the L3 size");
    m_threshold = std::uint64_t(v) / m_machine.features().mon.scale * m_machine.features().mon.scale;
    return {};
}

} // namespace rdt::sim
