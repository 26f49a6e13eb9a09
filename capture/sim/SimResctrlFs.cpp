// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation: mount, the file tree, groups, tasks, cpus and monitoring.
// Kernel behaviour follows fs/resctrl/rdtgroup.c and monitor.c as summarised in docs/RESCTRL.md.
#include "SimResctrlFs.h"

#include "PathComponents.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <sstream>

namespace rdt::sim {
// ---------------------------------------------------------------------------------------------------------------
// Mount / unmount

SimResctrlFs::SimResctrlFs(SimMachine& machine, ResctrlMountOptions options)
    : m_machine(machine)
    , m_options(options)
{ }

Result<std::unique_ptr<SimResctrlFs>> SimResctrlFs::mount(SimMachine& machine, ResctrlMountOptions options)
{
    std::lock_guard lock(machine.mutex());
    const SimFeatures& f = machine.features();
    if (!f.mon.present && !f.allocation())
        return errnoError(ENODEV, "cannot mount resctrl on the simulated " + machine.cpuid().name,
            "the processor enumerates neither RDT monitoring nor allocation; pick another preset");
    if (options.cdp && !f.l3Cat.cdp)
        return errnoError(EINVAL, "mount -o cdp: the simulated processor has no L3 CDP (CPUID.10H.1:ECX[2]=0)",
            "mount without cdp or pick a preset with CDP (bdw-6850k)");
    if (options.cdpl2 && !f.l2Cat.cdp)
        return errnoError(EINVAL, "mount -o cdpl2: the simulated processor has no L2 CDP (CPUID.10H.2:ECX[2]=0)",
            "mount without cdpl2");
    std::unique_ptr<SimResctrlFs> fs(new SimResctrlFs(machine, options));
    // Schema order as schemata_list_create builds it: L3 (CODE before DATA), L2, MB.
    auto addCache = [&](const CatCaps& cat, SchemaKind kind, bool cdp, const char* base) {
        if (!cat.present) return;
        if (cdp) {
            fs->m_schemas.push_back({ std::string(base) + "CODE", kind, CdpType::Code, cat.numClos / 2 });
            fs->m_schemas.push_back({ std::string(base) + "DATA", kind, CdpType::Data, cat.numClos / 2 });
        } else {
            fs->m_schemas.push_back({ base, kind, CdpType::None, cat.numClos });
        }
    };
    addCache(f.l3Cat, SchemaKind::L3, options.cdp, "L3");
    addCache(f.l2Cat, SchemaKind::L2, options.cdpl2, "L2");
    if (f.mba.present) fs->m_schemas.push_back({ "MB", SchemaKind::MB, CdpType::None, f.mba.numClos });

    // Mounting programs the default state: CDP as asked (IA32_L3_QOS_CFG), every control at its default.
    machine.resetRdtState();
    for (unsigned d = 0; d < machine.l3DomainCount(); ++d)
        machine.setL3Cdp(d, options.cdp);
    for (unsigned c = 0; c < machine.coreCount(); ++c)
        machine.setL2Cdp(c, options.cdpl2);
    fs->m_root.name = "";
    fs->m_root.cpus.assign(machine.cpuCount(), true);
    fs->m_closidUsed.assign(std::max<std::uint32_t>(1, fs->closidsSupported()), false);
    fs->m_closidUsed[0] = true;
    if (f.mon.present) {
        for (std::uint32_t r = 1; r < fs->rmidsPerNode(); ++r) // SNC divides the RMIDs among the nodes
            fs->m_freeRmids.push_back(r);
        // resctrl_rmid_realloc_threshold: cache size / num_rmids, rounded down to the counter unit (per node).
        std::uint64_t t = f.l3.sizeBytes() / fs->sncNodes() / fs->rmidsPerNode();
        fs->m_threshold = t / f.mon.scale * f.mon.scale;
        fs->resetMbmState(0);
        fs->initAmdMonitoring();
    }
    for (const auto& t : machine.threads())
        (void)machine.setTaskAssociation(t.tid, 0, 0);
    fs->m_lastPollNs = fs->m_lastLimboNs = machine.nowNs();
    SimResctrlFs* self = fs.get();
    fs->m_listener = machine.addTickListener([self](std::uint64_t now) { self->onTick(now); });
    return fs;
}

SimResctrlFs::~SimResctrlFs()
{
    std::lock_guard lock(m_machine.mutex());
    m_machine.removeTickListener(m_listener);
    // rdt_kill_sb: all controls back to defaults, CDP off, every task and CPU back in the default group.
    for (const auto& t : m_machine.threads())
        (void)m_machine.setTaskAssociation(t.tid, 0, 0);
    m_machine.resetRdtState();
}

std::string SimResctrlFs::describe() const
{
    return "simulated resctrl (" + m_machine.cpuid().name + ")";
}

std::uint32_t SimResctrlFs::closidsSupported() const
{
    std::uint32_t n = 0;
    for (const auto& s : m_schemas)
        n = n == 0 ? s.numClosid : std::min(n, s.numClosid);
    return n;
}

// ---------------------------------------------------------------------------------------------------------------
// The tree

std::vector<std::string> SimResctrlFs::groupFiles(const Group& g) const
{
    std::vector<std::string> files { "cpus", "cpus_list", "tasks" };
    if (g.ctrl && allocation()) {
        files.push_back("mode");
        files.push_back("schemata");
        files.push_back("size");
    }
    if (counterMode()) files.push_back("mbm_L3_assignments");
    return files;
}

SimResctrlFs::Resolved SimResctrlFs::resolve(const std::string& path)
{
    Resolved r;
    auto parts = pathComponents(path);
    if (!parts) return r; // refused paths name nothing
    const auto& c = *parts;
    if (c.empty()) {
        r.kind = Resolved::Root;
        r.group = &m_root;
        return r;
    }
    if (c[0] == "info") {
        if (c.size() == 1) {
            r.kind = Resolved::InfoDir;
            return r;
        }
        if (c.size() == 2 && c[1] == "last_cmd_status") {
            r.kind = Resolved::InfoFile;
            r.file = c[1];
            return r;
        }
        auto dirs = infoDirs();
        if (std::find(dirs.begin(), dirs.end(), c[1]) == dirs.end()) return r;
        r.info = c[1];
        if (c.size() == 2) {
            r.kind = Resolved::InfoDir;
            return r;
        }
        // info/L3_MON/event_configs/<event>/event_filter: the one deeper info tree (mbm_event mode).
        std::string dir = c[1];
        std::size_t at = 2;
        for (; at + 1 < c.size(); ++at) {
            auto sub = infoFiles(dir);
            if (std::find(sub.begin(), sub.end(), c[at]) == sub.end() || infoFiles(dir + "/" + c[at]).empty()) return r;
            dir += "/" + c[at];
        }
        auto files = infoFiles(dir);
        if (std::find(files.begin(), files.end(), c[at]) == files.end()) return r;
        r.info = dir;
        if (!infoFiles(dir + "/" + c[at]).empty()) {
            r.kind = Resolved::InfoDir;
            r.info = dir + "/" + c[at];
        } else {
            r.kind = Resolved::InfoFile;
            r.file = c[at];
        }
        return r;
    }
    Group* g = &m_root;
    std::size_t i = 0;
    if (auto it = m_ctrl.find(c[0]); it != m_ctrl.end()) {
        g = it->second.get();
        i = 1;
    }
    if (i < c.size() && c[i] == "mon_groups" && monitoring()) {
        if (i + 1 == c.size()) {
            r.kind = Resolved::MonGroupsDir;
            r.group = g;
            return r;
        }
        auto it = g->mon.find(c[i + 1]);
        if (it == g->mon.end()) return r;
        g = it->second.get();
        i += 2;
    }
    r.group = g;
    if (i == c.size()) {
        r.kind = g == &m_root ? Resolved::Root : Resolved::GroupDir;
        return r;
    }
    if (c[i] == "mon_data" && monitoring()) {
        if (i + 1 == c.size()) {
            r.kind = Resolved::MonDataDir;
            return r;
        }
        unsigned dom = 0;
        if (resolveTelemetry(c, i + 1, r)) return r;
        if (std::sscanf(c[i + 1].c_str(), "mon_L3_%02u", &dom) != 1 || dom >= m_machine.l3DomainCount()
            || c[i + 1] != "mon_L3_" + std::string(dom < 10 ? "0" : "") + std::to_string(dom))
            return r;
        r.domain = static_cast<int>(dom);
        if (i + 2 < c.size() && sncNodes() > 1 && c[i + 2].rfind("mon_sub_L3_", 0) == 0) {
            for (unsigned n = 0; n < sncNodes(); ++n)
                if (c[i + 2] == subDomainName(dom, n)) r.node = static_cast<int>(n);
            if (r.node < 0) return {};
            ++i; // the events below the node's directory, as below the domain's
        }
        if (i + 2 == c.size()) {
            r.kind = Resolved::MonDomainDir;
            return r;
        }
        if (i + 3 == c.size()) {
            const MonCaps& m = m_machine.features().mon;
            const bool has[] = { m.occupancy, m.mbmTotal, m.mbmLocal };
            for (int e = 0; e < 3; ++e)
                if (has[e] && c[i + 2] == kL3MonEvents[e]) {
                    r.kind = Resolved::MonFile;
                    r.file = c[i + 2];
                }
        }
        return r;
    }
    if (i + 1 == c.size()) {
        auto files = groupFiles(*g);
        if (std::find(files.begin(), files.end(), c[i]) != files.end()) {
            r.kind = Resolved::GroupFile;
            r.file = c[i];
        }
    }
    return r;
}

bool SimResctrlFs::exists(const std::string& path)
{
    std::lock_guard lock(m_machine.mutex());
    return resolve(path).kind != Resolved::None;
}

bool SimResctrlFs::isDirectory(const std::string& path)
{
    std::lock_guard lock(m_machine.mutex());
    auto k = resolve(path).kind;
    return k == Resolved::Root || k == Resolved::InfoDir || k == Resolved::GroupDir || k == Resolved::MonGroupsDir
        || k == Resolved::MonDataDir || k == Resolved::MonDomainDir;
}

Result<std::vector<std::string>> SimResctrlFs::list(const std::string& path)
{
    std::lock_guard lock(m_machine.mutex());
    if (auto parts = pathComponents(path); !parts) return parts.error();
    Resolved r = resolve(path);
    std::vector<std::string> out;
    switch (r.kind) {
    case Resolved::None:
        return errnoError(ENOENT, "no such directory: " + path);
    case Resolved::InfoFile:
    case Resolved::GroupFile:
    case Resolved::MonFile:
        return errnoError(ENOTDIR, "not a directory: " + path);
    case Resolved::InfoDir:
        if (r.info.empty()) {
            out = infoDirs();
            out.push_back("last_cmd_status");
        } else {
            out = infoFiles(r.info);
        }
        break;
    case Resolved::Root:
    case Resolved::GroupDir:
        out = groupFiles(*r.group);
        if (monitoring()) {
            out.push_back("mon_data");
            if (r.group->ctrl) out.push_back("mon_groups");
        }
        if (r.kind == Resolved::Root) {
            out.push_back("info");
            for (const auto& [name, g] : m_ctrl)
                out.push_back(name);
        }
        break;
    case Resolved::MonGroupsDir:
        for (const auto& [name, g] : r.group->mon)
            out.push_back(name);
        break;
    case Resolved::MonDataDir:
        for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
            out.push_back(std::string("mon_L3_") + (d < 10 ? "0" : "") + std::to_string(d));
        for (unsigned p = 0; telemetry() && p < m_machine.options().topology.sockets; ++p)
            out.push_back(packageDirName(p));
        break;
    case Resolved::MonDomainDir: {
        if (r.package) {
            out = telemetryEvents();
            break;
        }
        const MonCaps& m = m_machine.features().mon;
        const bool has[] = { m.occupancy, m.mbmTotal, m.mbmLocal };
        for (int e = 0; e < 3; ++e)
            if (has[e]) out.push_back(kL3MonEvents[e]);
        for (unsigned n = 0; r.node < 0 && sncNodes() > 1 && n < sncNodes(); ++n)
            out.push_back(subDomainName(static_cast<unsigned>(r.domain), n));
        break;
    }
    }
    std::sort(out.begin(), out.end());
    return out;
}

Result<UniqueFd> SimResctrlFs::openForPolling(const std::string& path)
{
    return errnoError(ENOTSUP, "the simulated kernel has no file descriptors for " + path, "read it with read()");
}

bool SimResctrlFs::taskExists(unsigned pid)
{
    std::lock_guard lock(m_machine.mutex());
    if (pid == 0 || pid > INT32_MAX) return false;
    if (m_machine.thread(static_cast<int>(pid))) return true;
    return m_options.hostTaskExists && m_options.hostTaskExists(pid);
}

void SimResctrlFs::pruneHostTasks()
{
    for (auto it = m_hostTasks.begin(); it != m_hostTasks.end();)
        it = m_options.hostTaskExists && m_options.hostTaskExists(it->first) ? std::next(it) : m_hostTasks.erase(it);
}

Status SimResctrlFs::lock(bool)
{
    std::lock_guard lock(m_machine.mutex());
    ++m_locks; // advisory, and there is no other application in the simulated machine
    return {};
}

void SimResctrlFs::unlock()
{
    std::lock_guard lock(m_machine.mutex());
    if (m_locks > 0) --m_locks;
}

// ---------------------------------------------------------------------------------------------------------------
// Reads

Result<std::string> SimResctrlFs::read(const std::string& path)
{
    if (auto parts = pathComponents(path); !parts) return parts.error();
    std::lock_guard lock(m_machine.mutex());
    Resolved r = resolve(path);
    switch (r.kind) {
    case Resolved::None:
        return errnoError(ENOENT, "cannot read " + path + ": no such file");
    case Resolved::InfoFile:
        return readInfo(r.info, r.file);
    case Resolved::GroupFile:
        return readGroupFile(*r.group, r.file);
    case Resolved::MonFile:
        if (r.package) return readTelemetry(*r.group, static_cast<unsigned>(r.domain), r.file);
        return readMon(*r.group, r.domain, r.node, r.file);
    default:
        return errnoError(EISDIR, "cannot read " + path + ": is a directory");
    }
}

Result<std::string> SimResctrlFs::readGroupFile(Group& g, const std::string& file)
{
    if (file == "cpus") return formatCpuMask(g.cpus) + "\n";
    if (file == "cpus_list") return formatCpuList(g.cpus) + "\n";
    if (file == "tasks") {
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
    if (file == "mode") return g.mode + "\n";
    if (file == "schemata") return formatSchemata(g, false);
    if (file == "size") return formatSchemata(g, true);
    if (file == "mbm_L3_assignments") return readAssignments(g);
    return errnoError(ENOENT, "no such file " + file);
}

std::vector<SimResctrlFs::Group*> SimResctrlFs::allGroups()
{
    std::vector<Group*> out { &m_root };
    for (auto& [n, g] : m_root.mon)
        out.push_back(g.get());
    for (auto& [n, g] : m_ctrl) {
        out.push_back(g.get());
        for (auto& [mn, m] : g->mon)
            out.push_back(m.get());
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// IDs

Result<std::uint32_t> SimResctrlFs::allocClosid()
{
    for (std::uint32_t c = 1; c < m_closidUsed.size(); ++c)
        if (!m_closidUsed[c]) {
            m_closidUsed[c] = true;
            return c;
        }
    return errnoError(ENOSPC, "Out of CLOSIDs");
}

Result<std::uint32_t> SimResctrlFs::allocRmid()
{
    if (!monitoring()) return 0u;
    if (m_freeRmids.empty()) // resctrl_find_free_rmid: limbo RMIDs may come back, so EBUSY rather than ENOSPC
        return errnoError(m_limbo.empty() ? ENOSPC : EBUSY, "Out of RMIDs");
    std::uint32_t r = m_freeRmids.front();
    m_freeRmids.pop_front();
    resetMbmState(r);
    if (m_assignOnMkdir) assignCounters(r); // mbm_assign_on_mkdir
    return r;
}

void SimResctrlFs::freeRmid(std::uint32_t rmid)
{
    if (!monitoring() || rmid == 0) return;
    releaseCounters(rmid);
    // Lines tagged with the RMID stay in the cache: it waits in limbo until occupancy drops below the threshold.
    m_limbo.push_back(rmid);
}

} // namespace rdt::sim
