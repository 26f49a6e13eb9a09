// SPDX-License-Identifier: GPL-3.0-or-later
// The MSR backend's state that outlives the process (docs/SAFE-WRITES.md, "MSR state between runs"): groups rebuilt
// from IA32_PQR_ASSOC and the mask MSRs when the backend opens, and named from the state file.
#include "MsrTablePersistence.h"

#include "GroupNames.h"
#include "MsrBits.h"
#include "MsrStateFile.h"

#include <algorithm>
#include <bit>

namespace rdt {

namespace {
constexpr const char* kProgrammedWarning = "the hardware was already programmed (IA32_PQR_ASSOC): found ";
}

MsrTablePersistence::MsrTablePersistence(
    MsrSpace& msrs, const MsrRdtEnumeration& enumeration, const MsrTopology& topology, MsrGroupTable& table)
    : m_msrs(msrs)
    , m_enum(enumeration)
    , m_topology(topology)
    , m_table(table)
{ }

void MsrTablePersistence::adoptHardwareState()
{
    // A previous run, or another tool (pqos -a), may have programmed the hardware: rebuild the groups from
    // IA32_PQR_ASSOC of every online CPU (SDM 20.18.6, 20.19.6.6) instead of handing out its CLOS and RMIDs again.
    // They are named by their numbers until a state file (attachStateFile) gives them their names back.
    const std::uint64_t rmidMask
        = m_enum.maxRmid == 0 ? 0 : (std::uint64_t { 1 } << std::bit_width(m_enum.maxRmid)) - 1;
    for (unsigned c = 0; c < m_msrs.cpuCount(); ++c) {
        if (!m_topology.online(c)) continue;
        auto v = m_msrs.read(c, msr::IA32_PQR_ASSOC);
        if (!v || *v == 0) continue;
        const auto clos = static_cast<unsigned>(*v >> 32);
        const auto rmid = static_cast<unsigned>(*v & rmidMask);
        std::string control;
        if (clos != 0) {
            control = "clos" + std::to_string(clos);
            MsrGroup* g = m_table.find(control);
            if (!g) {
                MsrGroup n;
                n.path = control;
                n.clos = clos;
                n.rmid = rmid;
                m_table.groups.push_back(n);
                m_table.freeRmids.erase(rmid);
                g = &m_table.groups.back();
            }
            g->cpus.insert(c);
        }
        const MsrGroup* owner = m_table.find(control);
        if (rmid != 0 && (!owner || owner->rmid != rmid)) {
            const std::string mon = monPath(control, "rmid" + std::to_string(rmid));
            MsrGroup* m = m_table.find(mon);
            if (!m) {
                MsrGroup n;
                n.path = mon;
                n.isControl = false;
                n.parent = control;
                n.clos = clos;
                n.rmid = rmid;
                m_table.groups.push_back(n);
                m_table.freeRmids.erase(rmid);
                m = &m_table.groups.back();
            }
            m->cpus.insert(c);
        }
        if (clos != 0) m_table.groups[0].cpus.erase(c);
    }
    if (m_table.groups.size() > 1) {
        std::string names;
        for (std::size_t i = 1; i < m_table.groups.size(); ++i)
            names += (i > 1 ? ", " : "") + m_table.groups[i].path;
        m_warnings.push_back(
            std::string(kProgrammedWarning) + names + "; their CLOS and RMIDs are kept, not handed out again");
    }
    // A CLOS no CPU uses may still hold masks an earlier run or another tool set: never hand it out unasked.
    if (m_enum.l3Cat) {
        const std::uint64_t ones = fullMask(m_enum.l3CbmLength);
        const unsigned cpu = m_topology.cpuOfDomain(m_topology.l3Domains().front(), false);
        for (unsigned n = 1; n <= m_enum.l3MaxClos; ++n) {
            if (std::any_of(
                    m_table.groups.begin(), m_table.groups.end(), [&](const MsrGroup& g) { return g.clos == n; }))
                continue;
            auto v = m_msrs.read(cpu, msr::IA32_L3_MASK_0 + n);
            if (v && (*v & ones) != ones) m_table.reservedClos.insert(n);
        }
    }
}

Status MsrTablePersistence::attachStateFile(const std::string& file)
{
    auto entries = loadMsrState(file);
    if (!entries) return entries.error();
    m_stateFile = file;
    for (const auto& e : *entries) {
        if (e.clos > std::max({ m_enum.l3MaxClos, m_enum.l2MaxClos, m_enum.mbaMaxClos, m_enum.cbaMaxClos })
            || e.rmid > m_enum.maxRmid)
            return makeError(file + ": group " + e.path + " has CLOS " + std::to_string(e.clos) + " / RMID "
                    + std::to_string(e.rmid) + ", beyond what this CPU enumerates",
                "the file is from another machine or another boot: remove it");
        // The group found in the hardware under its numbers gets its name back; a group without CPUs (no trace
        // in PQR_ASSOC) comes back from the file alone.
        const std::string numbered = e.isControl
            ? "clos" + std::to_string(e.clos)
            : monPath(e.path.substr(0, e.path.find("/mon_groups/")), "rmid" + std::to_string(e.rmid));
        MsrGroup* g = m_table.find(numbered);
        if (!g) g = m_table.find(e.path);
        if (!g) {
            MsrGroup n;
            n.path = e.path;
            n.isControl = e.isControl;
            n.parent = e.isControl ? std::string {} : e.path.substr(0, e.path.find("/mon_groups/"));
            n.clos = e.clos;
            n.rmid = e.rmid;
            m_table.groups.push_back(n);
            g = &m_table.groups.back();
        }
        if (e.isControl && g->path != e.path) {
            const std::string old = g->path;
            for (auto& child : m_table.groups)
                if (!child.isControl && child.parent == old) {
                    child.parent = e.path;
                    child.path = e.path + child.path.substr(old.size());
                }
            g = m_table.find(old);
        }
        g->path = e.path;
        m_table.freeRmids.erase(e.rmid);
        m_table.reservedClos.erase(e.clos);
    }
    // The warning of adoptHardwareState named the groups by number; say their names now.
    for (auto& w : m_warnings)
        if (w.rfind(kProgrammedWarning, 0) == 0) {
            std::string names;
            for (std::size_t i = 1; i < m_table.groups.size(); ++i)
                names += (i > 1 ? ", " : "") + m_table.groups[i].path + " (CLOS "
                    + std::to_string(m_table.groups[i].clos) + ")";
            w = std::string(kProgrammedWarning) + names + ", named from " + file
                + "; their CLOS and RMIDs are kept, not handed out again";
        }
    return {};
}

void MsrTablePersistence::persist()
{
    if (m_stateFile.empty()) return;
    std::vector<MsrStateEntry> entries;
    for (std::size_t i = 1; i < m_table.groups.size(); ++i)
        entries.push_back(
            { m_table.groups[i].path, m_table.groups[i].isControl, m_table.groups[i].clos, m_table.groups[i].rmid });
    if (auto s = saveMsrState(m_stateFile, entries); !s)
        m_warnings.push_back("the MSR state file could not be written (" + s.error().toString()
            + "): the next run finds these groups from the hardware, named by their CLOS");
}

} // namespace rdt
