// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrBackend.h"
#include "MsrAssociation.h"
#include "MsrCapabilities.h"
#include "core/Text.h"

#include "GroupNames.h"
#include "MsrBits.h"
#include "Sample.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>

namespace rdt {

namespace {
Error tasksRefused()
{
    return errnoError(EOPNOTSUPP, "the MSR backend cannot move tasks",
        "IA32_PQR_ASSOC is per logical processor (SDM 20.18.6, 20.19.6.6): only the OS scheduler can follow a "
        "task, so assign CPUs (--cpus) or use the resctrl source for PIDs");
}
}

MsrBackend::MsrBackend(std::shared_ptr<MsrSpace> msrs, MsrRdtEnumeration enumeration)
    : m_msrs(std::move(msrs))
    , m_enum(std::move(enumeration))
    , m_topology(m_enum)
    , m_persistence(*m_msrs, m_enum, m_topology, m_table)
    , m_monitor(*m_msrs, m_enum, m_topology, m_table)
    , m_allocation(*m_msrs, m_enum, m_topology, m_table)
{
    MsrGroup root;
    root.path = "";
    for (unsigned c = 0; c < m_msrs->cpuCount(); ++c)
        if (m_topology.online(c)) root.cpus.insert(c);
    m_table.groups.push_back(root);
    for (unsigned r = 1; r <= m_enum.maxRmid; ++r)
        m_table.freeRmids.insert(r);
    m_persistence.adoptHardwareState();
    for (const char* level : { "L3", "L2" }) {
        const bool l3 = level[1] == '3';
        if (!(l3 ? m_enum.l3Cdp : m_enum.l2Cdp)) continue;
        if (auto cfg = m_msrs->read(0, l3 ? msr::IA32_L3_QOS_CFG : msr::IA32_L2_QOS_CFG); cfg && (*cfg & 1))
            (l3 ? m_table.cdpL3 : m_table.cdpL2) = true;
    }
}

Result<std::unique_ptr<MsrBackend>> MsrBackend::open(
    std::shared_ptr<MsrSpace> msrs, MsrRdtEnumeration enumeration, const std::string& resctrlMountedAt)
{
    if (!resctrlMountedAt.empty())
        return errnoError(EBUSY, "resctrl is mounted at " + resctrlMountedAt + ": the kernel owns the RDT MSRs",
            "writing them behind its back corrupts its state; use --source resctrl, or unmount it (umount "
                + resctrlMountedAt + ") before --source msr");
    if (!enumeration.l3Cat && !enumeration.l2Cat && !enumeration.mba && enumeration.maxRmid == 0)
        return errnoError(ENODEV, "CPUID enumerates no RDT monitoring or allocation",
            "CPUID.07H.00H:EBX[12] (RDT-M) and [15] (RDT-A) are 0 on this CPU; use --source sim");
    return std::make_unique<MsrBackend>(std::move(msrs), std::move(enumeration));
}

std::string MsrBackend::describe() const
{
    return "MSRs via " + m_msrs->describe();
}

Result<Capabilities> MsrBackend::capabilities()
{
    std::lock_guard lock(m_mutex);
    return msrCapabilities(m_enum, m_topology, m_table.cdpL3, m_table.cdpL2);
}

Result<std::vector<GroupInfo>> MsrBackend::listGroups()
{
    std::lock_guard lock(m_mutex);
    return m_table.list();
}

std::vector<unsigned> MsrBackend::limboRmids() const
{
    std::lock_guard lock(m_mutex);
    return { m_table.limbo.begin(), m_table.limbo.end() };
}

Result<unsigned> MsrBackend::allocateRmid()
{
    if (m_enum.maxRmid == 0) return 0u; // no monitoring: every group shares RMID 0
    // Limbo (KDOC "max_threshold_occupancy"): a freed RMID returns to the pool once its occupancy in every
    // domain is at or below the threshold, so a new group does not inherit someone else's lines.
    auto caps = capabilities();
    const auto threshold = caps ? caps->monitoring.maxThresholdOccupancy : 0;
    for (auto it = m_table.limbo.begin(); it != m_table.limbo.end();) {
        if (m_monitor.drained(*it, threshold)) {
            m_table.freeRmids.insert(*it);
            it = m_table.limbo.erase(it);
        } else {
            ++it;
        }
    }
    if (m_table.freeRmids.empty()) {
        if (!m_table.limbo.empty())
            return errnoError(EBUSY,
                std::to_string(m_table.limbo.size()) + " RMIDs are in limbo (still occupying cache)",
                "wait until their occupancy drains below the threshold, or remove another group");
        return errnoError(ENOSPC, "Out of RMIDs (" + std::to_string(m_enum.maxRmid + 1) + " in total)",
            "remove an unused group first");
    }
    const unsigned r = *m_table.freeRmids.begin();
    m_table.freeRmids.erase(m_table.freeRmids.begin());
    return r;
}

Status MsrBackend::createControlGroup(const std::string& name)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupName(name); !valid) return valid;
    if (m_table.find(name)) return errnoError(EEXIST, "cannot create group '" + name + "'", "it exists already");
    auto caps = capabilities();
    if (!caps) return caps.error();
    std::set<unsigned> used = m_table.reservedClos;
    for (const auto& g : m_table.groups)
        if (g.isControl) used.insert(g.clos);
    unsigned clos = 1;
    while (used.count(clos))
        ++clos;
    if (clos >= caps->maxControlGroups) {
        std::string reserved;
        for (unsigned n : m_table.reservedClos)
            reserved += (reserved.empty() ? "" : ", ") + std::to_string(n);
        return errnoError(ENOSPC, "Out of CLOSIDs (" + std::to_string(caps->maxControlGroups) + " incl. the default)",
            reserved.empty() ? "remove an unused group first"
                             : "CLOS " + reserved + " hold masks an earlier run or another tool set although no CPU "
                    + "uses them, so they are not handed out; reset them (all 1s) or remove a group");
    }
    auto rmid = allocateRmid();
    if (!rmid) return rmid.error();
    MsrGroup g;
    g.path = name;
    g.clos = clos;
    g.rmid = *rmid;
    // A new CLOS starts unrestricted, as the MSRs do at reset (masks all 1s, delay 0).
    for (const auto& r : caps->resources) {
        Schemata s;
        for (int d : r.domains)
            s.set(r.name, d, r.isCache() ? hexDigits(r.cbmMask) : (r.name == "CBA" ? "0" : "100"));
        m_table.groups.push_back(g);
        auto w = applySchemata(name, s);
        m_table.groups.pop_back();
        if (!w) {
            m_table.releaseRmid(g.rmid);
            return w;
        }
    }
    m_table.groups.push_back(std::move(g));
    m_persistence.persist();
    return {};
}

Status MsrBackend::createMonitorGroup(const std::string& parent, const std::string& name)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupPath(parent); !valid) return valid;
    if (auto valid = checkGroupName(name); !valid) return valid;
    MsrGroup* p = m_table.find(parent);
    if (!p || !p->isControl)
        return errnoError(ENOENT, "no control group '" + parent + "'", "list groups with `groups list`");
    if (m_enum.maxRmid == 0)
        return errnoError(ENODEV, "no RDT monitoring on this CPU", "CPUID.0FH enumerates no RMIDs");
    const auto path = monPath(parent, name);
    if (m_table.find(path))
        return errnoError(EEXIST, "cannot create monitor group '" + path + "'", "it exists already");
    const unsigned clos = p->clos;
    auto rmid = allocateRmid();
    if (!rmid) return rmid.error();
    MsrGroup g;
    g.path = path;
    g.isControl = false;
    g.parent = parent;
    g.clos = clos;
    g.rmid = *rmid;
    m_table.groups.push_back(std::move(g));
    m_persistence.persist();
    return {};
}

Status MsrBackend::removeGroup(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (path.empty()) return errnoError(EPERM, "the default group cannot be removed");
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    MsrGroup* g = m_table.find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    std::set<unsigned> moved = g->cpus;
    std::vector<std::string> doomed { path };
    if (g->isControl)
        for (const auto& o : m_table.groups)
            if (!o.isControl && o.parent == path) {
                doomed.push_back(o.path);
                moved.insert(o.cpus.begin(), o.cpus.end());
            }
    const std::string parent = g->isControl ? std::string {} : g->parent;
    MsrGroupTable::Snapshot saved = m_table.save();
    MsrUndoLog log(*m_msrs);
    for (const auto& d : doomed) {
        auto it = std::find_if(
            m_table.groups.begin(), m_table.groups.end(), [&](const MsrGroup& x) { return x.path == d; });
        m_table.releaseRmid(it->rmid);
        m_table.groups.erase(it);
    }
    // CPUs go back to the parent (resctrl semantics); rewrite their association. A failure puts the groups and
    // every association written so far back: the group still exists, with its CPUs.
    if (MsrGroup* p = m_table.find(parent); p && p->isControl) p->cpus.insert(moved.begin(), moved.end());
    for (unsigned cpu : moved)
        if (auto w = writeAssociation(*m_msrs, log, m_table, cpu); !w)
            return m_table.rollBack(w.error(), log, std::move(saved));
    m_persistence.persist();
    return {};
}

Status MsrBackend::assignTasks(const std::string&, const std::vector<unsigned>&)
{
    return tasksRefused();
}

Result<std::vector<unsigned>> MsrBackend::tasks(const std::string&)
{
    return tasksRefused();
}

Status MsrBackend::assignCpus(const std::string& path, const std::vector<unsigned>& cpuList)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    MsrGroup* g = m_table.find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    for (unsigned c : cpuList)
        if (c >= m_msrs->cpuCount() || !m_topology.online(c))
            return errnoError(EINVAL,
                "CPU " + std::to_string(c) + " does not exist (" + std::to_string(m_msrs->cpuCount()) + " CPUs)",
                "Can only assign online CPUs");
    MsrGroupTable::Snapshot saved = m_table.save();
    MsrUndoLog log(*m_msrs);
    if (!g->isControl) {
        const MsrGroup* p = m_table.find(g->parent);
        for (unsigned c : cpuList)
            if (!p || !p->cpus.count(c))
                return errnoError(EINVAL, "CPU " + std::to_string(c) + " does not belong to '" + g->parent + "'",
                    "Can only add CPUs to mongroup that belong to parent");
        for (auto& o : m_table.groups)
            if (!o.isControl)
                for (unsigned c : cpuList)
                    o.cpus.erase(c);
        g = m_table.find(path);
        g->cpus.insert(cpuList.begin(), cpuList.end());
    } else {
        for (auto& o : m_table.groups)
            for (unsigned c : cpuList)
                o.cpus.erase(c); // a CPU belongs to one control group and at most one monitor group
        g = m_table.find(path);
        g->cpus.insert(cpuList.begin(), cpuList.end());
    }
    // Undo log: a failure on the Nth CPU puts the first N-1 back, and the table with them.
    for (unsigned c : cpuList)
        if (auto w = writeAssociation(*m_msrs, log, m_table, c); !w)
            return m_table.rollBack(w.error(), log, std::move(saved));
    return {};
}

Result<std::vector<unsigned>> MsrBackend::cpus(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    const MsrGroup* g = m_table.find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'");
    return std::vector<unsigned>(g->cpus.begin(), g->cpus.end());
}

std::vector<std::string> MsrBackend::warnings()
{
    std::lock_guard lock(m_mutex);
    auto w = m_persistence.warnings();
    w.push_back("the MSR backend associates CPUs, not tasks (IA32_PQR_ASSOC is per logical processor)");
    return w;
}

} // namespace rdt

namespace rdt {

Status MsrBackend::attachStateFile(const std::string& file)
{
    std::lock_guard lock(m_mutex);
    return m_persistence.attachStateFile(file);
}

Result<Schemata> MsrBackend::readSchemata(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    return m_allocation.readSchemata(path);
}

Status MsrBackend::applySchemata(const std::string& path, const Schemata& change)
{
    std::lock_guard lock(m_mutex);
    return m_allocation.applySchemata(path, change);
}

Status MsrBackend::setCdp(const std::string& level, bool enable)
{
    std::lock_guard lock(m_mutex);
    return m_allocation.setCdp(level, enable);
}

Result<std::uint64_t> MsrBackend::readMonitor(
    int domain, unsigned rmid, std::uint32_t eventId, std::uint32_t* flags, bool* overflow)
{
    std::lock_guard lock(m_mutex); // 20.18.7: the EVTSEL/CTR pair is a critical section
    return m_monitor.read(domain, rmid, eventId, flags, overflow);
}

Result<GroupCounters> MsrBackend::readCounters(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    return m_monitor.readGroup(path);
}

} // namespace rdt
