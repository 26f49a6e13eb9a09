// SPDX-License-Identifier: GPL-3.0-or-later
#include "PodGroups.h"

#include "KubernetesLabels.h"

#include <set>

namespace rdt::metrics {

PodGroups::PodGroups(OwnedGroups& owned, std::string procRoot)
    : m_owned(owned)
    , m_procRoot(std::move(procRoot))
{ }

std::string PodGroups::groupOf(const std::string& controlGroup, const std::string& podUid) const
{
    auto it = m_groups.find({ controlGroup, podUid });
    return it == m_groups.end() ? std::string {} : it->second;
}

PodGroups::Update PodGroups::update(const engine::GroupsSnapshot& snapshot)
{
    Update out;
    // A control group's tasks file lists every task of its CLOSID, those of its monitor groups too (the kernel's
    // fs/resctrl/rdtgroup.c, show_rdt_tasks), so the tasks directly in it are the difference.
    std::map<std::string, std::set<unsigned>> direct;
    std::map<std::string, std::size_t> taskCount;
    for (const auto& g : snapshot.groups) {
        if (g.info.isControl) direct[g.info.path].insert(g.tasks.begin(), g.tasks.end());
        taskCount[g.info.path] = g.tasks.size();
    }
    for (const auto& g : snapshot.groups)
        if (!g.info.isControl)
            for (unsigned t : g.tasks)
                direct[g.info.parent].erase(t);

    for (auto it = m_groups.begin(); it != m_groups.end();) {
        if (taskCount.count(it->second)) {
            ++it;
            continue;
        }
        m_owned.forget(it->second); // removed by someone else; its tasks went back to the control group
        out.log.push_back("monitor group " + it->second + " was removed by someone else");
        it = m_groups.erase(it);
        out.changed = true;
    }

    std::map<std::pair<std::string, std::string>, std::vector<unsigned>> wanted; // (control group, pod) -> tasks
    for (const auto& [control, tasks] : direct)
        for (unsigned t : tasks)
            if (auto pod = podOfTask(m_procRoot, t)) wanted[{ control, pod->podUid }].push_back(t);

    std::set<std::string> touched;
    for (const auto& [key, tasks] : wanted) {
        const auto& [control, uid] = key;
        if (auto it = m_groups.find(key); it != m_groups.end() && m_owned.paths().count(it->second)) {
            if (auto r = m_owned.addTasks(it->second, tasks); !r.ok)
                out.log.push_back("could not move tasks of pod " + uid + " into " + it->second + ": " + r.toString());
            touched.insert(it->second);
            out.changed = true;
            continue;
        }
        auto made = m_owned.create(control, "pod-" + uid, tasks);
        const std::string name = ownedGroupName(m_owned.ownerPid(), "pod-" + uid);
        const std::string path = control.empty() ? "mon_groups/" + name : control + "/mon_groups/" + name;
        if (!made) {
            // No RMID left (ENOSPC) is the usual reason; say it once per group, try again at the next update.
            if (m_refused.emplace(path, made.error().toString()).second)
                out.log.push_back("could not make monitor group " + path + ": " + made.error().toString());
            continue;
        }
        m_refused.erase(path);
        m_groups[key] = *made;
        touched.insert(*made);
        out.changed = true;
        out.log.push_back("made monitor group " + *made + " for pod " + uid + " (" + std::to_string(tasks.size())
            + (tasks.size() == 1 ? " task)" : " tasks)"));
    }

    for (auto it = m_groups.begin(); it != m_groups.end();) {
        const std::string path = it->second;
        if (touched.count(path) || taskCount[path] > 0) {
            ++it;
            continue;
        }
        // The pod's tasks are all gone: free the RMID now rather than when the agent stops.
        const auto r = m_owned.remove(path);
        out.log.push_back(r.ok ? "removed monitor group " + path + " (its pod has no task left)"
                               : "could not remove monitor group " + path + ": " + r.toString());
        it = r.ok ? m_groups.erase(it) : std::next(it);
        out.changed = true;
    }
    return out;
}

} // namespace rdt::metrics
