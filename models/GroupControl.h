// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cerrno>
#include <string>
#include <vector>

/// A resctrl group as the Groups dock shows it.
struct GroupDescription {
    std::string path; ///< "" = default group, "p0", "p0/mon_groups/m1"
    bool monitorOnly = false; ///< a mon_groups child (RMID only) rather than a control group (CLOS + RMID)
    std::vector<int> tasks; ///< PIDs/TIDs in the group's tasks file
    std::string cpus; ///< cpus_list text, e.g. "0-3,8"
};

/// Group operations the Groups dock needs; an adapter over the engine's RdtBackend implements it, so this
/// library does not depend on which backend (resctrl, sim, msr) runs. Errors carry the kernel's reason and advice
/// (permission, no such task, "Out of CLOSIDs").
class GroupControl {
public:
    virtual ~GroupControl() = default;
    virtual rdt::Result<std::vector<GroupDescription>> listGroups() = 0;
    /// Empty when groups can be changed; otherwise why not (e.g. "not root: /sys/fs/resctrl is read-only to you").
    virtual std::string whyReadOnly() const = 0;
    virtual rdt::Status createGroup(const std::string& path, bool monitorOnly) = 0;
    virtual rdt::Status removeGroup(const std::string& path) = 0;
    virtual rdt::Status addTasks(const std::string& path, const std::vector<int>& pids) = 0;
    virtual rdt::Status setCpus(const std::string& path, const std::string& cpuList) = 0;
    /// Assignable MBM counters (resctrl mbm_event mode, AMD ABMC): assigns (or frees) the counters of the MBM events
    /// the machine has for a group in `domain` (-1 = every domain), through RdtBackend::assignCounter. Sources
    /// without them refuse with ENOTSUP and the reason.
    virtual rdt::Status assignCounters(const std::string& path, int domain, bool assign)
    {
        (void)path;
        (void)domain;
        (void)assign;
        return rdt::errnoError(ENOTSUP, "this source cannot assign MBM counters");
    }
    /// The L3 domains whose MBM counters are assigned per group (resctrl mbm_event mode), ascending; empty when
    /// counters are not assignable here (the events count for every group).
    virtual std::vector<int> counterDomains() { return {}; }
};
