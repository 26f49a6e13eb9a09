// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// rdtscope-agent --monitor-pods: one monitor group per Kubernetes pod and control group, so that every pod gets its
// own occupancy and bandwidth series (and, through the Kubernetes labeller, its namespace, pod and container labels)
// without anyone making groups by hand. Which pod a task belongs to comes from /proc/PID/cgroup
// (KubernetesLabels.h). Only tasks that sit directly in a control group are moved, into a monitor group under that
// same control group, so their allocation does not change; a task in someone else's monitor group stays there
// (moving it would take it from that group's counts). The groups are OwnedGroups: named for the agent, removed
// when their pod has no task left and when the agent stops.

#include "OwnedGroups.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rdt::metrics {

class PodGroups {
public:
    PodGroups(OwnedGroups& owned, std::string procRoot);

    struct Update {
        bool changed = false; ///< a group was made, filled or removed: the caller's snapshot is stale
        std::vector<std::string> log;
    };
    /// Brings the pod groups in line with `snapshot` (taken with tasks).
    Update update(const engine::GroupsSnapshot& snapshot);

    /// The group made for a pod under a control group ("" when none).
    std::string groupOf(const std::string& controlGroup, const std::string& podUid) const;

private:
    OwnedGroups& m_owned;
    std::string m_procRoot;
    std::map<std::pair<std::string, std::string>, std::string> m_groups; ///< (control group, pod UID) -> path
    std::map<std::string, std::string> m_refused; ///< path -> why it could not be made (logged once)
};

} // namespace rdt::metrics
