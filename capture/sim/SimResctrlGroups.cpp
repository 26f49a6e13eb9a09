// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation: groups, tasks and cpus (rdtgroup.c behaviour, docs/RESCTRL.md).
#include "SimResctrlGroups.h"
#include "core/Text.h"

#include "CpuMask.h"
#include "KernelStrtoint.h"
#include "SimMachine.h"

#include <algorithm>
#include <cerrno>

namespace rdt::sim {

SimResctrlGroups::SimResctrlGroups(SimMachine& machine, const ResctrlMountOptions& options, SimCmdStatus& status)
    : m_machine(machine)
    , m_options(options)
    , m_status(status)
{ }

void SimResctrlGroups::init(std::uint32_t closids)
{
    m_root.name = "";
    m_root.cpus.assign(m_machine.cpuCount(), true);
    m_closidUsed.assign(std::max<std::uint32_t>(1, closids), false);
    m_closidUsed[0] = true;
}

std::vector<ResctrlGroup*> SimResctrlGroups::allGroups()
{
    std::vector<ResctrlGroup*> out { &m_root };
    for (auto& [n, g] : m_root.mon)
        out.push_back(g.get());
    for (auto& [n, g] : m_ctrl) {
        out.push_back(g.get());
        for (auto& [mn, m] : g->mon)
            out.push_back(m.get());
    }
    return out;
}

std::vector<std::uint32_t> SimResctrlGroups::rmids() const
{
    std::vector<std::uint32_t> out { m_root.rmid };
    for (const auto& [n, g] : m_root.mon)
        out.push_back(g->rmid);
    for (const auto& [n, g] : m_ctrl) {
        out.push_back(g->rmid);
        for (const auto& [mn, m] : g->mon)
            out.push_back(m->rmid);
    }
    return out;
}

std::string SimResctrlGroups::modeOfClosid(std::uint32_t closid) const
{
    if (closid == 0) return m_root.mode;
    for (const auto& [n, g] : m_ctrl)
        if (g->closid == closid) return g->mode;
    return "shareable";
}

Result<std::uint32_t> SimResctrlGroups::allocClosid()
{
    for (std::uint32_t c = 1; c < m_closidUsed.size(); ++c)
        if (!m_closidUsed[c]) {
            m_closidUsed[c] = true;
            return c;
        }
    return errnoError(ENOSPC, "Out of CLOSIDs");
}

void SimResctrlGroups::pruneHostTasks()
{
    for (auto it = m_hostTasks.begin(); it != m_hostTasks.end();)
        it = m_options.hostTaskExists && m_options.hostTaskExists(it->first) ? std::next(it) : m_hostTasks.erase(it);
}

std::string SimResctrlGroups::readTasks(const ResctrlGroup& g)
{
    // show_rdt_tasks: a CTRL_MON group lists tasks with its CLOSID, a MON group those with its RMID.
    std::string s;
    for (const auto& t : m_machine.threads())
        if (g.ctrl ? t.taskClos == g.closid : t.taskRmid == g.rmid) s += std::to_string(t.tid) + "\n";
    pruneHostTasks();
    for (const auto& [pid, h] : m_hostTasks)
        if (g.ctrl ? h.closid == g.closid : h.rmid == g.rmid) s += std::to_string(pid) + "\n";
    if (&g == &m_root && m_options.listHostTasks)
        for (unsigned pid : m_options.listHostTasks())
            if (!m_hostTasks.count(pid) && !(pid <= INT32_MAX && m_machine.thread(static_cast<int>(pid))))
                s += std::to_string(pid) + "\n";
    return s;
}

Status SimResctrlGroups::writeTasks(ResctrlGroup& g, const std::string& data)
{
    m_status.clear();
    std::string buf = data;
    std::size_t pos = 0;
    // rdtgroup_tasks_write: comma-separated PIDs, processed in order, stopping at the first failure.
    while (pos < buf.size() && buf[pos] != '\0' && buf[pos] != '\n') {
        std::size_t comma = buf.find(',', pos);
        std::string pidStr
            = std::string(trim(buf.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos)));
        pos = comma == std::string::npos ? buf.size() : comma + 1;
        long long pid = 0;
        if (!kstrtoint(pidStr, pid)) {
            m_status.set("Task list parsing error pid " + pidStr);
            return errnoError(EINVAL, "cannot write tasks: Task list parsing error pid " + pidStr);
        }
        if (pid < 0) {
            m_status.set("Invalid pid " + std::to_string(pid));
            return errnoError(EINVAL, "cannot write tasks: Invalid pid " + std::to_string(pid));
        }
        auto t = m_machine.thread(static_cast<int>(pid));
        if (!t && pid > 0 && m_options.hostTaskExists && m_options.hostTaskExists(static_cast<unsigned>(pid))) {
            auto [it, fresh] = m_hostTasks.try_emplace(static_cast<unsigned>(pid));
            if (!g.ctrl && (fresh ? 0u : it->second.closid) != g.parent->closid) {
                if (fresh) m_hostTasks.erase(it);
                m_status.set("Can't move task to different control group");
                m_status.set("Error while processing task " + std::to_string(pid));
                return errnoError(EINVAL, "cannot write tasks: Can't move task to different control group");
            }
            it->second = { g.ctrl ? g.closid : g.parent->closid, g.rmid };
            continue;
        }
        if (!t) {
            m_status.set("No task " + std::to_string(pid));
            m_status.set("Error while processing task " + std::to_string(pid));
            return errnoError(ESRCH, "cannot write tasks: No task " + std::to_string(pid),
                "the simulated PIDs are the workload threads (rdtscope-cli sim threads); PID 0 is not simulated");
        }
        if (!g.ctrl && t->taskClos != g.parent->closid) {
            m_status.set("Can't move task to different control group");
            m_status.set("Error while processing task " + std::to_string(pid));
            return errnoError(EINVAL, "cannot write tasks: Can't move task to different control group");
        }
        std::uint32_t closid = g.ctrl ? g.closid : g.parent->closid;
        (void)m_machine.setTaskAssociation(static_cast<int>(pid), closid, g.rmid);
    }
    return {};
}

void SimResctrlGroups::applyCpuDefaults()
{
    for (unsigned c = 0; c < m_machine.cpuCount(); ++c) {
        ResctrlGroup* owner = &m_root;
        for (auto& [n, g] : m_ctrl)
            if (g->cpus[c]) owner = g.get();
        std::uint32_t rmid = owner->rmid;
        for (auto& [n, m] : owner->mon)
            if (m->cpus[c]) rmid = m->rmid;
        m_machine.setPqr(c, { owner->closid, rmid });
    }
}

Status SimResctrlGroups::writeCpus(ResctrlGroup& g, const std::string& data, bool list)
{
    m_status.clear();
    std::vector<bool> mask;
    const unsigned n = m_machine.cpuCount();
    if (!(list ? parseCpuList(data, n, mask) : parseCpuMask(data, n, mask))) {
        m_status.set("Bad CPU list/mask");
        return errnoError(EINVAL, "cannot write cpus: Bad CPU list/mask");
    }
    if (g.ctrl) {
        bool drops = false;
        for (unsigned c = 0; c < n; ++c)
            drops |= g.cpus[c] && !mask[c];
        if (drops && &g == &m_root) {
            m_status.set("Can't drop CPUs from default group");
            return errnoError(EINVAL, "cannot write cpus: Can't drop CPUs from default group");
        }
        for (unsigned c = 0; c < n; ++c) {
            if (g.cpus[c] && !mask[c]) m_root.cpus[c] = true; // dropped CPUs go back to the default group
            if (mask[c] && !g.cpus[c]) { // added CPUs leave their previous group and its MON groups
                for (ResctrlGroup* other : allGroups())
                    if (other != &g && other->ctrl) other->cpus[c] = false;
                for (ResctrlGroup* other : allGroups())
                    if (!other->ctrl) other->cpus[c] = other->cpus[c] && other->parent == &g;
            }
        }
        g.cpus = mask;
        for (auto& [name, m] : g.mon)
            for (unsigned c = 0; c < n; ++c)
                m->cpus[c] = m->cpus[c] && mask[c];
    } else {
        for (unsigned c = 0; c < n; ++c)
            if (mask[c] && !g.parent->cpus[c]) {
                m_status.set("Can only add CPUs to mongroup that belong to parent");
                return errnoError(EINVAL, "cannot write cpus: Can only add CPUs to mongroup that belong to parent");
            }
        for (unsigned c = 0; c < n; ++c)
            if (mask[c] && !g.cpus[c])
                for (auto& [name, sib] : g.parent->mon)
                    if (sib.get() != &g) sib->cpus[c] = false;
        g.cpus = mask;
    }
    applyCpuDefaults();
    return {};
}

void SimResctrlGroups::moveMembersOut(const ResctrlGroup& g)
{
    if (g.ctrl) {
        // Tasks of the group and its MON groups go to the default group; CPUs too.
        for (const auto& t : m_machine.threads())
            if (t.taskClos == g.closid) (void)m_machine.setTaskAssociation(t.tid, 0, 0);
        for (auto& [pid, h] : m_hostTasks)
            if (h.closid == g.closid) h = {};
        for (unsigned c = 0; c < m_machine.cpuCount(); ++c)
            if (g.cpus[c]) m_root.cpus[c] = true;
        return;
    }
    const ResctrlGroup* parent = g.parent;
    for (const auto& t : m_machine.threads())
        if (t.taskRmid == g.rmid && t.taskClos == parent->closid)
            (void)m_machine.setTaskAssociation(t.tid, parent->closid, parent->rmid);
    for (auto& [pid, h] : m_hostTasks)
        if (h.rmid == g.rmid && h.closid == parent->closid) h = { parent->closid, parent->rmid };
}

} // namespace rdt::sim
