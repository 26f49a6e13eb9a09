// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimMbmCounters.h"
#include "SimResctrlAmdMonitoring.h"
#include "SimResctrlTypes.h"
#include "core/Result.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace rdt::sim {

class SimMachine;
class SimResctrlGroups;

/// The emulated kernel's L3 monitoring (fs/resctrl/monitor.c): RMIDs handed out and freed through limbo
/// (cqm_handle_limbo), mon_data reads as the kernel sums and wrap-corrects them (mon_event_count,
/// mbm_overflow_count), the 1 s overflow poll (mbm_handle_overflow), and SNC's per-node hardware RMIDs.
class SimResctrlMonitoring {
public:
    SimResctrlMonitoring(
        SimMachine& machine, SimMbmCounters& mbm, SimResctrlAmdMonitoring& amd, const SimResctrlGroups& groups);

    bool present() const;
    /// At mount: every RMID but 0 free, the reuse threshold, the root's counts started, AMD's dialect set up.
    void init(std::uint64_t nowNs);
    // SNC: each logical RMID counts as one hardware RMID per node.
    unsigned sncNodes() const;
    std::uint32_t rmidsPerNode() const;
    std::string subDomainName(unsigned domain, unsigned node) const;
    Result<std::string> readMon(const ResctrlGroup& g, int domain, int node, const std::string& event);
    Result<std::uint32_t> allocRmid();
    void freeRmid(std::uint32_t rmid);
    std::uint64_t threshold() const { return m_threshold; }
    /// info/L3_MON/max_threshold_occupancy (max_threshold_occ_write).
    Status writeThreshold(const std::string& path, const std::string& data);
    /// mbm_handle_overflow, when a second passed since the last.
    void pollIfDue(std::uint64_t nowNs);
    /// cqm_handle_limbo, when RMIDs wait and a second passed since the last check.
    void checkLimboIfDue(std::uint64_t nowNs);

private:
    /// The hardware RMIDs of `rmid` in node `node` of a domain, or in every node (node -1).
    std::vector<std::uint32_t> physicalRmids(std::uint32_t rmid, int node = -1) const;
    void resetMbmState(std::uint32_t rmid);

    SimMachine& m_machine;
    SimMbmCounters& m_mbm;
    SimResctrlAmdMonitoring& m_amd;
    const SimResctrlGroups& m_groups;
    std::deque<std::uint32_t> m_freeRmids;
    std::vector<std::uint32_t> m_limbo;
    std::uint64_t m_threshold = 0; ///< max_threshold_occupancy, bytes
    std::uint64_t m_lastPollNs = 0, m_lastLimboNs = 0;
};

} // namespace rdt::sim
