// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The monitor groups rdtscope-agent makes for itself (one per Kubernetes pod and control group, PodGroups.h), named
// so that users, other tools and a later agent can tell them from everyone else's (docs/RESCTRL.md "Groups the
// agent owns"): PARENT/mon_groups/rdtscope-agent.<PID>.<what>, PID being the agent's. Each holds an RMID, and RMIDs
// are few (info/L3_MON/num_rmids), so the agent removes its groups when it stops and, on start, those of agents that
// are no longer running (a crash or SIGKILL left them: cAdvisor leaked its groups that way, google/cadvisor#3057).
// Nothing here removes, resets or takes tasks from any other group: collectd's pqos_mon_reset reset every RMID on
// the machine, including those of other tools.

#include "engine/Engine.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rdt::metrics {

inline constexpr std::string_view kOwnedGroupPrefix = "rdtscope-agent.";

/// "rdtscope-agent.<pid>.<what>".
std::string ownedGroupName(unsigned ownerPid, std::string_view what);
/// The agent PID a monitor group's path names when its last component is an owned name; nullopt for every other
/// group (control groups included: the agent never makes one).
std::optional<unsigned> ownedGroupOwner(std::string_view monitorGroupPath);
/// Whether PID is a running rdtscope-agent (its /proc/PID/comm): a PID the kernel gave to another program since does
/// not keep a dead agent's groups alive.
bool isRunningAgent(unsigned pid, const std::string& procRoot = "/proc");

class OwnedGroups {
public:
    /// `ownerAlive` says whether another agent still runs (isRunningAgent in the agent, a table in tests).
    OwnedGroups(engine::Engine& engine, unsigned ownerPid, std::function<bool(unsigned)> ownerAlive);

    /// Removes the owned groups of agents that no longer run (and any named with this agent's own PID, which it
    /// cannot have made yet). One log line per group removed or left (why it could not be removed).
    std::vector<std::string> reclaim();
    /// Makes PARENT/mon_groups/rdtscope-agent.<PID>.<what> and moves `pids` into it; a half-made group (the tasks
    /// could not be moved) is removed again. The new group's path.
    Result<std::string> create(const std::string& parent, std::string_view what, const std::vector<unsigned>& pids);
    /// Moves more tasks into a group this object made.
    engine::CommandResult addTasks(const std::string& path, const std::vector<unsigned>& pids);
    /// Removes one group this object made (the kernel gives its tasks back to the parent control group).
    engine::CommandResult remove(const std::string& path);
    /// Forgets a group that is gone without this object removing it (someone else did).
    void forget(const std::string& path) { m_paths.erase(path); }
    /// Removes every group this object made; one log line per group.
    std::vector<std::string> removeAll();

    const std::set<std::string>& paths() const { return m_paths; }
    unsigned ownerPid() const { return m_ownerPid; }

private:
    engine::Engine& m_engine;
    unsigned m_ownerPid;
    std::function<bool(unsigned)> m_ownerAlive;
    std::set<std::string> m_paths;
};

} // namespace rdt::metrics
