// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation: monitoring reads and the kernel's periodic work (fs/resctrl/monitor.c
// mon_event_count, mbm_overflow_count, mbm_handle_overflow, cqm_handle_limbo; docs/RESCTRL.md).
#include "SimResctrlFs.h"

namespace rdt::sim {

std::vector<std::uint32_t> SimResctrlFs::physicalRmids(std::uint32_t rmid, int node) const
{
    // logical_rmid_to_physical_rmid: RMID + node x (RMIDs per node); without SNC the RMID itself.
    std::vector<std::uint32_t> out;
    for (unsigned n = 0; n < sncNodes(); ++n)
        if (node < 0 || static_cast<unsigned>(node) == n) out.push_back(rmid + n * rmidsPerNode());
    return out;
}

std::string SimResctrlFs::subDomainName(unsigned domain, unsigned node) const
{
    // mon_sub_L3_YY: YY is the NUMA node id; a socket's nodes are numbered after the previous sockets'.
    const unsigned id = domain * sncNodes() + node;
    return "mon_sub_L3_" + std::string(id < 10 ? "0" : "") + std::to_string(id);
}

void SimResctrlFs::resetMbmState(std::uint32_t rmid)
{
    // resctrl_arch_reset_rmid: the next read starts counting from the counter's current value.
    for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
        for (std::uint32_t hw : physicalRmids(rmid))
            for (std::uint32_t ev = 2; ev <= 3; ++ev) {
                auto v = m_machine.counterUnits(d, hw, ev);
                m_mbm[{ d, hw, ev }] = { v ? *v : 0, 0 };
            }
}

Result<std::string> SimResctrlFs::readMon(Group& g, int domain, int node, const std::string& event)
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
        if (!counterAssigned(dom, rmid, ev)) continue;
        counted = true;
        if (ev != 1 && m_bmecCleared.erase({ dom, rmid })) { // BMEC cleared the domain's counters
            m_mbm[{ dom, rmid, 2 }] = { m_machine.counterUnits(dom, rmid, 2).value_or(0), 0 };
            m_mbm[{ dom, rmid, 3 }] = { m_machine.counterUnits(dom, rmid, 3).value_or(0), 0 };
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
            MbmState& st = m_mbm[{ dom, hw, ev }];
            st.chunks += (*units - st.prevMsr) & widthMask; // mbm_overflow_count
            st.prevMsr = *units;
            total += st.chunks * mon.scale;
        }
    }
    if (!counted) return std::string("Unassigned\n");
    return std::to_string(total) + "\n";
}

void SimResctrlFs::pollMbm()
{
    const std::uint64_t widthMask
        = m_machine.features().mon.counterWidth >= 64 ? ~0ull : (1ull << m_machine.features().mon.counterWidth) - 1;
    for (Group* g : allGroups())
        for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
            for (std::uint32_t hw : physicalRmids(g->rmid))
                for (std::uint32_t ev = 2; ev <= 3; ++ev) {
                    auto units = m_machine.counterUnits(d, hw, ev);
                    if (!units || m_machine.unavailable(d, hw)) continue;
                    MbmState& st = m_mbm[{ d, hw, ev }];
                    st.chunks += (*units - st.prevMsr) & widthMask;
                    st.prevMsr = *units;
                }
}

void SimResctrlFs::checkLimbo()
{
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

void SimResctrlFs::onTick(std::uint64_t nowNs)
{
    // MBM_OVERFLOW_INTERVAL and CQM_LIMBOCHECK_INTERVAL are both 1000 ms.
    if (monitoring() && nowNs - m_lastPollNs >= 1'000'000'000ull) {
        pollMbm();
        m_lastPollNs = nowNs;
    }
    accumulateTelemetry(nowNs);
    if (monitoring() && !m_limbo.empty() && nowNs - m_lastLimboNs >= 1'000'000'000ull) {
        checkLimbo();
        m_lastLimboNs = nowNs;
    }
}

} // namespace rdt::sim
