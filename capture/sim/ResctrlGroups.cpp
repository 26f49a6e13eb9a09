// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation: writes, mkdir/rmdir, tasks and cpus (rdtgroup.c behaviour, docs/RESCTRL.md).
#include "SimResctrlFs.h"
#include "core/Text.h"

#include "PathComponents.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace rdt::sim {
namespace {

/// kstrtoint(s, 0, &v): optional sign, 0x/0 prefixes, one trailing newline; false on anything else.
bool kstrtoint(const std::string& s, long long& v)
{
    std::string t = s;
    if (!t.empty() && t.back() == '\n') t.pop_back();
    if (t.empty()) return false;
    char* end = nullptr;
    errno = 0;
    v = std::strtoll(t.c_str(), &end, 0);
    if (errno != 0 || *end != '\0' || std::isspace(static_cast<unsigned char>(t[0])) || v > 0x7FFFFFFF
        || v < -0x7FFFFFFFLL - 1)
        return false;
    return true;
}

} // namespace

Status SimResctrlFs::write(const std::string& path, const std::string& data)
{
    std::lock_guard lock(m_machine.mutex());
    if (auto parts = pathComponents(path); !parts) return parts.error();
    Resolved r = resolve(path);
    switch (r.kind) {
    case Resolved::None:
        return errnoError(ENOENT, "cannot write " + path + ": no such file");
    case Resolved::InfoFile:
        if (r.info == "L3_MON" && r.file == "max_threshold_occupancy") {
            // max_threshold_occ_write: no status text, EINVAL above the cache size.
            long long v = 0;
            if (!kstrtoint(data, v) || v < 0 || std::uint64_t(v) > m_machine.features().l3.sizeBytes())
                return errnoError(
                    EINVAL, "cannot write " + path + ": invalid threshold", "give a byte count up to the L3 size");
            m_threshold = std::uint64_t(v) / m_machine.features().mon.scale * m_machine.features().mon.scale;
            return {};
        }
        if (r.info == "L3_MON" && r.file != "mon_features" && r.file != "num_rmids")
            return writeAmdMonInfo(r.file, data);
        return errnoError(EACCES, "cannot write " + path + ": read-only file");
    case Resolved::GroupFile:
        if (r.file == "tasks") return writeTasks(*r.group, data);
        if (r.file == "cpus" || r.file == "cpus_list") return writeCpus(*r.group, data, r.file == "cpus_list");
        if (r.file == "schemata") return writeSchemata(*r.group, data);
        if (r.file == "mode") return writeMode(*r.group, data);
        if (r.file == "mbm_L3_assignments") return writeAssignments(*r.group, data);
        return errnoError(EACCES, "cannot write " + path + ": read-only file");
    case Resolved::MonFile:
        return errnoError(EACCES, "cannot write " + path + ": read-only file");
    default:
        return errnoError(EISDIR, "cannot write " + path + ": is a directory");
    }
}

Status SimResctrlFs::writeTasks(Group& g, const std::string& data)
{
    clearStatus();
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
            setStatus("Task list parsing error pid " + pidStr);
            return errnoError(EINVAL, "cannot write tasks: Task list parsing error pid " + pidStr);
        }
        if (pid < 0) {
            setStatus("Invalid pid " + std::to_string(pid));
            return errnoError(EINVAL, "cannot write tasks: Invalid pid " + std::to_string(pid));
        }
        auto t = m_machine.thread(static_cast<int>(pid));
        if (!t && pid > 0 && m_options.hostTaskExists && m_options.hostTaskExists(static_cast<unsigned>(pid))) {
            auto [it, fresh] = m_hostTasks.try_emplace(static_cast<unsigned>(pid));
            if (!g.ctrl && (fresh ? 0u : it->second.closid) != g.parent->closid) {
                if (fresh) m_hostTasks.erase(it);
                setStatus("Can't move task to different control group");
                setStatus("Error while processing task " + std::to_string(pid));
                return errnoError(EINVAL, "cannot write tasks: Can't move task to different control group");
            }
            it->second = { g.ctrl ? g.closid : g.parent->closid, g.rmid };
            continue;
        }
        if (!t) {
            setStatus("No task " + std::to_string(pid));
            setStatus("Error while processing task " + std::to_string(pid));
            return errnoError(ESRCH, "cannot write tasks: No task " + std::to_string(pid),
                "the simulated PIDs are the workload threads (rdtscope-cli sim threads); PID 0 is not simulated");
        }
        if (!g.ctrl && t->taskClos != g.parent->closid) {
            setStatus("Can't move task to different control group");
            setStatus("Error while processing task " + std::to_string(pid));
            return errnoError(EINVAL, "cannot write tasks: Can't move task to different control group");
        }
        std::uint32_t closid = g.ctrl ? g.closid : g.parent->closid;
        (void)m_machine.setTaskAssociation(static_cast<int>(pid), closid, g.rmid);
    }
    return {};
}

void SimResctrlFs::applyCpuDefaults(const std::vector<bool>&)
{
    // update_closid_rmid: each CPU's default CLOSID/RMID (what IA32_PQR_ASSOC holds when a task has none).
    for (unsigned c = 0; c < m_machine.cpuCount(); ++c) {
        Group* owner = &m_root;
        for (auto& [n, g] : m_ctrl)
            if (g->cpus[c]) owner = g.get();
        std::uint32_t rmid = owner->rmid;
        for (auto& [n, m] : owner->mon)
            if (m->cpus[c]) rmid = m->rmid;
        m_machine.setPqr(c, { owner->closid, rmid });
    }
}

Status SimResctrlFs::writeCpus(Group& g, const std::string& data, bool list)
{
    clearStatus();
    std::vector<bool> mask;
    const unsigned n = m_machine.cpuCount();
    if (!(list ? parseCpuList(data, n, mask) : parseCpuMask(data, n, mask))) {
        setStatus("Bad CPU list/mask");
        return errnoError(EINVAL, "cannot write cpus: Bad CPU list/mask");
    }
    if (g.ctrl) {
        bool drops = false;
        for (unsigned c = 0; c < n; ++c)
            drops |= g.cpus[c] && !mask[c];
        if (drops && &g == &m_root) {
            setStatus("Can't drop CPUs from default group");
            return errnoError(EINVAL, "cannot write cpus: Can't drop CPUs from default group");
        }
        for (unsigned c = 0; c < n; ++c) {
            if (g.cpus[c] && !mask[c]) m_root.cpus[c] = true; // dropped CPUs go back to the default group
            if (mask[c] && !g.cpus[c]) { // added CPUs leave their previous group and its MON groups
                for (Group* other : allGroups())
                    if (other != &g && other->ctrl) other->cpus[c] = false;
                for (Group* other : allGroups())
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
                setStatus("Can only add CPUs to mongroup that belong to parent");
                return errnoError(EINVAL, "cannot write cpus: Can only add CPUs to mongroup that belong to parent");
            }
        for (unsigned c = 0; c < n; ++c)
            if (mask[c] && !g.cpus[c])
                for (auto& [name, sib] : g.parent->mon)
                    if (sib.get() != &g) sib->cpus[c] = false;
        g.cpus = mask;
    }
    applyCpuDefaults(mask);
    return {};
}

Status SimResctrlFs::mkdir(const std::string& path)
{
    std::lock_guard lock(m_machine.mutex());
    auto parts = pathComponents(path);
    if (!parts) return parts.error();
    auto comps = std::move(*parts);
    if (comps.empty() || resolve(path).kind != Resolved::None)
        return errnoError(EEXIST, "cannot create " + path + ": exists");
    const std::string name = comps.back();
    comps.pop_back();
    std::string parentPath;
    for (const auto& c : comps)
        parentPath += (parentPath.empty() ? "" : "/") + c;
    Resolved parent = resolve(parentPath);
    if (parent.kind == Resolved::None) return errnoError(ENOENT, "cannot create " + path + ": parent does not exist");
    if (name.find('\n') != std::string::npos)
        return errnoError(EINVAL, "cannot create " + path + ": newline in the name");
    const bool ctrl = parent.kind == Resolved::Root && allocation();
    const bool mon = parent.kind == Resolved::MonGroupsDir && monitoring();
    if (!ctrl && !mon)
        return errnoError(
            EPERM, "cannot create " + path, "control groups go in the root, monitor groups in a mon_groups directory");
    clearStatus();
    auto g = std::make_unique<Group>();
    g->name = name;
    g->ctrl = ctrl;
    g->cpus.assign(m_machine.cpuCount(), false);
    if (ctrl) {
        auto closid = allocClosid();
        if (!closid) {
            setStatus("Out of CLOSIDs");
            return errnoError(ENOSPC, "cannot create " + path + ": Out of CLOSIDs",
                "remove a control group; CLOSID 0 belongs to the root and CDP halves the CLOSIDs");
        }
        g->closid = *closid;
        auto rmid = allocRmid();
        if (!rmid) {
            m_closidUsed[g->closid] = false;
            setStatus("Out of RMIDs");
            return errnoError(rmid.error().code, "cannot create " + path + ": Out of RMIDs",
                rmid.error().code == EBUSY ? "freed RMIDs are in limbo until their occupancy drops (about 1 s)"
                                           : "remove a monitor or control group");
        }
        g->rmid = *rmid;
        Group* raw = g.get();
        m_ctrl[name] = std::move(g);
        if (auto s = initAllocation(*raw); !s) {
            freeRmid(raw->rmid);
            m_closidUsed[raw->closid] = false;
            m_ctrl.erase(name);
            return errnoError(s.error().code, "cannot create " + path + ": " + s.error().message);
        }
        return {};
    }
    Group* parentGroup = parent.group;
    auto rmid = allocRmid();
    if (!rmid) {
        setStatus("Out of RMIDs");
        return errnoError(rmid.error().code, "cannot create " + path + ": Out of RMIDs",
            rmid.error().code == EBUSY ? "freed RMIDs are in limbo until their occupancy drops (about 1 s)"
                                       : "remove a monitor or control group");
    }
    g->rmid = *rmid;
    g->closid = parentGroup->closid;
    g->parent = parentGroup;
    parentGroup->mon[name] = std::move(g);
    return {};
}

Status SimResctrlFs::rmdir(const std::string& path)
{
    std::lock_guard lock(m_machine.mutex());
    if (auto parts = pathComponents(path); !parts) return parts.error();
    Resolved r = resolve(path);
    if (r.kind == Resolved::None) return errnoError(ENOENT, "cannot remove " + path + ": no such directory");
    if (r.kind == Resolved::InfoFile || r.kind == Resolved::GroupFile || r.kind == Resolved::MonFile)
        return errnoError(ENOTDIR, "cannot remove " + path + ": not a directory");
    if (r.kind != Resolved::GroupDir)
        return errnoError(EPERM, "cannot remove " + path, "only control and monitor groups can be removed");
    Group& g = *r.group;
    if (g.ctrl) {
        // Tasks of the group and its MON groups go to the default group; CPUs too.
        for (const auto& t : m_machine.threads())
            if (t.taskClos == g.closid) (void)m_machine.setTaskAssociation(t.tid, 0, 0);
        for (auto& [pid, h] : m_hostTasks)
            if (h.closid == g.closid) h = {};
        for (unsigned c = 0; c < m_machine.cpuCount(); ++c)
            if (g.cpus[c]) m_root.cpus[c] = true;
        for (auto& [n, m] : g.mon)
            freeRmid(m->rmid);
        freeRmid(g.rmid);
        m_closidUsed[g.closid] = false;
        m_ctrl.erase(g.name);
    } else {
        Group* parent = g.parent;
        for (const auto& t : m_machine.threads())
            if (t.taskRmid == g.rmid && t.taskClos == parent->closid)
                (void)m_machine.setTaskAssociation(t.tid, parent->closid, parent->rmid);
        for (auto& [pid, h] : m_hostTasks)
            if (h.rmid == g.rmid && h.closid == parent->closid) h = { parent->closid, parent->rmid };
        freeRmid(g.rmid);
        parent->mon.erase(g.name);
    }
    applyCpuDefaults({});
    return {};
}

} // namespace rdt::sim
