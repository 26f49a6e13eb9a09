// SPDX-License-Identifier: GPL-3.0-or-later
#include "VendorFeaturesText.h"
#include "core/Text.h"

#include <algorithm>

namespace rdt {

namespace {
std::string join(const std::vector<std::string>& v, const char* sep)
{
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : sep) + x;
    return s;
}

std::string idList(const std::vector<int>& ids)
{
    std::vector<std::string> s;
    for (int i : ids)
        s.push_back(std::to_string(i));
    return join(s, ",");
}

/// "0=29 1=29" or, when every domain has the same value, "29 in each of 4 domains".
std::string perDomain(const std::vector<DomainValue>& values, bool hex = false)
{
    auto text = [&](std::uint64_t v) { return hex ? hexDigits(v) : std::to_string(v); };
    const bool same = std::all_of(
        values.begin(), values.end(), [&](const DomainValue& v) { return v.value == values.front().value; });
    if (same && values.size() > 1)
        return text(values.front().value) + " in each of " + std::to_string(values.size()) + " domains";
    std::vector<std::string> s;
    for (const auto& v : values)
        s.push_back(std::to_string(v.domain) + "=" + text(v.value));
    return join(s, " ");
}

void bmecLines(std::string& t, const char* event, const std::vector<DomainValue>& config)
{
    if (config.empty()) return;
    // Group domains with the same configuration so four identical domains make one line.
    std::vector<std::pair<std::uint64_t, std::vector<int>>> byValue;
    for (const auto& v : config) {
        auto it = std::find_if(byValue.begin(), byValue.end(), [&](const auto& p) { return p.first == v.value; });
        if (it == byValue.end())
            byValue.push_back({ v.value, { v.domain } });
        else
            it->second.push_back(v.domain);
    }
    for (const auto& [mask, domains] : byValue)
        t += formatString("  BMEC %s, domains %s: %s counts %s\n", event, idList(domains).c_str(),
            formatHex(mask).c_str(), mask ? join(bmecTransactionNames(mask), ", ").c_str() : "nothing");
}
}

std::string formatResourceLines(const Capabilities& caps)
{
    std::string t;
    for (const auto& r : caps.resources) {
        const auto& o = r.origins;
        const std::string domains = o.show("domains", std::to_string(r.domains.size()));
        if (r.isCache()) {
            t += formatString("%-7s cbm_mask %s (%u portions)  min_cbm_bits %s  shareable_bits %s  sparse %s  "
                              "closids %s  domains %s\n",
                r.name.c_str(), o.show("cbm_mask", hexDigits(r.cbmMask)).c_str(), r.cbmBits,
                o.show("min_cbm_bits", std::to_string(r.minCbmBits)).c_str(),
                o.show("shareable_bits", hexDigits(r.shareableBits)).c_str(),
                o.show("sparse_masks", r.sparseMasks ? "yes (non-contiguous masks allowed)" : "no").c_str(),
                o.show("num_closids", std::to_string(r.numClosids)).c_str(), domains.c_str());
        } else {
            // The RFC's info/<RES>/mode, when the kernel has it: "mode legacy (of legacy, native)".
            std::string mode;
            if (!r.mode.empty()) {
                mode = "  mode " + r.mode + " (of";
                for (const auto& m : r.modes)
                    mode += " " + m;
                mode += ")";
            }
            t += formatString("%-7s %s%s  closids %s  domains %s%s\n", r.name.c_str(), describeBandwidthUnit(r).c_str(),
                r.bandwidthUnit != BandwidthUnit::Percent ? ""
                    : !o.known("delay_linear")            ? ("  delay " + o.show("delay_linear", "")).c_str()
                    : r.delayLinear                       ? ""
                                                          : "  (delay non-linear)",
                o.show("num_closids", std::to_string(r.numClosids)).c_str(), domains.c_str(), mode.c_str());
        }
    }
    if (caps.resources.empty()) t += "no allocation resources\n";
    if (const std::string why = caps.bandwidthAbsentReason(); !why.empty()) t += "MB      " + why + "\n";
    return t;
}

std::string formatGroupLimits(const Capabilities& caps)
{
    std::string t = "control groups: at most "
        + caps.origins.show("max_control_groups", std::to_string(caps.maxControlGroups))
        + " (incl. the default group)\n";
    const auto& m = caps.monitoring;
    if (!m.present) return t + "monitoring: none\n";
    const auto& o = m.origins;
    t += "monitoring (L3_MON): " + o.show("num_rmids", std::to_string(m.numRmids)) + " RMIDs, events";
    if (!o.known("mon_features")) t += " " + o.show("mon_features", "");
    for (const auto& f : m.features)
        t += " " + f;
    const auto domains = m.domains.empty() && !m.inferredDomains.empty() ? m.inferredDomains.size() : m.domains.size();
    t += ", " + o.show("domains", std::to_string(domains)) + " domains\n";
    // A counter the machine does not have is shown as absent everywhere (no column value, no metric), never 0.
    if (o.known("mon_features") && !m.mbmLocal) {
        t += "local bandwidth: none (info/L3_MON/mon_features lists no mbm_local_bytes); ";
        t += m.mbmTotal ? "total bandwidth is counted without a local/remote split (Arm MPAM, for one, cannot "
                          "distinguish local traffic from global, Documentation/arch/arm64/mpam.rst); local and "
                          "remote bandwidth are shown as unknown\n"
                        : "no bandwidth is counted at all\n";
    }
    return t;
}

std::string formatFreeCounters(const MonitorCaps& m)
{
    if (!m.counterAssignment() || m.availableMbmCounters.empty()) return {};
    std::string t = "free MBM counters: " + perDomain(m.availableMbmCounters);
    if (!m.numMbmCounters.empty()) {
        const auto most = std::max_element(m.numMbmCounters.begin(), m.numMbmCounters.end(),
            [](const DomainValue& a, const DomainValue& b) { return a.value < b.value; });
        t += " (of " + std::to_string(most->value) + " per domain)";
    }
    return t;
}

std::string formatVendorFeatures(const Capabilities& caps)
{
    std::string t;
    for (const auto& r : caps.resources) {
        if (r.ioAlloc.empty()) continue;
        if (r.ioAllocEnabled())
            t += formatString("  io_alloc on %s: enabled, I/O ways %s; the highest CLOSID (%u) is held for I/O, so "
                              "groups get %u CLOS\n",
                r.name.c_str(), perDomain(r.ioAllocCbm, true).c_str(), r.numClosids ? r.numClosids - 1 : 0,
                r.numClosids ? r.numClosids - 1 : 0);
        else
            t += "  io_alloc on " + r.name + ": " + r.ioAlloc + "\n";
    }
    const auto& m = caps.monitoring;
    bmecLines(t, "mbm_total_bytes", m.mbmTotalConfig);
    bmecLines(t, "mbm_local_bytes", m.mbmLocalConfig);
    if (m.bmec()) t += "  (changing a BMEC configuration clears every MBM counter of that domain)\n";
    if (!m.assignMode.empty()) {
        t += "  counter assignment mode: " + m.assignMode + " (available: " + join(m.assignModes, ", ") + ")";
        if (m.counterAssignment())
            t += "; MBM events count only while a counter is assigned, else they read Unassigned";
        t += "\n";
        if (!m.numMbmCounters.empty()) t += "  MBM counters: " + perDomain(m.numMbmCounters) + "\n";
        if (auto f = formatFreeCounters(m); !f.empty()) t += "  " + f + "\n";
        if (m.assignOnMkdir >= 0)
            t += std::string("  new groups get counters on mkdir: ") + (m.assignOnMkdir ? "yes" : "no") + "\n";
    }
    for (const auto& [event, filter] : m.eventFilters)
        t += "  event_filter " + event + ": " + filter + "\n";
    if (!m.subDomains.empty()) {
        std::vector<std::string> parts;
        for (const auto& [l3, nodes] : m.subDomains)
            parts.push_back("L3 " + std::to_string(l3) + " -> nodes " + idList(nodes));
        t += formatString("  SNC: %u sub-NUMA nodes per L3 (%s); each way covers 1/%u of its size per node; MBA "
                          "still throttles the whole L3\n",
            m.sncNodesPerL3(), join(parts, "; ").c_str(), m.sncNodesPerL3());
    }
    const auto& tel = caps.telemetry;
    if (tel.present) {
        t += formatString("  PERF_PKG_MON: %s RMIDs, packages %s, events %s\n",
            tel.origins.show("num_rmids", std::to_string(tel.numRmids)).c_str(), idList(tel.domains).c_str(),
            tel.origins.show("mon_features", join(tel.features, ", ")).c_str());
        if (m.present)
            t += "  monitor groups limited to "
                + (m.origins.known("num_rmids") && tel.origins.known("num_rmids")
                        ? std::to_string(caps.maxMonitorGroups())
                        : std::string("unknown"))
                + " = min(L3_MON num_rmids " + m.origins.show("num_rmids", std::to_string(m.numRmids))
                + ", PERF_PKG_MON num_rmids " + tel.origins.show("num_rmids", std::to_string(tel.numRmids))
                + "): every group takes an RMID of both\n";
    }
    return t;
}

} // namespace rdt
