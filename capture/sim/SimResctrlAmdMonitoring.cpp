// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation, AMD's monitoring dialect (kernel Documentation/filesystems/resctrl.rst
// "mbm_assign_mode", "num_mbm_cntrs", "available_mbm_cntrs", "mbm_assign_on_mkdir", "event_configs",
// "mbm_L3_assignments", "mbm_total_bytes_config"; fs/resctrl/monitor.c and rdtgroup.c):
// - assignable counters (ABMC, "mbm_event" mode): a pool of counters per L3 domain; an (RMID, event) pair counts
//   only while it holds one, and reads "Unassigned" otherwise;
// - BMEC: the transaction types mbm_{total,local}_bytes count, per domain, in "default" mode (the machine filters its
//   counts by them, SimMachine::setMbmEventConfig); writing a configuration clears every counter of the domain, whose
//   next read says "Unavailable".
// Not emulated: writing event_filter (ABMC's per-counter filters).
#include "SimResctrlAmdMonitoring.h"

#include "SimMachine.h"
#include "core/Text.h"

#include <cerrno>
#include <cstdlib>

namespace rdt::sim {
namespace {

/// mbm_transactions[] in fs/resctrl/monitor.c: the names of BMEC bits 0..6.
const char* const kTransactions[] = { "local_reads", "remote_reads", "local_non_temporal_writes",
    "remote_non_temporal_writes", "local_reads_slow_memory", "remote_reads_slow_memory", "dirty_victim_writes_all" };
constexpr std::uint32_t kAllTransactions = 0x7f;
constexpr std::uint32_t kLocalTransactions = 0x15; // local reads, local NT writes, local slow-memory reads

std::uint32_t eventId(const std::string& name)
{
    return name == "mbm_total_bytes" ? 2 : name == "mbm_local_bytes" ? 3 : 0;
}

const char* eventName(std::uint32_t ev)
{
    return ev == 2 ? "mbm_total_bytes" : "mbm_local_bytes";
}

std::string transactionNames(std::uint32_t mask)
{
    std::string out;
    for (unsigned b = 0; b < 7; ++b)
        if (mask & (1u << b)) out += (out.empty() ? "" : ",") + std::string(kTransactions[b]);
    return out;
}

} // namespace

SimResctrlAmdMonitoring::SimResctrlAmdMonitoring(SimMachine& machine, SimCmdStatus& status, SimMbmCounters& mbm)
    : m_machine(machine)
    , m_status(status)
    , m_mbm(mbm)
{ }

bool SimResctrlAmdMonitoring::abmc() const
{
    return m_machine.features().mon.present && m_machine.features().amdMon.abmcCounters > 0;
}

bool SimResctrlAmdMonitoring::bmecFiles() const
{
    return m_machine.features().mon.present && m_machine.features().amdMon.bmec && !counterMode();
}

std::vector<std::string> SimResctrlAmdMonitoring::infoFiles() const
{
    std::vector<std::string> out;
    if (abmc()) {
        out.push_back("mbm_assign_mode");
        if (counterMode()) {
            out.insert(out.end(), { "available_mbm_cntrs", "event_configs", "mbm_assign_on_mkdir" });
        }
        out.push_back("num_mbm_cntrs");
    }
    if (bmecFiles()) out.insert(out.end(), { "mbm_local_bytes_config", "mbm_total_bytes_config" });
    return out;
}

void SimResctrlAmdMonitoring::init()
{
    const unsigned domains = m_machine.l3DomainCount();
    m_bmecConfig[0].assign(domains, kAllTransactions);
    m_bmecConfig[1].assign(domains, kLocalTransactions);
    if (m_machine.features().amdMon.bmec) // the hardware's reset configuration, as the kernel shows it
        for (unsigned d = 0; d < domains; ++d) {
            m_machine.setMbmEventConfig(d, 2, kAllTransactions);
            m_machine.setMbmEventConfig(d, 3, kLocalTransactions);
        }
    m_assignMode = abmc() ? "mbm_event" : "default"; // mbm_event is enabled by default where supported
    assignCounters(0);
}

Result<std::string> SimResctrlAmdMonitoring::readInfo(const std::string& dir, const std::string& file)
{
    const unsigned domains = m_machine.l3DomainCount();
    auto perDomain = [&](auto value) {
        std::string s;
        for (unsigned d = 0; d < domains; ++d)
            s += (d ? ";" : "") + std::to_string(d) + "=" + value(d);
        return s + "\n";
    };
    if (dir == "L3_MON/event_configs/mbm_total_bytes") return transactionNames(kAllTransactions) + "\n";
    if (dir == "L3_MON/event_configs/mbm_local_bytes") return transactionNames(kLocalTransactions) + "\n";
    if (file == "mbm_assign_mode")
        return std::string(counterMode() ? "[mbm_event]\ndefault\n" : "mbm_event\n[default]\n");
    if (file == "mbm_assign_on_mkdir") return std::string(m_assignOnMkdir ? "1\n" : "0\n");
    const unsigned pool = m_machine.features().amdMon.abmcCounters;
    if (file == "num_mbm_cntrs") return perDomain([&](unsigned) { return std::to_string(pool); });
    if (file == "available_mbm_cntrs")
        return perDomain([&](unsigned d) { return std::to_string(availableCounters(d)); });
    const int which = file == "mbm_total_bytes_config" ? 0 : 1;
    return perDomain([&](unsigned d) { return "0x" + hexDigits(m_bmecConfig[which][d]); });
}

Status SimResctrlAmdMonitoring::writeInfo(const std::string& file, const std::string& data)
{
    std::string text = data;
    if (!text.empty() && text.back() == '\n') text.pop_back();
    m_status.clear();
    auto fail = [&](const std::string& status) {
        m_status.set(status);
        return errnoError(EINVAL, "cannot write info/L3_MON/" + file + ": " + status);
    };
    if (file == "mbm_assign_mode") {
        if (text != "default" && text != "mbm_event") return fail("Unsupported assign mode");
        if (text == m_assignMode) return {};
        // Leaving mbm_event frees every counter; entering it assigns the default group's as mount does.
        m_counters.clear();
        m_assignMode = text;
        if (counterMode()) assignCounters(0);
        return {};
    }
    if (file == "mbm_assign_on_mkdir") {
        if (text != "0" && text != "1") return fail("Invalid value");
        m_assignOnMkdir = text == "1";
        return {};
    }
    if (file != "mbm_total_bytes_config" && file != "mbm_local_bytes_config")
        return errnoError(EACCES, "cannot write info/L3_MON/" + file + ": read-only in the simulator");
    // mon_config_write: "<domain>=<mask>;..." with masks within the valid transaction bits.
    const int which = file == "mbm_total_bytes_config" ? 0 : 1;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t semi = text.find(';', pos);
        std::string item(trim(text.substr(pos, semi == std::string::npos ? std::string::npos : semi - pos)));
        pos = semi == std::string::npos ? text.size() : semi + 1;
        auto eq = item.find('=');
        char* end = nullptr;
        const unsigned long dom = eq == std::string::npos ? 0 : std::strtoul(item.c_str(), &end, 10);
        if (eq == std::string::npos || end != item.c_str() + eq) return fail("Missing '=' or non-numeric domain id");
        const unsigned long mask = std::strtoul(item.c_str() + eq + 1, &end, 16);
        if (*end != '\0' || eq + 1 == item.size()) return fail("Non-numeric event configuration value");
        if (mask == 0 || (mask & ~std::uint64_t { m_machine.features().amdMon.bmecValidBits })) {
            return fail("Invalid event configuration: max valid mask is 0x"
                + hexDigits(m_machine.features().amdMon.bmecValidBits));
        }
        if (dom >= m_machine.l3DomainCount()) return fail("Invalid domain id");
        if (m_bmecConfig[which][dom] == mask) continue;
        m_bmecConfig[which][dom] = static_cast<std::uint32_t>(mask);
        m_machine.setMbmEventConfig(static_cast<unsigned>(dom), which == 0 ? 2 : 3, static_cast<std::uint32_t>(mask));
        // The hardware clears all counters of the domain; the next read of each says "Unavailable".
        for (std::uint32_t rmid = 0; rmid <= m_machine.features().mon.l3MaxRmid; ++rmid)
            m_bmecCleared.insert({ static_cast<unsigned>(dom), rmid });
    }
    return {};
}

unsigned SimResctrlAmdMonitoring::availableCounters(unsigned domain) const
{
    unsigned used = 0;
    for (const auto& [d, rmid, ev] : m_counters)
        if (d == domain) ++used;
    const unsigned pool = m_machine.features().amdMon.abmcCounters;
    return used >= pool ? 0 : pool - used;
}

bool SimResctrlAmdMonitoring::counterAssigned(unsigned domain, std::uint32_t rmid, std::uint32_t event) const
{
    return !counterMode() || event == 1 || m_counters.count({ domain, rmid, event }) != 0;
}

Status SimResctrlAmdMonitoring::assignCounter(unsigned domain, std::uint32_t rmid, std::uint32_t event)
{
    if (m_counters.count({ domain, rmid, event })) return {};
    if (availableCounters(domain) == 0) {
        m_status.set(
            "Failed to allocate counter for " + std::string(eventName(event)) + " in domain " + std::to_string(domain));
        return errnoError(ENOSPC, "no free MBM counter in L3 domain " + std::to_string(domain),
            "unassign a counter from another group (mbm_L3_assignments), or read llc_occupancy only");
    }
    m_counters.insert({ domain, rmid, event });
    // A newly assigned counter starts from zero (resctrl_arch_reset_cntr).
    m_mbm.restart(domain, rmid, event);
    return {};
}

void SimResctrlAmdMonitoring::assignCounters(std::uint32_t rmid)
{
    // rdtgroup_assign_cntrs: both MBM events in every domain, as far as counters last; failures only leave a
    // status line (mkdir itself succeeds).
    if (!counterMode()) return;
    for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
        for (std::uint32_t ev : { 2u, 3u })
            (void)assignCounter(d, rmid, ev);
}

void SimResctrlAmdMonitoring::releaseCounters(std::uint32_t rmid)
{
    std::erase_if(m_counters, [&](const auto& c) { return std::get<1>(c) == rmid; });
}

std::string SimResctrlAmdMonitoring::readAssignments(const ResctrlGroup& g) const
{
    std::string out;
    for (std::uint32_t ev : { 2u, 3u }) {
        out += std::string(eventName(ev)) + ":";
        for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
            out += (d ? ";" : "") + std::to_string(d) + "=" + (m_counters.count({ d, g.rmid, ev }) ? "e" : "_");
        out += "\n";
    }
    return out;
}

Status SimResctrlAmdMonitoring::writeAssignments(ResctrlGroup& g, const std::string& data)
{
    m_status.clear();
    auto fail = [&](const std::string& status) {
        m_status.set(status);
        return errnoError(EINVAL, "cannot write mbm_L3_assignments: " + status);
    };
    if (!counterMode()) return fail("mbm_event counter assignment mode is not enabled");
    // "<event>:<domain>=<e|_>;..." per line; '*' names every domain.
    std::size_t pos = 0;
    while (pos < data.size()) {
        std::size_t nl = data.find('\n', pos);
        std::string line(trim(data.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos)));
        pos = nl == std::string::npos ? data.size() : nl + 1;
        if (line.empty()) continue;
        const auto colon = line.find(':');
        const std::uint32_t ev = colon == std::string::npos ? 0 : eventId(line.substr(0, colon));
        if (ev == 0) return fail("Invalid event name " + line.substr(0, colon));
        std::size_t p = colon + 1;
        while (p < line.size()) {
            std::size_t semi = line.find(';', p);
            std::string item = line.substr(p, semi == std::string::npos ? std::string::npos : semi - p);
            p = semi == std::string::npos ? line.size() : semi + 1;
            const auto eq = item.find('=');
            if (eq == std::string::npos || eq + 2 != item.size() || (item[eq + 1] != 'e' && item[eq + 1] != '_'))
                return fail("Invalid assignment " + item);
            std::vector<unsigned> doms;
            if (item.substr(0, eq) == "*") {
                for (unsigned d = 0; d < m_machine.l3DomainCount(); ++d)
                    doms.push_back(d);
            } else {
                char* end = nullptr;
                const unsigned long d = std::strtoul(item.c_str(), &end, 10);
                if (end != item.c_str() + eq || eq == 0 || d >= m_machine.l3DomainCount())
                    return fail("Invalid domain id " + item.substr(0, eq));
                doms.push_back(static_cast<unsigned>(d));
            }
            for (unsigned d : doms) {
                if (item[eq + 1] == '_')
                    m_counters.erase({ d, g.rmid, ev });
                else if (auto s = assignCounter(d, g.rmid, ev); !s)
                    return errnoError(
                        ENOSPC, "cannot write mbm_L3_assignments: " + s.error().message, s.error().advice);
            }
        }
    }
    return {};
}

} // namespace rdt::sim
