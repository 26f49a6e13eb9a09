// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlInfoLoad.h"
#include "core/Text.h"

#include <algorithm>
#include <charconv>
#include <climits>

namespace rdt {

namespace {
std::optional<std::uint64_t> readNumber(Fs& fs, const std::string& path)
{
    auto r = fs.read(path);
    if (!r) return std::nullopt;
    const auto t = trim(*r);
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
    return v;
}

std::vector<std::string> lines(std::string_view text)
{
    std::vector<std::string> out;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        const auto l = trim(text.substr(0, nl));
        if (!l.empty()) out.emplace_back(l);
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
    return out;
}

void readDomainValues(
    Fs& fs, const std::string& path, int base, std::vector<DomainValue>& out, std::vector<std::string>& warnings)
{
    auto text = fs.read(path);
    if (!text) return; // absent: the feature is not there
    if (auto v = parseDomainValues(*text, base))
        out = std::move(*v);
    else
        warnings.push_back(path + " is unreadable (" + v.error().message + "): shown as unknown");
}
}

void loadMonitorExtras(Fs& fs, const std::string& base, MonitorCaps& m, std::vector<std::string>& warnings)
{
    readDomainValues(fs, base + "mbm_total_bytes_config", 16, m.mbmTotalConfig, warnings);
    readDomainValues(fs, base + "mbm_local_bytes_config", 16, m.mbmLocalConfig, warnings);
    if (auto t = fs.read(base + "mbm_assign_mode")) {
        auto modes = parseAssignModes(*t);
        m.assignMode = std::move(modes.active);
        m.assignModes = std::move(modes.all);
    }
    readDomainValues(fs, base + "num_mbm_cntrs", 10, m.numMbmCounters, warnings);
    readDomainValues(fs, base + "available_mbm_cntrs", 10, m.availableMbmCounters, warnings);
    if (auto n = readNumber(fs, base + "mbm_assign_on_mkdir")) m.assignOnMkdir = *n != 0 ? 1 : 0;
    if (auto events = fs.list(base + "event_configs")) {
        std::sort(events->begin(), events->end());
        for (const auto& e : *events)
            if (auto f = fs.read(base + "event_configs/" + e + "/event_filter"))
                m.eventFilters.emplace_back(e, std::string(trim(*f)));
    }
}

void loadTelemetryCaps(Fs& fs, const std::string& base, TelemetryCaps& t)
{
    t.present = true;
    auto mark = [&](const char* file) {
        t.origins.mark(
            file, InfoOrigin::Unknown, base + file + (fs.exists(base + file) ? " is unreadable" : " is missing"));
    };
    if (auto n = readNumber(fs, base + "num_rmids"))
        t.numRmids = static_cast<unsigned>(*n);
    else
        mark("num_rmids"); // 0 = unknown: maxMonitorGroups() then ignores it
    if (auto f = fs.read(base + "mon_features"))
        t.features = lines(*f);
    else
        mark("mon_features");
}

void loadIoAlloc(Fs& fs, const std::string& base, ResourceCaps& r, std::vector<std::string>& warnings)
{
    auto state = fs.read(base + "io_alloc");
    if (!state) return;
    r.ioAlloc = std::string(trim(*state));
    if (r.ioAllocEnabled()) readDomainValues(fs, base + "io_alloc_cbm", 16, r.ioAllocCbm, warnings);
}

void loadMonDataDomains(Fs& fs, Capabilities& caps)
{
    auto l = fs.list("mon_data");
    if (!l) return;
    for (const auto& d : *l) {
        if (auto id = idAfterPrefix(d, "mon_L3_")) {
            caps.monitoring.domains.push_back(*id);
            std::vector<int> nodes;
            if (auto sub = fs.list("mon_data/" + d))
                for (const auto& s : *sub)
                    if (auto node = idAfterPrefix(s, "mon_sub_L3_")) nodes.push_back(*node);
            std::sort(nodes.begin(), nodes.end());
            if (!nodes.empty()) caps.monitoring.subDomains.emplace_back(*id, std::move(nodes));
        } else if (auto pkg = idAfterPrefix(d, "mon_PERF_PKG_")) {
            caps.telemetry.domains.push_back(*pkg);
        }
    }
    std::sort(caps.monitoring.domains.begin(), caps.monitoring.domains.end());
    std::sort(caps.monitoring.subDomains.begin(), caps.monitoring.subDomains.end());
    std::sort(caps.telemetry.domains.begin(), caps.telemetry.domains.end());
}

BandwidthUnit detectBandwidthUnit(Fs& fs, const ResourceCaps& r, const std::vector<std::uint64_t>& rootValues)
{
    if (r.name == "SMBA") return BandwidthUnit::EighthGBps;
    if (std::any_of(rootValues.begin(), rootValues.end(), [](std::uint64_t v) { return v == UINT32_MAX; })
        || fs.exists("mba_MBps_event"))
        return BandwidthUnit::MiBps;
    // Only values read count: a missing min_bandwidth is not AMD's 0, a missing delay_linear not Intel's 1.
    const bool minKnown = r.origins.known("min_bandwidth");
    if (minKnown && r.minBandwidth == 0 && (!r.delayLinear || !r.origins.known("delay_linear")))
        return BandwidthUnit::EighthGBps;
    if (fs.isDirectory("info/SMBA")) return BandwidthUnit::EighthGBps; // SMBA exists only on AMD
    // Older trees without the AMD tells: a root value above 100 can only be MiBps (the percent maximum is 100).
    if (std::any_of(rootValues.begin(), rootValues.end(), [](std::uint64_t v) { return v > 100; }))
        return BandwidthUnit::MiBps;
    return BandwidthUnit::Percent;
}

} // namespace rdt
