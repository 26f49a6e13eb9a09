// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlCapabilityReader.h"
#include "ResctrlFeatures.h"
#include "ResctrlInfoLoad.h"
#include "core/Text.h"

#include "core/IdList.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <map>

namespace rdt {

namespace {
std::optional<std::uint64_t> readNumber(Fs& fs, const std::string& path, int base = 10)
{
    auto r = fs.read(path);
    if (!r) return std::nullopt;
    const auto t = trim(*r);
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
    if (t.empty() || ec != std::errc()) return std::nullopt;
    return v;
}

}

ResctrlCapabilityReader::ResctrlCapabilityReader(ResctrlTree& tree)
    : m_tree(tree)
{ }

Result<Capabilities> ResctrlCapabilityReader::get()
{
    if (!m_caps) {
        auto c = load();
        if (!c) return c.error();
        m_caps = std::move(*c);
    }
    return *m_caps;
}

void ResctrlCapabilityReader::forgetCountersOnMkdirRmdir()
{
    // In mbm_event mode the kernel assigns counters on mkdir (mbm_assign_on_mkdir) and frees them on rmdir, so
    // available_mbm_cntrs changed: the capabilities are read again.
    if (m_caps && !m_caps->monitoring.availableMbmCounters.empty()) m_caps.reset();
}

Result<Capabilities> ResctrlCapabilityReader::load()
{
    Fs& fs = m_tree.fs();
    Capabilities caps;
    m_warnings.clear();
    auto missingOrUnreadable
        = [&](const std::string& path) { return path + (fs.exists(path) ? " is unreadable" : " is missing"); };
    // A number from info/<dir>/<file>, or nothing with the value marked unknown, naming the file.
    auto readInfo = [&](InfoOrigins& origins, const std::string& dir, const std::string& file,
                        int base = 10) -> std::optional<std::uint64_t> {
        const std::string path = "info/" + dir + "/" + file;
        auto v = readNumber(fs, path, base);
        if (!v) origins.mark(file, InfoOrigin::Unknown, missingOrUnreadable(path));
        return v;
    };
    // A tree copy can hold anything where the root's schemata should be (nothing, CRLF, bytes, a directory):
    // what cannot be read leaves the resources without domains, said in a warning, never assumed.
    Schemata rootSchemata;
    if (auto s = fs.read("schemata")) {
        if (auto p = Schemata::parse(*s))
            rootSchemata = std::move(*p);
        else
            m_warnings.push_back("the root schemata is unreadable as schemata (" + p.error().message
                + "): allocation is not possible through " + fs.describe());
    } else if (fs.exists("schemata")) {
        m_warnings.push_back("cannot read the root schemata: " + s.error().toString());
    }
    Schemata rootSize;
    if (auto s = fs.read("size")) {
        if (auto p = Schemata::parse(*s)) rootSize = std::move(*p);
    }
    std::vector<std::string> infoDirs;
    if (auto l = fs.list("info"))
        for (auto& d : *l)
            if (fs.isDirectory("info/" + d)) infoDirs.push_back(std::move(d));
    // Controls that describe themselves (info/<dir>/resource_schemata/<name>/): a schemata line may be a control of
    // another directory's resource (MB_REGION0_MIN of info/MB), so it needs no info/ directory of its own.
    std::map<std::string, std::vector<api::ControlDescription>> described;
    std::map<std::string, std::string> describedIn; // control name -> info dir
    for (const auto& dir : infoDirs) {
        if (dir.ends_with("_MON")) continue;
        auto controls = loadControlDescriptions(fs, dir, m_warnings);
        for (const auto& c : controls)
            describedIn.emplace(c.name, dir);
        if (!controls.empty()) described[dir] = std::move(controls);
    }
    // A root schemata line whose info/ directory is missing (a partial copy of a tree): the resource exists; its
    // domains come from the line, its mask length from the root's masks, the rest is unknown.
    for (const auto& line : rootSchemata.lines())
        if (std::find(infoDirs.begin(), infoDirs.end(), line.resource) == infoDirs.end()
            && !describedIn.count(line.resource)) {
            m_warnings.push_back("info/" + line.resource + " is missing although the root schemata has an "
                + line.resource + " line: its values are unknown except what the schemata shows");
            infoDirs.push_back(line.resource);
        }
    unsigned minClosids = UINT_MAX;
    std::vector<std::string> closidsRead, closidsUnknown;
    for (const auto& dir : infoDirs) {
        const std::string base = "info/" + dir + "/";
        if (dir == "PERF_PKG_MON") {
            loadTelemetryCaps(fs, base, caps.telemetry);
            continue;
        }
        if (dir.size() > 4 && dir.compare(dir.size() - 4, 4, "_MON") == 0) {
            if (dir != "L3_MON") {
                m_warnings.push_back("info/" + dir + " is a monitoring resource rdtscope does not know: not shown");
                continue;
            }
            auto& m = caps.monitoring;
            m.present = true;
            m.numRmids = static_cast<unsigned>(readInfo(m.origins, dir, "num_rmids").value_or(0));
            m.maxThresholdOccupancy = readInfo(m.origins, dir, "max_threshold_occupancy").value_or(0);
            if (auto f = fs.read(base + "mon_features")) {
                std::string_view rest = *f;
                while (!rest.empty()) {
                    auto nl = rest.find('\n');
                    auto feature = trim(rest.substr(0, nl));
                    if (!feature.empty()) m.features.emplace_back(feature);
                    rest = nl == std::string_view::npos ? std::string_view {} : rest.substr(nl + 1);
                }
            } else {
                m.origins.mark("mon_features", InfoOrigin::Unknown, missingOrUnreadable(base + "mon_features"));
            }
            for (const auto& f : m.features) {
                m.llcOccupancy |= f == "llc_occupancy";
                m.mbmTotal |= f == "mbm_total_bytes";
                m.mbmLocal |= f == "mbm_local_bytes";
            }
            loadMonitorExtras(fs, base, m, m_warnings);
            continue;
        }
        ResourceCaps r;
        r.name = dir;
        r.numClosids = static_cast<unsigned>(readInfo(r.origins, dir, "num_closids").value_or(0));
        // The kind by the files the kernel writes for it, else by the name (a copy may lack the files): resctrl
        // names cache resources L2/L3 (with CODE/DATA under CDP), bandwidth ones MB and SMBA (kernel resctrl.rst).
        // A control's own description says its type first; CBQRI's MB_MIN and MB_WGHT are bandwidth controls by
        // name (the CBQRI branch's resctrl.rst).
        const api::ControlDescription* own = nullptr;
        if (auto d = described.find(dir); d != described.end())
            for (const auto& c : d->second)
                if (c.name == dir) own = &c;
        const bool cacheName = dir.rfind("L2", 0) == 0 || dir.rfind("L3", 0) == 0 || (own && own->bitmap());
        const bool bandwidthName = dir == "MB" || dir == "SMBA" || (own && own->scalar())
            || api::bandwidthControlOf(dir).role != api::BandwidthRole::Limit;
        if (own) r.description = *own;
        r.infoDir = dir;
        if (fs.exists(base + "cbm_mask") || cacheName) {
            r.kind = ResourceKind::Cache;
            r.cbmMask = readInfo(r.origins, dir, "cbm_mask", 16).value_or(0);
            if (r.cbmMask == 0) {
                // The default group holds every bit after mount (kernel resctrl.rst, "Resource allocation rules"),
                // so its mask gives the CBM length unless someone narrowed it: inferred, and said so.
                std::uint64_t rootMask = 0;
                if (const auto* line = rootSchemata.line(dir))
                    for (const auto& [d, v] : line->values)
                        rootMask |= parseMask(v).valueOr(0);
                if (rootMask == 0) {
                    m_warnings.push_back(base + "cbm_mask is missing, unreadable or zero and the root schemata has "
                        + "no " + dir + " mask to infer it from: " + dir + " is not offered");
                    continue;
                }
                r.cbmMask = rootMask;
                r.origins.mark("cbm_mask", InfoOrigin::Inferred,
                    "from the root schemata's " + dir + " masks, " + missingOrUnreadable(base + "cbm_mask"));
                m_warnings.push_back(base + "cbm_mask is missing or unreadable: the " + dir
                    + " mask length is inferred from the root schemata (wrong if the default group was narrowed)");
            }
            r.cbmBits = static_cast<unsigned>(std::popcount(r.cbmMask));
            // Unknown values keep what the validator works with (min 1 bit, contiguous masks, nothing shared):
            // the kernel refuses what they would wrongly allow, and the text says unknown.
            r.minCbmBits = static_cast<unsigned>(readInfo(r.origins, dir, "min_cbm_bits").value_or(1));
            r.shareableBits = readInfo(r.origins, dir, "shareable_bits", 16).value_or(0);
            r.sparseMasks = readInfo(r.origins, dir, "sparse_masks").value_or(0) != 0;
            loadIoAlloc(fs, base, r, m_warnings);
        } else if (fs.exists(base + "min_bandwidth") || fs.exists(base + "bandwidth_gran") || bandwidthName) {
            r.kind = ResourceKind::Bandwidth;
            r.minBandwidth = static_cast<unsigned>(readInfo(r.origins, dir, "min_bandwidth").value_or(0));
            r.bandwidthGran = static_cast<unsigned>(readInfo(r.origins, dir, "bandwidth_gran").value_or(1));
            r.delayLinear = readInfo(r.origins, dir, "delay_linear").value_or(1) != 0;
            if (auto t = fs.read(base + "thread_throttle_mode")) r.throttleMode = std::string(trim(*t));
            // The RFC's mode file ("[legacy] native"): how the resource's schemata lines are interpreted.
            if (auto t = fs.read(base + "mode")) {
                auto modes = parseAssignModes(*t);
                r.mode = std::move(modes.active);
                r.modes = std::move(modes.all);
            }
        } else {
            m_warnings.push_back("info/" + dir
                + " is a resource rdtscope does not know (no cbm_mask, min_bandwidth or bandwidth_gran)"
                + ": not shown");
            continue;
        }
        if (!rootSchemata.has(r.name)) {
            m_warnings.push_back("the root schemata has no " + r.name + " line although info/" + dir
                + " exists: its domains are unknown, so it cannot be changed");
            r.origins.mark("domains", InfoOrigin::Unknown, "the root schemata has no " + r.name + " line");
        }
        std::vector<std::uint64_t> rootValues;
        if (const auto* line = rootSchemata.line(r.name)) {
            for (const auto& [d, v] : line->values) {
                r.domains.push_back(d);
                if (r.kind == ResourceKind::Bandwidth) rootValues.push_back(parseBandwidth(v).valueOr(0));
            }
        }
        if (r.kind == ResourceKind::Bandwidth) {
            r.bandwidthUnit = detectBandwidthUnit(fs, r, rootValues);
            applyControlMeaning(r, m_warnings);
            r.mbpsMode = r.bandwidthUnit == BandwidthUnit::MiBps;
            if (r.bandwidthUnit == BandwidthUnit::EighthGBps) {
                // The kernel's maximum (1 << CPUID 0x80000020 bandwidth length) is the default the root shows
                // unless someone lowered it; 2048 on every EPYC so far.
                r.maxBandwidth = 2048;
                for (auto v : rootValues)
                    r.maxBandwidth = std::max<unsigned>(
                        r.maxBandwidth, static_cast<unsigned>(std::min<std::uint64_t>(v, 1u << 20)));
            }
        }
        if (r.isCache() && r.cbmBits > 0 && !r.domains.empty()) {
            if (auto sz = rootSize.value(r.name, r.domains.empty() ? 0 : r.domains.front())) {
                const auto rootMask = parseMask(rootSchemata.value(r.name, r.domains.front()).value_or("0")).valueOr(0);
                const auto bits = static_cast<unsigned>(std::popcount(rootMask));
                if (bits > 0) r.bytesPerBit = parseBandwidth(*sz).valueOr(0) / bits;
            }
        }
        if (r.name == "L3CODE" || r.name == "L3DATA") caps.cdpL3 = true;
        if (r.name == "L2CODE" || r.name == "L2DATA") caps.cdpL2 = true;
        if (r.numClosids > 0) minClosids = std::min(minClosids, r.numClosids);
        (r.origins.known("num_closids") ? closidsRead : closidsUnknown).push_back(base + "num_closids");
        caps.resources.push_back(std::move(r));
    }
    // The described controls of a resource that are schemata lines of their own (MB_REGION0_MIN of info/MB): each
    // is a bandwidth control with the resource's CLOSIDs and the domains of its root line.
    // In the root schemata's order, as the kernel lists them.
    for (const auto& [dir, controls] : described)
        for (const auto& c : controls)
            if (c.name != dir && !rootSchemata.has(c.name))
                m_warnings.push_back("info/" + dir + "/resource_schemata/" + c.name
                    + " describes a control the root schemata has no line for: not offered");
    for (const auto& line : rootSchemata.lines()) {
        const auto in = describedIn.find(line.resource);
        if (in == describedIn.end()) continue;
        const std::string& dir = in->second;
        const ResourceCaps* parent = caps.resource(dir);
        for (const auto& c : described[dir]) {
            if (c.name != line.resource || c.name == dir || caps.resource(c.name) || !c.scalar()) continue;
            ResourceCaps r;
            r.name = c.name;
            r.kind = ResourceKind::Bandwidth;
            r.infoDir = dir;
            r.description = c;
            r.numClosids = parent ? parent->numClosids : 0;
            if (!parent || !parent->origins.known("num_closids"))
                r.origins.mark("num_closids", InfoOrigin::Unknown, "info/" + dir + "/num_closids is not known");
            r.minBandwidth = 0;
            r.maxBandwidth = UINT32_MAX;
            r.bandwidthGran = 1;
            r.origins.mark("min_bandwidth", InfoOrigin::Unknown, "a described control has no min_bandwidth file");
            r.origins.mark("bandwidth_gran", InfoOrigin::Unknown, "a described control has no bandwidth_gran file");
            for (const auto& [d, v] : line.values)
                r.domains.push_back(d);
            r.bandwidthUnit = BandwidthUnit::Described;
            applyControlMeaning(r, m_warnings);
            caps.resources.push_back(std::move(r));
        }
    }
    // A tree without sparse_masks (kernels before 6.7) on AMD: Linux has always accepted any CBM there
    // (arch_has_sparse_bitmasks, and cbm_validate_amd before it), and AMD shows in its bandwidth resources.
    const bool amd = std::any_of(caps.resources.begin(), caps.resources.end(),
        [](const ResourceCaps& r) { return r.bandwidthUnit == BandwidthUnit::EighthGBps; });
    if (amd)
        for (auto& r : caps.resources)
            if (r.isCache() && !r.origins.known("sparse_masks")) {
                r.sparseMasks = true;
                r.origins.mark("sparse_masks", InfoOrigin::Inferred,
                    "from AMD's bandwidth resources: Linux accepts any CBM on AMD; info/" + r.name
                        + "/sparse_masks is missing");
            }
    loadMonDataDomains(fs, caps);
    auto& mon = caps.monitoring;
    if (mon.present && mon.domains.empty()) {
        // Without mon_data no counter can be read; the L3 domains the schemata names say how many there would be.
        const auto* l3 = rootSchemata.line("L3") ? rootSchemata.line("L3") : rootSchemata.line("L3CODE");
        if (l3)
            for (const auto& [d, v] : l3->values)
                mon.inferredDomains.push_back(d);
        const std::string why = fs.exists("mon_data") ? "mon_data holds no mon_L3_XX domain" : "mon_data is missing";
        mon.origins.mark("domains", l3 ? InfoOrigin::Inferred : InfoOrigin::Unknown,
            l3 ? "from the root schemata's " + l3->resource + " line; " + why + ", so no counter can be read" : why);
        m_warnings.push_back(why + ": L3_MON is enumerated but no monitoring counter can be read");
    }
    // CLOSID 0 belongs to the default group, and the kernel uses the minimum over all resources (KGRP). With every
    // num_closids missing the count is unknown (0); with some missing, the minimum of the others is only a bound.
    auto joined = [](const std::vector<std::string>& v) {
        std::string t;
        for (const auto& x : v)
            t += (t.empty() ? "" : ", ") + x;
        return t;
    };
    if (caps.resources.empty()) {
        caps.maxControlGroups = 1;
    } else if (minClosids == UINT_MAX) {
        caps.maxControlGroups = 0;
        caps.origins.mark("max_control_groups", InfoOrigin::Unknown,
            "no num_closids could be read: " + joined(closidsUnknown) + (closidsUnknown.size() == 1 ? " is" : " are")
                + " missing or unreadable");
    } else {
        caps.maxControlGroups = minClosids;
        if (!closidsUnknown.empty())
            caps.origins.mark("max_control_groups", InfoOrigin::Inferred,
                "from " + joined(closidsRead) + " only; " + joined(closidsUnknown)
                    + (closidsUnknown.size() == 1 ? " is" : " are") + " missing or unreadable");
    }
    // io_alloc holds the highest CLOSID while enabled: no group can have it.
    const bool ioAllocOn = std::any_of(
        caps.resources.begin(), caps.resources.end(), [](const ResourceCaps& r) { return r.ioAllocEnabled(); });
    if (ioAllocOn && caps.maxControlGroups > 1) --caps.maxControlGroups;
    caps.monitoring.counterWidth = 64; // the kernel extends MBM counters itself (MBM_OVERFLOW_INTERVAL)
    caps.handlesTasks = true;
    caps.cpus = onlineCpusOfTree();
    if (caps.resources.empty() && !caps.monitoring.present && !fs.exists("schemata"))
        return errnoError(ENOENT, fs.describe() + " has no info/ resources and no schemata",
            "is this a resctrl mount? check `mount -t resctrl`");
    return caps;
}

std::vector<unsigned> ResctrlCapabilityReader::onlineCpusOfTree()
{
    Fs& fs = m_tree.fs();
    // Every online CPU belongs to exactly one control group (the root holds those no other group took), so the
    // union of the control groups' cpus_list is the set of online CPUs (KDOC "cpus" / "cpus_list").
    std::vector<unsigned> all;
    auto addGroup = [&](const std::string& group) {
        if (auto l = fs.read(m_tree.join(group, "cpus_list"))) {
            if (auto ids = parseIdList(*l, kernelCpuBound())) all.insert(all.end(), ids->begin(), ids->end());
        } else if (auto m = fs.read(m_tree.join(group, "cpus"))) {
            if (auto ids = parseCpuMask(*m, kernelCpuBound())) all.insert(all.end(), ids->begin(), ids->end());
        }
    };
    addGroup("");
    if (auto entries = fs.list(""))
        for (const auto& n : *entries)
            if (n != "info" && n != "mon_groups" && n != "mon_data" && fs.isDirectory(n)) addGroup(n);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

} // namespace rdt
