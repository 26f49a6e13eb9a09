// SPDX-License-Identifier: GPL-3.0-or-later
// What MBM counts (kernel Documentation/filesystems/resctrl.rst): assignable counters
// ("mbm_assign_mode", "mbm_L3_assignments": in mbm_event mode an event of a group counts only while a hardware
// counter backs it) and BMEC event configurations ("mbm_total_bytes_config").
#include "ResctrlMbmEvents.h"

#include "RootLock.h"
#include "core/Text.h"

#include <algorithm>
#include <cerrno>

namespace rdt {

ResctrlMbmEvents::ResctrlMbmEvents(ResctrlTree& tree, ResctrlCapabilityReader& capabilities)
    : m_tree(tree)
    , m_capabilities(capabilities)
{ }

Result<std::vector<CounterAssignment>> ResctrlMbmEvents::counterAssignments(const std::string& path)
{
    if (auto c = m_tree.requireGroup(path, false); !c) return c.error();
    auto text = m_tree.fs().read(m_tree.join(path, "mbm_L3_assignments"));
    if (!text) {
        if (text.error().code == ENOENT)
            return errnoError(ENOTSUP, "no mbm_L3_assignments in " + m_tree.fs().describe(),
                "assignable counters need Linux 6.18 and a CPU with ABMC (AMD)");
        return text.error();
    }
    return parseCounterAssignments(*text);
}

Status ResctrlMbmEvents::assignCounter(const std::string& path, const std::string& event, int domain, bool assign)
{
    auto caps = m_capabilities.get();
    if (!caps) return caps.error();
    const auto& m = caps->monitoring;
    if (!m.counterAssignment())
        return errnoError(ENOTSUP,
            "counters are not assignable in " + m_tree.fs().describe() + " (mbm_assign_mode is "
                + (m.assignMode.empty() ? std::string("absent") : "'" + m.assignMode + "'") + ")",
            m.assignMode.empty()
                ? "assignable counters need Linux 6.18 and a CPU with ABMC (AMD)"
                : "switch the mode: echo mbm_event > info/L3_MON/mbm_assign_mode (may reset counters)");
    std::vector<std::string> events;
    for (const auto& [e, filter] : m.eventFilters)
        events.push_back(e);
    if (events.empty()) events = { "mbm_total_bytes", "mbm_local_bytes" };
    if (std::find(events.begin(), events.end(), event) == events.end()) {
        std::string known;
        for (const auto& e : events)
            known += (known.empty() ? "" : ", ") + e;
        return errnoError(EINVAL, "no assignable event '" + event + "'", "events: " + known);
    }
    if (domain >= 0 && std::find(m.domains.begin(), m.domains.end(), domain) == m.domains.end())
        return errnoError(EINVAL, "no monitoring domain " + std::to_string(domain), "domains are the mon_L3_XX ids");
    if (assign && domain >= 0 && !m.availableMbmCounters.empty() && valueOfDomain(m.availableMbmCounters, domain) == 0)
        return errnoError(ENOSPC, "no free MBM counter in domain " + std::to_string(domain),
            "free one first: unassign a counter of another group (`groups counter-unassign`, or the Groups dock's "
            "context menu: Free MBM counters)");
    if (auto c = m_tree.requireGroup(path, false); !c) return c;
    RootLock rl(m_tree.fs(), true, m_tree.changeDepth());
    if (!rl.status()) return rl.status();
    auto st
        = m_tree.writeCommand(m_tree.join(path, "mbm_L3_assignments"), formatAssignmentCommand(event, domain, assign));
    m_capabilities.forget(); // available_mbm_cntrs changed
    return st;
}

Status ResctrlMbmEvents::configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions)
{
    auto caps = m_capabilities.get();
    if (!caps) return caps.error();
    const auto& m = caps->monitoring;
    if (event != "mbm_total_bytes" && event != "mbm_local_bytes")
        return errnoError(EINVAL, "no configurable event '" + event + "'", "events: mbm_total_bytes, mbm_local_bytes");
    const auto& current = event == "mbm_total_bytes" ? m.mbmTotalConfig : m.mbmLocalConfig;
    if (current.empty())
        return errnoError(ENOTSUP, "no info/L3_MON/" + event + "_config in " + m_tree.fs().describe(),
            m.counterAssignment() ? "in mbm_event mode the kernel configures events through "
                                    "info/L3_MON/event_configs/<event>/event_filter"
                                  : "BMEC needs Linux 6.4 and an AMD CPU with BMEC (CPUID 80000020H EBX[3])");
    if (transactions == 0 || (transactions & ~kBmecValidMask) != 0)
        return errnoError(EINVAL, "invalid event configuration " + formatHex(transactions),
            "at least one of bits 0..6 (" + formatHex(kBmecValidMask) + "), see `info --source`");
    std::string command;
    for (const auto& v : current) {
        if (domain >= 0 && v.domain != domain) continue;
        command += (command.empty() ? "" : ";") + std::to_string(v.domain) + "=" + formatHex(transactions);
    }
    if (command.empty())
        return errnoError(EINVAL, "no monitoring domain " + std::to_string(domain), "domains are the mon_L3_XX ids");
    RootLock rl(m_tree.fs(), true, m_tree.changeDepth());
    if (!rl.status()) return rl.status();
    auto st = m_tree.writeCommand("info/L3_MON/" + event + "_config", command);
    m_capabilities.forget(); // the configuration changed
    return st;
}

} // namespace rdt
