// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimCmdStatus.h"
#include "SimMbmCounters.h"
#include "SimResctrlTypes.h"
#include "core/Result.h"

#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace rdt::sim {

class SimMachine;

/// The emulated kernel's AMD monitoring dialect: assignable counters (ABMC, "mbm_event" mode: an (RMID, event) pair
/// counts only while it holds one of a domain's counters) and BMEC (the transactions mbm_{total,local}_bytes count;
/// writing one clears the domain's counters). Their info/L3_MON files and each group's mbm_L3_assignments.
class SimResctrlAmdMonitoring {
public:
    SimResctrlAmdMonitoring(SimMachine& machine, SimCmdStatus& status, SimMbmCounters& mbm);

    bool abmc() const;
    bool counterMode() const { return abmc() && m_assignMode == "mbm_event"; }
    bool bmecFiles() const;
    /// At mount: the hardware's reset BMEC configuration, mbm_event mode where supported.
    void init();
    std::vector<std::string> infoFiles() const;
    Result<std::string> readInfo(const std::string& dir, const std::string& file);
    Status writeInfo(const std::string& file, const std::string& data);
    /// Whether (domain, rmid, event) counts: always outside mbm_event mode and for llc_occupancy.
    bool counterAssigned(unsigned domain, std::uint32_t rmid, std::uint32_t event) const;
    /// True once after a BMEC write cleared the (domain, rmid) counters: that read says "Unavailable".
    bool takeBmecCleared(unsigned domain, std::uint32_t rmid) { return m_bmecCleared.erase({ domain, rmid }) != 0; }
    /// mbm_assign_on_mkdir: a new group's RMID gets counters.
    bool assignOnMkdir() const { return m_assignOnMkdir; }
    void assignCounters(std::uint32_t rmid); ///< both MBM events in every domain, as counters last
    void releaseCounters(std::uint32_t rmid);
    std::string readAssignments(const ResctrlGroup& g) const;
    Status writeAssignments(ResctrlGroup& g, const std::string& data);

private:
    unsigned availableCounters(unsigned domain) const;
    Status assignCounter(unsigned domain, std::uint32_t rmid, std::uint32_t event);

    SimMachine& m_machine;
    SimCmdStatus& m_status;
    SimMbmCounters& m_mbm;
    // The counter assignment mode, the assigned (domain, rmid, event) counters, BMEC configurations per domain
    // (total, local) and the (domain, rmid) pairs cleared by a BMEC write and not read since.
    std::string m_assignMode = "default";
    bool m_assignOnMkdir = true;
    std::set<std::tuple<unsigned, std::uint32_t, std::uint32_t>> m_counters;
    std::vector<std::uint32_t> m_bmecConfig[2];
    std::set<std::pair<unsigned, std::uint32_t>> m_bmecCleared;
};

} // namespace rdt::sim
