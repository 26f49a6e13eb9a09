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

std::vector<api::ControlDescription> loadControlDescriptions(
    Fs& fs, const std::string& dir, std::vector<std::string>& warnings)
{
    std::vector<api::ControlDescription> out;
    const std::string root = "info/" + dir + "/resource_schemata";
    if (!fs.isDirectory(root)) return out;
    auto names = fs.list(root);
    if (!names) {
        warnings.push_back("cannot list " + root + ": " + names.error().toString() + ": its controls are unknown");
        return out;
    }
    std::sort(names->begin(), names->end());
    constexpr std::size_t kMaxControls = 64, kMaxName = 32, kMaxValue = 64;
    for (const auto& name : *names) {
        const bool schemataName = !name.empty() && name.size() <= kMaxName
            && std::all_of(name.begin(), name.end(),
                [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; });
        if (!schemataName) {
            warnings.push_back(
                root + " holds '" + name.substr(0, kMaxName) + "', which is no schemata name (A-Z, 0-9, _): skipped");
            continue;
        }
        if (!fs.isDirectory(root + "/" + name)) continue;
        if (out.size() == kMaxControls) {
            warnings.push_back(
                root + " lists more than " + std::to_string(kMaxControls) + " controls: the rest are not read");
            break;
        }
        api::ControlDescription c;
        c.name = name;
        c.resource = dir;
        const std::string base = root + "/" + name + "/";
        // One line of printable text, or the reason it is unknown.
        auto text = [&](const char* file) -> std::optional<std::string> {
            const std::string path = base + file;
            auto r = fs.read(path);
            const std::string_view t = r ? trim(*r) : std::string_view {};
            std::string why;
            if (!r)
                why = fs.exists(path) ? "is unreadable (" + r.error().message + ")" : "is missing";
            else if (t.size() > kMaxValue)
                why = "is longer than " + std::to_string(kMaxValue) + " characters";
            else if (t.empty())
                why = "is empty";
            else if (!std::all_of(t.begin(), t.end(), [](char ch) { return ch >= ' ' && ch <= '~'; }))
                why = "holds more than one line or bytes that are not text";
            if (why.empty()) return std::string(t);
            c.unknown.push_back(std::string(file) + ": " + path + " " + why);
            return std::nullopt;
        };
        auto number = [&](const char* file) -> std::optional<std::uint64_t> {
            auto t = text(file);
            if (!t) return std::nullopt;
            std::uint64_t v = 0;
            auto [end, ec] = std::from_chars(t->data(), t->data() + t->size(), v);
            if (ec == std::errc() && end == t->data() + t->size()) return v;
            c.unknown.push_back(std::string(file) + ": " + base + file + " holds '" + *t + "', not a whole number");
            return std::nullopt;
        };
        c.type = text("type").value_or("");
        c.min = number("min");
        c.max = number("max");
        c.resolution = number("resolution");
        c.scale = number("scale");
        c.tolerance = number("tolerance");
        c.unit = text("unit").value_or("");
        c.scope = text("scope").value_or("");
        if (c.min && c.max && *c.min > *c.max) {
            c.unknown.push_back("min: " + base + "min (" + std::to_string(*c.min) + ") is above max ("
                + std::to_string(*c.max) + "): both are unknown");
            c.min.reset();
            c.max.reset();
        }
        for (const auto& u : c.unknown)
            warnings.push_back("control " + name + " of info/" + dir + ": " + u.substr(u.find(": ") + 2));
        out.push_back(std::move(c));
    }
    return out;
}

void applyControlMeaning(ResourceCaps& r, std::vector<std::string>& warnings)
{
    const auto control = api::bandwidthControlOf(r.name);
    r.role = control.role;
    r.region = control.region;
    const std::string described = "info/" + r.infoDir + "/resource_schemata/" + r.name + "/";
    if (r.description) {
        const auto& d = *r.description;
        auto bound = [](std::uint64_t v) { return static_cast<unsigned>(std::min<std::uint64_t>(v, UINT32_MAX)); };
        if (d.min) {
            r.minBandwidth = bound(*d.min);
            r.origins.mark("min_bandwidth", InfoOrigin::Read, {});
        }
        if (d.max) {
            r.maxBandwidth = bound(*d.max);
            r.origins.mark("max_bandwidth", InfoOrigin::Read, {});
        } else {
            r.origins.mark("max_bandwidth", InfoOrigin::Unknown, described + "max is not known");
        }
        const bool unitScale = d.scale && *d.scale == 1;
        if (d.unit == "all" && d.resolution == 100u && unitScale)
            r.bandwidthUnit = BandwidthUnit::Percent;
        else if (d.unit == "GBps" && d.resolution == 8u && unitScale)
            r.bandwidthUnit = BandwidthUnit::EighthGBps;
        else if (control.role == api::BandwidthRole::Reserved)
            r.bandwidthUnit = BandwidthUnit::Blocks;
        else if (control.role == api::BandwidthRole::Weight)
            r.bandwidthUnit = BandwidthUnit::Weight;
        else
            r.bandwidthUnit = BandwidthUnit::Described;
    } else if (control.role == api::BandwidthRole::Reserved) {
        r.bandwidthUnit = BandwidthUnit::Blocks;
        r.origins.mark("max_bandwidth", InfoOrigin::Unknown, described + "max is missing");
        r.maxBandwidth = UINT32_MAX;
    } else if (control.role == api::BandwidthRole::Weight) {
        // CBQRI's resctrl.rst: MB_WGHT takes 0..255, 255 by default.
        r.bandwidthUnit = BandwidthUnit::Weight;
        r.maxBandwidth = 255;
    }
    if (control.role == api::BandwidthRole::Reserved) {
        if (r.description && r.description->max) {
            r.budget = *r.description->max;
            r.budgetSource = described + "max";
        } else {
            r.origins.mark("budget", InfoOrigin::Unknown,
                "the reservation budget (MRBWB) is not known: " + described + "max is missing");
            warnings.push_back(r.name + ": " + described
                + "max is missing, so the budget all groups reserve from is unknown; the kernel still checks it");
        }
    }
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
