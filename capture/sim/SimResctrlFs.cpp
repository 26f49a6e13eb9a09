// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation: mount, the file tree, and which part serves each file.
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
    , m_groups(machine, m_options, m_status)
    , m_controls(machine, m_options, m_groups, m_status)
    , m_mbm(machine)
    , m_amd(machine, m_status, m_mbm)
    , m_monitoring(machine, m_mbm, m_amd, m_groups)
    , m_telemetry(machine, m_monitoring)
    , m_info(machine, m_options, m_status, m_controls, m_monitoring, m_amd, m_telemetry)
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
    fs->m_controls.init();

    // Mounting programs the default state: CDP as asked (IA32_L3_QOS_CFG), every control at its default.
    machine.resetRdtState();
    for (unsigned d = 0; d < machine.l3DomainCount(); ++d)
        machine.setL3Cdp(d, options.cdp);
    for (unsigned c = 0; c < machine.coreCount(); ++c)
        machine.setL2Cdp(c, options.cdpl2);
    fs->m_groups.init(fs->m_controls.closidsSupported());
    fs->m_monitoring.init(machine.nowNs());
    for (const auto& t : machine.threads())
        (void)machine.setTaskAssociation(t.tid, 0, 0);
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

// ---------------------------------------------------------------------------------------------------------------
// The tree

std::vector<std::string> SimResctrlFs::groupFiles(const ResctrlGroup& g) const
{
    std::vector<std::string> files { "cpus", "cpus_list", "tasks" };
    if (g.ctrl && m_controls.allocation()) {
        files.push_back("mode");
        files.push_back("schemata");
        files.push_back("size");
    }
    if (m_amd.counterMode()) files.push_back("mbm_L3_assignments");
    return files;
}

ResctrlPath SimResctrlFs::resolve(const std::string& path)
{
    ResctrlPath r;
    auto parts = pathComponents(path);
    if (!parts) return r; // refused paths name nothing
    const auto& c = *parts;
    if (c.empty()) {
        r.kind = ResctrlPath::Root;
        r.group = &m_groups.root();
        return r;
    }
    if (c[0] == "info") {
        if (c.size() == 1) {
            r.kind = ResctrlPath::InfoDir;
            return r;
        }
        if (c.size() == 2 && c[1] == "last_cmd_status") {
            r.kind = ResctrlPath::InfoFile;
            r.file = c[1];
            return r;
        }
        auto dirs = m_info.dirs();
        if (std::find(dirs.begin(), dirs.end(), c[1]) == dirs.end()) return r;
        r.info = c[1];
        if (c.size() == 2) {
            r.kind = ResctrlPath::InfoDir;
            return r;
        }
        // info/L3_MON/event_configs/<event>/event_filter: the one deeper info tree (mbm_event mode).
        std::string dir = c[1];
        std::size_t at = 2;
        for (; at + 1 < c.size(); ++at) {
            auto sub = m_info.files(dir);
            if (std::find(sub.begin(), sub.end(), c[at]) == sub.end() || m_info.files(dir + "/" + c[at]).empty())
                return r;
            dir += "/" + c[at];
        }
        auto files = m_info.files(dir);
        if (std::find(files.begin(), files.end(), c[at]) == files.end()) return r;
        r.info = dir;
        if (!m_info.files(dir + "/" + c[at]).empty()) {
            r.kind = ResctrlPath::InfoDir;
            r.info = dir + "/" + c[at];
        } else {
            r.kind = ResctrlPath::InfoFile;
            r.file = c[at];
        }
        return r;
    }
    ResctrlGroup* g = &m_groups.root();
    std::size_t i = 0;
    if (auto it = m_groups.controlGroups().find(c[0]); it != m_groups.controlGroups().end()) {
        g = it->second.get();
        i = 1;
    }
    if (i < c.size() && c[i] == "mon_groups" && m_monitoring.present()) {
        if (i + 1 == c.size()) {
            r.kind = ResctrlPath::MonGroupsDir;
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
        r.kind = g == &m_groups.root() ? ResctrlPath::Root : ResctrlPath::GroupDir;
        return r;
    }
    if (c[i] == "mon_data" && m_monitoring.present()) {
        if (i + 1 == c.size()) {
            r.kind = ResctrlPath::MonDataDir;
            return r;
        }
        unsigned dom = 0;
        if (m_telemetry.resolve(c, i + 1, r)) return r;
        if (std::sscanf(c[i + 1].c_str(), "mon_L3_%02u", &dom) != 1 || dom >= m_machine.l3DomainCount()
            || c[i + 1] != "mon_L3_" + std::string(dom < 10 ? "0" : "") + std::to_string(dom))
            return r;
        r.domain = static_cast<int>(dom);
        if (i + 2 < c.size() && m_monitoring.sncNodes() > 1 && c[i + 2].rfind("mon_sub_L3_", 0) == 0) {
            for (unsigned n = 0; n < m_monitoring.sncNodes(); ++n)
                if (c[i + 2] == m_monitoring.subDomainName(dom, n)) r.node = static_cast<int>(n);
            if (r.node < 0) return {};
            ++i; // the events below the node's directory, as below the domain's
        }
        if (i + 2 == c.size()) {
            r.kind = ResctrlPath::MonDomainDir;
            return r;
        }
        if (i + 3 == c.size()) {
            const MonCaps& m = m_machine.features().mon;
            const bool has[] = { m.occupancy, m.mbmTotal, m.mbmLocal };
            for (int e = 0; e < 3; ++e)
                if (has[e] && c[i + 2] == kL3MonEvents[e]) {
                    r.kind = ResctrlPath::MonFile;
                    r.file = c[i + 2];
                }
        }
        return r;
    }
    if (i + 1 == c.size()) {
        auto files = groupFiles(*g);
        if (std::find(files.begin(), files.end(), c[i]) != files.end()) {
            r.kind = ResctrlPath::GroupFile;
            r.file = c[i];
        }
    }
    return r;
}

bool SimResctrlFs::exists(const std::string& path)
{
    std::lock_guard lock(m_machine.mutex());
    return resolve(path).kind != ResctrlPath::None;
}

bool SimResctrlFs::isDirectory(const std::string& path)
{
    std::lock_guard lock(m_machine.mutex());
    auto k = resolve(path).kind;
    return k == ResctrlPath::Root || k == ResctrlPath::InfoDir || k == ResctrlPath::GroupDir
        || k == ResctrlPath::MonGroupsDir || k == ResctrlPath::MonDataDir || k == ResctrlPath::MonDomainDir;
}

Result<std::vector<std::string>> SimResctrlFs::list(const std::string& path)
{
    std::lock_guard lock(m_machine.mutex());
    if (auto parts = pathComponents(path); !parts) return parts.error();
    ResctrlPath r = resolve(path);
    std::vector<std::string> out;
    switch (r.kind) {
    case ResctrlPath::None:
        return errnoError(ENOENT, "no such directory: " + path);
    case ResctrlPath::InfoFile:
    case ResctrlPath::GroupFile:
    case ResctrlPath::MonFile:
        return errnoError(ENOTDIR, "not a directory: " + path);
    case ResctrlPath::InfoDir:
        if (r.info.empty()) {
            out = m_info.dirs();
            out.push_back("last_cmd_status");
        } else {
            out = m_info.files(r.info);
        }
        break;
    case ResctrlPath::Root:
    case ResctrlPath::GroupDir:
        out = groupFiles(*r.group);
        if (m_monitoring.present()) {
            out.push_back("mon_data");
            if (r.group->ctrl) out.push_back("mon_groups");
        }
        if (r.kind == ResctrlPath::Root) {
            out.push_back("info");
            for (const auto& [name, g] : m_groups.controlGroups())
                out.push_back(name);
        }
        break;
    case ResctrlPath::MonGroupsDir:
        for (const auto& [name, g] : r.group->mon)
            out.push_back(name);
        break;
    case ResctrlPath::MonDataDir:
        for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
            out.push_back(std::string("mon_L3_") + (d < 10 ? "0" : "") + std::to_string(d));
        for (unsigned p = 0; m_telemetry.enabled() && p < m_machine.options().topology.sockets; ++p)
            out.push_back(SimResctrlTelemetry::packageDirName(p));
        break;
    case ResctrlPath::MonDomainDir: {
        if (r.package) {
            out = SimResctrlTelemetry::events();
            break;
        }
        const MonCaps& m = m_machine.features().mon;
        const bool has[] = { m.occupancy, m.mbmTotal, m.mbmLocal };
        for (int e = 0; e < 3; ++e)
            if (has[e]) out.push_back(kL3MonEvents[e]);
        for (unsigned n = 0; r.node < 0 && m_monitoring.sncNodes() > 1 && n < m_monitoring.sncNodes(); ++n)
            out.push_back(m_monitoring.subDomainName(static_cast<unsigned>(r.domain), n));
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
    ResctrlPath r = resolve(path);
    switch (r.kind) {
    case ResctrlPath::None:
        return errnoError(ENOENT, "cannot read " + path + ": no such file");
    case ResctrlPath::InfoFile:
        return m_info.read(r.info, r.file);
    case ResctrlPath::GroupFile:
        return readGroupFile(*r.group, r.file);
    case ResctrlPath::MonFile:
        if (r.package) return m_telemetry.read(*r.group, static_cast<unsigned>(r.domain), r.file);
        return m_monitoring.readMon(*r.group, r.domain, r.node, r.file);
    default:
        return errnoError(EISDIR, "cannot read " + path + ": is a directory");
    }
}

Result<std::string> SimResctrlFs::readGroupFile(ResctrlGroup& g, const std::string& file)
{
    if (file == "cpus") return formatCpuMask(g.cpus) + "\n";
    if (file == "cpus_list") return formatCpuList(g.cpus) + "\n";
    if (file == "tasks") return m_groups.readTasks(g);
    if (file == "mode") return g.mode + "\n";
    if (file == "schemata") return m_controls.formatSchemata(g, false);
    if (file == "size") return m_controls.formatSchemata(g, true);
    if (file == "mbm_L3_assignments") return m_amd.readAssignments(g);
    return errnoError(ENOENT, "no such file " + file);
}

void SimResctrlFs::onTick(std::uint64_t nowNs)
{
    m_monitoring.pollIfDue(nowNs);
    m_telemetry.accumulate(nowNs);
    m_monitoring.checkLimboIfDue(nowNs);
}

// ---------------------------------------------------------------------------------------------------------------
// Writes, mkdir, rmdir

Status SimResctrlFs::write(const std::string& path, const std::string& data)
{
    std::lock_guard lock(m_machine.mutex());
    if (auto parts = pathComponents(path); !parts) return parts.error();
    ResctrlPath r = resolve(path);
    switch (r.kind) {
    case ResctrlPath::None:
        return errnoError(ENOENT, "cannot write " + path + ": no such file");
    case ResctrlPath::InfoFile:
        return m_info.write(path, r.info, r.file, data);
    case ResctrlPath::GroupFile:
        if (r.file == "tasks") return m_groups.writeTasks(*r.group, data);
        if (r.file == "cpus" || r.file == "cpus_list") return m_groups.writeCpus(*r.group, data, r.file == "cpus_list");
        if (r.file == "schemata") return m_controls.writeSchemata(*r.group, data);
        if (r.file == "mode") return m_controls.writeMode(*r.group, data);
        if (r.file == "mbm_L3_assignments") return m_amd.writeAssignments(*r.group, data);
        return errnoError(EACCES, "cannot write " + path + ": read-only file");
    case ResctrlPath::MonFile:
        return errnoError(EACCES, "cannot write " + path + ": read-only file");
    default:
        return errnoError(EISDIR, "cannot write " + path + ": is a directory");
    }
}

Status SimResctrlFs::mkdir(const std::string& path)
{
    std::lock_guard lock(m_machine.mutex());
    auto parts = pathComponents(path);
    if (!parts) return parts.error();
    auto comps = std::move(*parts);
    if (comps.empty() || resolve(path).kind != ResctrlPath::None)
        return errnoError(EEXIST, "cannot create " + path + ": exists");
    const std::string name = comps.back();
    comps.pop_back();
    std::string parentPath;
    for (const auto& c : comps)
        parentPath += (parentPath.empty() ? "" : "/") + c;
    ResctrlPath parent = resolve(parentPath);
    if (parent.kind == ResctrlPath::None)
        return errnoError(ENOENT, "cannot create " + path + ": parent does not exist");
    if (name.find('\n') != std::string::npos)
        return errnoError(EINVAL, "cannot create " + path + ": newline in the name");
    const bool ctrl = parent.kind == ResctrlPath::Root && m_controls.allocation();
    const bool mon = parent.kind == ResctrlPath::MonGroupsDir && m_monitoring.present();
    if (!ctrl && !mon)
        return errnoError(
            EPERM, "cannot create " + path, "control groups go in the root, monitor groups in a mon_groups directory");
    m_status.clear();
    auto g = std::make_unique<ResctrlGroup>();
    g->name = name;
    g->ctrl = ctrl;
    g->cpus.assign(m_machine.cpuCount(), false);
    if (ctrl) {
        auto closid = m_groups.allocClosid();
        if (!closid) {
            m_status.set("Out of CLOSIDs");
            return errnoError(ENOSPC, "cannot create " + path + ": Out of CLOSIDs",
                "remove a control group; CLOSID 0 belongs to the root and CDP halves the CLOSIDs");
        }
        g->closid = *closid;
        auto rmid = m_monitoring.allocRmid();
        if (!rmid) {
            m_groups.freeClosid(g->closid);
            m_status.set("Out of RMIDs");
            return errnoError(rmid.error().code, "cannot create " + path + ": Out of RMIDs",
                rmid.error().code == EBUSY ? "freed RMIDs are in limbo until their occupancy drops (about 1 s)"
                                           : "remove a monitor or control group");
        }
        g->rmid = *rmid;
        ResctrlGroup* raw = g.get();
        m_groups.controlGroups()[name] = std::move(g);
        if (auto s = m_controls.initAllocation(*raw); !s) {
            m_monitoring.freeRmid(raw->rmid);
            m_groups.freeClosid(raw->closid);
            m_groups.controlGroups().erase(name);
            return errnoError(s.error().code, "cannot create " + path + ": " + s.error().message);
        }
        return {};
    }
    ResctrlGroup* parentGroup = parent.group;
    auto rmid = m_monitoring.allocRmid();
    if (!rmid) {
        m_status.set("Out of RMIDs");
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
    ResctrlPath r = resolve(path);
    if (r.kind == ResctrlPath::None) return errnoError(ENOENT, "cannot remove " + path + ": no such directory");
    if (r.kind == ResctrlPath::InfoFile || r.kind == ResctrlPath::GroupFile || r.kind == ResctrlPath::MonFile)
        return errnoError(ENOTDIR, "cannot remove " + path + ": not a directory");
    if (r.kind != ResctrlPath::GroupDir)
        return errnoError(EPERM, "cannot remove " + path, "only control and monitor groups can be removed");
    ResctrlGroup& g = *r.group;
    m_groups.moveMembersOut(g);
    if (g.ctrl) {
        for (auto& [n, m] : g.mon)
            m_monitoring.freeRmid(m->rmid);
        m_monitoring.freeRmid(g.rmid);
        m_groups.freeClosid(g.closid);
        m_groups.controlGroups().erase(g.name);
    } else {
        m_monitoring.freeRmid(g.rmid);
        g.parent->mon.erase(g.name);
    }
    m_groups.applyCpuDefaults();
    return {};
}

} // namespace rdt::sim
