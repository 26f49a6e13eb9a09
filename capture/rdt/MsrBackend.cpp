// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrBackend.h"
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
{
    Group root;
    root.path = "";
    for (unsigned c = 0; c < m_msrs->cpuCount(); ++c)
        if (online(c)) root.cpus.insert(c);
    m_groups.push_back(root);
    for (unsigned r = 1; r <= m_enum.maxRmid; ++r)
        m_freeRmids.insert(r);
    adoptHardwareState();
    for (const char* level : { "L3", "L2" }) {
        const bool l3 = level[1] == '3';
        if (!(l3 ? m_enum.l3Cdp : m_enum.l2Cdp)) continue;
        if (auto cfg = m_msrs->read(0, l3 ? msr::IA32_L3_QOS_CFG : msr::IA32_L2_QOS_CFG); cfg && (*cfg & 1))
            (l3 ? m_cdpL3 : m_cdpL2) = true;
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

bool MsrBackend::online(unsigned cpu) const
{
    return cpu >= m_enum.l3IdOfCpu.size() || m_enum.l3IdOfCpu[cpu] >= 0;
}

std::vector<int> MsrBackend::domainsOf(const std::vector<int>& idOfCpu) const
{
    std::vector<int> ids;
    for (int id : idOfCpu)
        if (id >= 0) ids.push_back(id); // -1: an offline CPU
    if (ids.empty()) ids.push_back(0);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

unsigned MsrBackend::cpuOfDomain(int domain, bool l2) const
{
    const auto& ids = l2 ? m_enum.l2IdOfCpu : m_enum.l3IdOfCpu;
    for (std::size_t c = 0; c < ids.size(); ++c)
        if (ids[c] == domain) return static_cast<unsigned>(c);
    return 0;
}

Result<Capabilities> MsrBackend::capabilities()
{
    std::lock_guard lock(m_mutex);
    Capabilities caps;
    caps.handlesTasks = false;
    caps.cdpL3 = m_cdpL3;
    caps.cdpL2 = m_cdpL2;
    unsigned minClos = UINT32_MAX;
    auto addCache = [&](const std::string& base, bool present, unsigned len, std::uint64_t shareable, bool sparse,
                        unsigned maxClos, bool cdp, bool l2) {
        if (!present) return;
        const unsigned clos = cdp ? (maxClos >> 1) + 1 : maxClos + 1; // 20.19.5: CLOS_MAX_CDP = CAT_MAX_CLOS >> 1
        minClos = std::min(minClos, clos);
        for (const std::string& suffix :
            cdp ? std::vector<std::string> { "CODE", "DATA" } : std::vector<std::string> { "" }) {
            ResourceCaps r;
            r.name = base + suffix;
            r.kind = ResourceKind::Cache;
            r.numClosids = clos;
            r.cbmMask = fullMask(len);
            r.cbmBits = len;
            r.minCbmBits = 1;
            r.shareableBits = shareable;
            r.sparseMasks = sparse;
            r.bytesPerBit = l2 ? 0 : m_enum.l3BytesPerBit;
            r.domains = domainsOf(l2 ? m_enum.l2IdOfCpu : m_enum.l3IdOfCpu);
            caps.resources.push_back(std::move(r));
        }
    };
    addCache(
        "L3", m_enum.l3Cat, m_enum.l3CbmLength, m_enum.l3Shareable, m_enum.l3Sparse, m_enum.l3MaxClos, m_cdpL3, false);
    addCache(
        "L2", m_enum.l2Cat, m_enum.l2CbmLength, m_enum.l2Shareable, m_enum.l2Sparse, m_enum.l2MaxClos, m_cdpL2, true);
    if (m_enum.mba) {
        ResourceCaps r;
        r.name = "MB";
        r.kind = ResourceKind::Bandwidth;
        r.numClosids = m_enum.mbaMaxClos + 1;
        r.setIntelMbaBounds(m_enum.mbaMaxDelay, m_enum.mbaLinear);
        r.throttleMode = "max";
        r.domains = domainsOf(m_enum.l3IdOfCpu);
        minClos = std::min(minClos, r.numClosids);
        caps.resources.push_back(std::move(r));
    }
    if (m_enum.cba) {
        ResourceCaps r;
        r.name = "CBA"; // not a resctrl resource: values are throttle levels 0..max (20.19.8.3)
        r.kind = ResourceKind::Bandwidth;
        r.numClosids = m_enum.cbaMaxClos + 1;
        r.minBandwidth = 0;
        r.bandwidthGran = 1;
        r.maxBandwidth = m_enum.cbaMaxLevel;
        r.bandwidthUnit = BandwidthUnit::ThrottleLevel;
        r.domains = domainsOf(m_enum.l3IdOfCpu);
        caps.resources.push_back(std::move(r));
    }
    caps.maxControlGroups = minClos == UINT32_MAX ? 1 : minClos;
    auto& m = caps.monitoring;
    m.present = m_enum.maxRmid > 0 && (m_enum.llcOccupancy || m_enum.mbmTotal || m_enum.mbmLocal);
    m.numRmids = m_enum.maxRmid + 1;
    m.llcOccupancy = m_enum.llcOccupancy;
    m.mbmTotal = m_enum.mbmTotal;
    m.mbmLocal = m_enum.mbmLocal;
    if (m.llcOccupancy) m.features.push_back("llc_occupancy");
    if (m.mbmTotal) m.features.push_back("mbm_total_bytes");
    if (m.mbmLocal) m.features.push_back("mbm_local_bytes");
    m.domains = domainsOf(m_enum.l3IdOfCpu);
    m.counterWidth = m_enum.mbmWidth;
    m.overflowBit = m_enum.overflowBit;
    // The kernel's reuse threshold: L3 size / number of RMIDs (resctrl_rmid_realloc_threshold).
    const auto l3Bytes = m_enum.l3BytesPerBit * m_enum.l3CbmLength;
    m.maxThresholdOccupancy = l3Bytes / (m_enum.maxRmid + 1);
    return caps;
}

MsrBackend::Group* MsrBackend::find(const std::string& path)
{
    for (auto& g : m_groups)
        if (g.path == path) return &g;
    return nullptr;
}

Result<std::vector<GroupInfo>> MsrBackend::listGroups()
{
    std::lock_guard lock(m_mutex);
    std::vector<GroupInfo> out;
    for (const auto& g : m_groups) {
        GroupInfo i;
        i.path = g.path;
        const auto slash = g.path.rfind('/');
        i.name = slash == std::string::npos ? g.path : g.path.substr(slash + 1);
        i.isControl = g.isControl;
        i.parent = g.parent;
        i.mode = g.isControl ? "shareable" : "";
        i.closid = static_cast<int>(g.clos);
        i.rmid = static_cast<int>(g.rmid);
        out.push_back(std::move(i));
    }
    return out;
}

std::vector<unsigned> MsrBackend::limboRmids() const
{
    std::lock_guard lock(m_mutex);
    return { m_limbo.begin(), m_limbo.end() };
}

void MsrBackend::releaseRmid(unsigned rmid)
{
    if (rmid != 0) m_limbo.insert(rmid); // lines tagged with it are still cached: not reusable until they drain
}

Result<unsigned> MsrBackend::allocateRmid()
{
    if (m_enum.maxRmid == 0) return 0u; // no monitoring: every group shares RMID 0
    // Limbo (KDOC "max_threshold_occupancy"): a freed RMID returns to the pool once its occupancy in every
    // domain is at or below the threshold, so a new group does not inherit someone else's lines.
    auto caps = capabilities();
    const auto threshold = caps ? caps->monitoring.maxThresholdOccupancy : 0;
    for (auto it = m_limbo.begin(); it != m_limbo.end();) {
        bool clean = true;
        if (m_enum.llcOccupancy) {
            for (int d : domainsOf(m_enum.l3IdOfCpu)) {
                std::uint32_t flags = 0;
                auto v = readMonitor(d, *it, msr::EVENT_L3_OCCUPANCY, &flags, nullptr);
                if (!v || flags != 0 || *v * m_enum.upscalingFactor > threshold) {
                    clean = false;
                    break;
                }
            }
        }
        if (clean) {
            m_freeRmids.insert(*it);
            it = m_limbo.erase(it);
        } else {
            ++it;
        }
    }
    if (m_freeRmids.empty()) {
        if (!m_limbo.empty())
            return errnoError(EBUSY, std::to_string(m_limbo.size()) + " RMIDs are in limbo (still occupying cache)",
                "wait until their occupancy drains below the threshold, or remove another group");
        return errnoError(ENOSPC, "Out of RMIDs (" + std::to_string(m_enum.maxRmid + 1) + " in total)",
            "remove an unused group first");
    }
    const unsigned r = *m_freeRmids.begin();
    m_freeRmids.erase(m_freeRmids.begin());
    return r;
}

Status MsrBackend::createControlGroup(const std::string& name)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupName(name); !valid) return valid;
    if (find(name)) return errnoError(EEXIST, "cannot create group '" + name + "'", "it exists already");
    auto caps = capabilities();
    if (!caps) return caps.error();
    std::set<unsigned> used = m_reservedClos;
    for (const auto& g : m_groups)
        if (g.isControl) used.insert(g.clos);
    unsigned clos = 1;
    while (used.count(clos))
        ++clos;
    if (clos >= caps->maxControlGroups) {
        std::string reserved;
        for (unsigned n : m_reservedClos)
            reserved += (reserved.empty() ? "" : ", ") + std::to_string(n);
        return errnoError(ENOSPC, "Out of CLOSIDs (" + std::to_string(caps->maxControlGroups) + " incl. the default)",
            reserved.empty() ? "remove an unused group first"
                             : "CLOS " + reserved + " hold masks an earlier run or another tool set although no CPU "
                    + "uses them, so they are not handed out; reset them (all 1s) or remove a group");
    }
    auto rmid = allocateRmid();
    if (!rmid) return rmid.error();
    Group g;
    g.path = name;
    g.clos = clos;
    g.rmid = *rmid;
    // A new CLOS starts unrestricted, as the MSRs do at reset (masks all 1s, delay 0).
    for (const auto& r : caps->resources) {
        Schemata s;
        for (int d : r.domains)
            s.set(r.name, d, r.isCache() ? hexDigits(r.cbmMask) : (r.name == "CBA" ? "0" : "100"));
        m_groups.push_back(g);
        auto w = applySchemata(name, s);
        m_groups.pop_back();
        if (!w) {
            releaseRmid(g.rmid);
            return w;
        }
    }
    m_groups.push_back(std::move(g));
    persist();
    return {};
}

Status MsrBackend::createMonitorGroup(const std::string& parent, const std::string& name)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupPath(parent); !valid) return valid;
    if (auto valid = checkGroupName(name); !valid) return valid;
    Group* p = find(parent);
    if (!p || !p->isControl)
        return errnoError(ENOENT, "no control group '" + parent + "'", "list groups with `groups list`");
    if (m_enum.maxRmid == 0)
        return errnoError(ENODEV, "no RDT monitoring on this CPU", "CPUID.0FH enumerates no RMIDs");
    const auto path = monPath(parent, name);
    if (find(path)) return errnoError(EEXIST, "cannot create monitor group '" + path + "'", "it exists already");
    const unsigned clos = p->clos;
    auto rmid = allocateRmid();
    if (!rmid) return rmid.error();
    Group g;
    g.path = path;
    g.isControl = false;
    g.parent = parent;
    g.clos = clos;
    g.rmid = *rmid;
    m_groups.push_back(std::move(g));
    persist();
    return {};
}

Status MsrBackend::removeGroup(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (path.empty()) return errnoError(EPERM, "the default group cannot be removed");
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    Group* g = find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    std::set<unsigned> moved = g->cpus;
    std::vector<std::string> doomed { path };
    if (g->isControl)
        for (const auto& o : m_groups)
            if (!o.isControl && o.parent == path) {
                doomed.push_back(o.path);
                moved.insert(o.cpus.begin(), o.cpus.end());
            }
    const std::string parent = g->isControl ? std::string {} : g->parent;
    TableState saved = saveTable();
    MsrUndoLog log(*m_msrs);
    for (const auto& d : doomed) {
        auto it = std::find_if(m_groups.begin(), m_groups.end(), [&](const Group& x) { return x.path == d; });
        releaseRmid(it->rmid);
        m_groups.erase(it);
    }
    // CPUs go back to the parent (resctrl semantics); rewrite their association. A failure puts the groups and
    // every association written so far back: the group still exists, with its CPUs.
    if (Group* p = find(parent); p && p->isControl) p->cpus.insert(moved.begin(), moved.end());
    for (unsigned cpu : moved)
        if (auto w = writeAssoc(cpu, log); !w) return rollBack(w.error(), log, std::move(saved));
    persist();
    return {};
}

Error MsrBackend::rollBack(Error e, MsrUndoLog& log, TableState saved)
{
    m_groups = std::move(saved.groups);
    m_freeRmids = std::move(saved.freeRmids);
    m_limbo = std::move(saved.limbo);
    m_cdpL3 = saved.cdpL3;
    m_cdpL2 = saved.cdpL2;
    const auto outcome = log.rollback();
    e.message += "; " + outcome.text;
    if (!outcome.ok)
        e.advice = "the hardware is in a mixed state: the registers named above still hold the new values; "
                   "retry, or reset them by hand with wrmsr (or reboot)";
    return e;
}

Status MsrBackend::assignTasks(const std::string&, const std::vector<unsigned>&)
{
    return tasksRefused();
}

Result<std::vector<unsigned>> MsrBackend::tasks(const std::string&)
{
    return tasksRefused();
}

Status MsrBackend::writeAssoc(unsigned cpu, MsrUndoLog& log)
{
    unsigned clos = 0, rmid = 0;
    for (const auto& g : m_groups)
        if (g.isControl && g.cpus.count(cpu)) {
            clos = g.clos;
            rmid = g.rmid;
        }
    for (const auto& g : m_groups)
        if (!g.isControl && g.cpus.count(cpu)) rmid = g.rmid;
    // IA32_PQR_ASSOC: CLOS in [63:32], RMID in the low bits (Figure 20-23).
    const std::uint64_t value = (std::uint64_t(clos) << 32) | rmid;
    if (auto w = log.write(cpu, msr::IA32_PQR_ASSOC, value); !w) return w;
    auto back = m_msrs->read(cpu, msr::IA32_PQR_ASSOC);
    if (!back) return back.error();
    if (*back != value)
        return errnoError(EIO,
            "IA32_PQR_ASSOC on CPU " + std::to_string(cpu) + " reads " + hexDigits(*back) + " after writing "
                + hexDigits(value));
    return {};
}

Status MsrBackend::assignCpus(const std::string& path, const std::vector<unsigned>& cpuList)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    Group* g = find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    for (unsigned c : cpuList)
        if (c >= m_msrs->cpuCount() || !online(c))
            return errnoError(EINVAL,
                "CPU " + std::to_string(c) + " does not exist (" + std::to_string(m_msrs->cpuCount()) + " CPUs)",
                "Can only assign online CPUs");
    TableState saved = saveTable();
    MsrUndoLog log(*m_msrs);
    if (!g->isControl) {
        const Group* p = find(g->parent);
        for (unsigned c : cpuList)
            if (!p || !p->cpus.count(c))
                return errnoError(EINVAL, "CPU " + std::to_string(c) + " does not belong to '" + g->parent + "'",
                    "Can only add CPUs to mongroup that belong to parent");
        for (auto& o : m_groups)
            if (!o.isControl)
                for (unsigned c : cpuList)
                    o.cpus.erase(c);
        g = find(path);
        g->cpus.insert(cpuList.begin(), cpuList.end());
    } else {
        for (auto& o : m_groups)
            for (unsigned c : cpuList)
                o.cpus.erase(c); // a CPU belongs to one control group and at most one monitor group
        g = find(path);
        g->cpus.insert(cpuList.begin(), cpuList.end());
    }
    // Undo log: a failure on the Nth CPU puts the first N-1 back, and the table with them.
    for (unsigned c : cpuList)
        if (auto w = writeAssoc(c, log); !w) return rollBack(w.error(), log, std::move(saved));
    return {};
}

Result<std::vector<unsigned>> MsrBackend::cpus(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    const Group* g = find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'");
    return std::vector<unsigned>(g->cpus.begin(), g->cpus.end());
}

std::vector<std::string> MsrBackend::warnings()
{
    std::lock_guard lock(m_mutex);
    auto w = m_warnings;
    w.push_back("the MSR backend associates CPUs, not tasks (IA32_PQR_ASSOC is per logical processor)");
    return w;
}

} // namespace rdt
