// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ResctrlMountOptions.h"
#include "SimCmdStatus.h"
#include "SimResctrlTypes.h"
#include "core/Result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rdt::sim {

class SimMachine;

/// The emulated kernel's groups and who is in them (fs/resctrl/rdtgroup.c): the root and its CTRL_MON and MON
/// groups, the CLOSIDs they hold, their tasks (simulated threads, and host tasks when served to the host) and CPUs,
/// and the default CLOSID/RMID each CPU gets from its groups (update_closid_rmid).
class SimResctrlGroups {
public:
    SimResctrlGroups(SimMachine& machine, const ResctrlMountOptions& options, SimCmdStatus& status);

    /// At mount: every CPU in the root, CLOSID 0 the root's of `closids` (at least 1).
    void init(std::uint32_t closids);
    ResctrlGroup& root() { return m_root; }
    const ResctrlGroup& root() const { return m_root; }
    std::map<std::string, std::unique_ptr<ResctrlGroup>>& controlGroups() { return m_ctrl; }
    const std::map<std::string, std::unique_ptr<ResctrlGroup>>& controlGroups() const { return m_ctrl; }
    /// The RMIDs of every group.
    std::vector<std::uint32_t> rmids() const;
    const std::vector<bool>& closidUsed() const { return m_closidUsed; }
    std::string modeOfClosid(std::uint32_t closid) const;
    Result<std::uint32_t> allocClosid();
    void freeClosid(std::uint32_t closid) { m_closidUsed[closid] = false; }

    std::string readTasks(const ResctrlGroup& g);
    Status writeTasks(ResctrlGroup& g, const std::string& data);
    Status writeCpus(ResctrlGroup& g, const std::string& data, bool list);
    /// A group is going: its tasks and CPUs go to the default group (CTRL_MON) or to the parent (MON).
    void moveMembersOut(const ResctrlGroup& g);
    /// update_closid_rmid: each CPU's default CLOSID/RMID (what IA32_PQR_ASSOC holds when a task has none).
    void applyCpuDefaults();

private:
    std::vector<ResctrlGroup*> allGroups();
    /// Forgets host tasks that have exited, as the kernel's lists drop exited tasks.
    void pruneHostTasks();

    SimMachine& m_machine;
    const ResctrlMountOptions& m_options;
    SimCmdStatus& m_status;
    ResctrlGroup m_root;
    std::map<std::string, std::unique_ptr<ResctrlGroup>> m_ctrl;
    std::vector<bool> m_closidUsed;
    struct HostTask {
        std::uint32_t closid = 0, rmid = 0;
    };
    std::map<unsigned, HostTask> m_hostTasks; ///< host PIDs written to a tasks file (ResctrlMountOptions)
};

} // namespace rdt::sim
