// SPDX-License-Identifier: GPL-3.0-or-later
// ResctrlBackend, part 2: what info/ and the root group say the machine can do, and who else uses RDT here.
#include "ResctrlBackend.h"
#include "ResctrlInfoLoad.h"
#include "core/Text.h"

#include "core/IdList.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>

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

std::string ResourceCaps::defaultValue() const
{
    if (isCache()) {
        return hexDigits(cbmMask);
    }
    if (bandwidthUnit == BandwidthUnit::EighthGBps) return std::to_string(maxBandwidth);
    return mbpsMode ? std::to_string(UINT32_MAX) : "100";
}

const ResourceCaps* Capabilities::resource(const std::string& n) const
{
    for (const auto& r : resources)
        if (r.name == n) return &r;
    return nullptr;
}

Result<Capabilities> ResctrlBackend::loadCapabilities()
{
    Capabilities caps;
    m_capWarnings.clear();
    // A tree copy can hold anything where the root's schemata should be (nothing, CRLF, bytes, a directory):
    // what cannot be read leaves the resources without domains, said in a warning, never assumed.
    Schemata rootSchemata;
    if (auto s = m_fs->read("schemata")) {
        if (auto p = Schemata::parse(*s))
            rootSchemata = std::move(*p);
        else
            m_capWarnings.push_back("the root schemata is unreadable as schemata (" + p.error().message
                + "): allocation is not possible through " + m_fs->describe());
    } else if (m_fs->exists("schemata")) {
        m_capWarnings.push_back("cannot read the root schemata: " + s.error().toString());
    }
    Schemata rootSize;
    if (auto s = m_fs->read("size")) {
        if (auto p = Schemata::parse(*s)) rootSize = std::move(*p);
    }
    std::vector<std::string> infoDirs;
    if (auto l = m_fs->list("info")) infoDirs = std::move(*l);
    unsigned minClosids = UINT_MAX;
    for (const auto& dir : infoDirs) {
        const std::string base = "info/" + dir + "/";
        if (!m_fs->isDirectory("info/" + dir)) continue;
        if (dir == "PERF_PKG_MON") {
            loadTelemetryCaps(*m_fs, base, caps.telemetry);
            continue;
        }
        if (dir.size() > 4 && dir.compare(dir.size() - 4, 4, "_MON") == 0) {
            if (dir != "L3_MON") {
                m_capWarnings.push_back("info/" + dir + " is a monitoring resource rdtscope does not know: not shown");
                continue;
            }
            auto& m = caps.monitoring;
            m.present = true;
            m.numRmids = static_cast<unsigned>(readNumber(*m_fs, base + "num_rmids").value_or(0));
            m.maxThresholdOccupancy = readNumber(*m_fs, base + "max_threshold_occupancy").value_or(0);
            if (auto f = m_fs->read(base + "mon_features")) {
                std::string_view rest = *f;
                while (!rest.empty()) {
                    auto nl = rest.find('\n');
                    auto feature = trim(rest.substr(0, nl));
                    if (!feature.empty()) m.features.emplace_back(feature);
                    rest = nl == std::string_view::npos ? std::string_view {} : rest.substr(nl + 1);
                }
            }
            for (const auto& f : m.features) {
                m.llcOccupancy |= f == "llc_occupancy";
                m.mbmTotal |= f == "mbm_total_bytes";
                m.mbmLocal |= f == "mbm_local_bytes";
            }
            loadMonitorExtras(*m_fs, base, m, m_capWarnings);
            continue;
        }
        ResourceCaps r;
        r.name = dir;
        r.numClosids = static_cast<unsigned>(readNumber(*m_fs, base + "num_closids").value_or(0));
        if (m_fs->exists(base + "cbm_mask")) {
            r.kind = ResourceKind::Cache;
            r.cbmMask = readNumber(*m_fs, base + "cbm_mask", 16).value_or(0);
            if (r.cbmMask == 0) {
                m_capWarnings.push_back("info/" + dir + "/cbm_mask is unreadable or zero: " + dir + " is not offered");
                continue;
            }
            r.cbmBits = static_cast<unsigned>(std::popcount(r.cbmMask));
            r.minCbmBits = static_cast<unsigned>(readNumber(*m_fs, base + "min_cbm_bits").value_or(1));
            r.shareableBits = readNumber(*m_fs, base + "shareable_bits", 16).value_or(0);
            r.sparseMasks = readNumber(*m_fs, base + "sparse_masks").value_or(0) != 0;
            loadIoAlloc(*m_fs, base, r, m_capWarnings);
        } else if (m_fs->exists(base + "min_bandwidth") || m_fs->exists(base + "bandwidth_gran")) {
            r.kind = ResourceKind::Bandwidth;
            r.minBandwidth = static_cast<unsigned>(readNumber(*m_fs, base + "min_bandwidth").value_or(0));
            r.bandwidthGran = static_cast<unsigned>(readNumber(*m_fs, base + "bandwidth_gran").value_or(1));
            r.delayLinear = readNumber(*m_fs, base + "delay_linear").value_or(1) != 0;
            if (auto t = m_fs->read(base + "thread_throttle_mode")) r.throttleMode = std::string(trim(*t));
        } else {
            continue; // an info dir we do not know (future resource): not an allocation resource we can drive
        }
        if (!rootSchemata.has(r.name))
            m_capWarnings.push_back("the root schemata has no " + r.name + " line although info/" + dir
                + " exists: its domains are unknown, so it cannot be changed");
        std::vector<std::uint64_t> rootValues;
        if (const auto* line = rootSchemata.line(r.name)) {
            for (const auto& [d, v] : line->values) {
                r.domains.push_back(d);
                if (r.kind == ResourceKind::Bandwidth) rootValues.push_back(parseBandwidth(v).valueOr(0));
            }
        }
        if (r.kind == ResourceKind::Bandwidth) {
            r.bandwidthUnit = detectBandwidthUnit(*m_fs, r, rootValues);
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
        caps.resources.push_back(std::move(r));
    }
    loadMonDataDomains(*m_fs, caps);
    // CLOSID 0 belongs to the default group, and the kernel uses the minimum over all resources (KGRP).
    caps.maxControlGroups = minClosids == UINT_MAX ? 1 : minClosids;
    // io_alloc holds the highest CLOSID while enabled: no group can have it.
    const bool ioAllocOn = std::any_of(
        caps.resources.begin(), caps.resources.end(), [](const ResourceCaps& r) { return r.ioAllocEnabled(); });
    if (ioAllocOn && caps.maxControlGroups > 1) --caps.maxControlGroups;
    caps.monitoring.counterWidth = 64; // the kernel extends MBM counters itself (MBM_OVERFLOW_INTERVAL)
    caps.handlesTasks = true;
    caps.cpus = onlineCpusOfTree();
    if (caps.resources.empty() && !caps.monitoring.present && !m_fs->exists("schemata"))
        return errnoError(ENOENT, m_fs->describe() + " has no info/ resources and no schemata",
            "is this a resctrl mount? check `mount -t resctrl`");
    return caps;
}

std::vector<unsigned> ResctrlBackend::onlineCpusOfTree()
{
    // Every online CPU belongs to exactly one control group (the root holds those no other group took), so the
    // union of the control groups' cpus_list is the set of online CPUs (KDOC "cpus" / "cpus_list").
    std::vector<unsigned> all;
    auto addGroup = [&](const std::string& group) {
        if (auto l = m_fs->read(join(group, "cpus_list"))) {
            if (auto ids = parseIdList(*l, kernelCpuBound())) all.insert(all.end(), ids->begin(), ids->end());
        } else if (auto m = m_fs->read(join(group, "cpus"))) {
            if (auto ids = parseCpuMask(*m, kernelCpuBound())) all.insert(all.end(), ids->begin(), ids->end());
        }
    };
    addGroup("");
    if (auto entries = m_fs->list(""))
        for (const auto& n : *entries)
            if (n != "info" && n != "mon_groups" && n != "mon_data" && m_fs->isDirectory(n)) addGroup(n);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

std::vector<std::string> detectOtherRdtUsers(Fs& fs)
{
    std::vector<std::string> out;
    auto entries = fs.list("");
    if (!entries) return out;
    std::vector<std::string> pqos, pcm, cadvisor;
    auto scanMon = [&](const std::string& parent) {
        auto l = fs.list(parent.empty() ? "mon_groups" : parent + "/mon_groups");
        if (!l) return;
        for (const auto& n : *l) {
            const auto p = parent.empty() ? "mon_groups/" + n : parent + "/mon_groups/" + n;
            if (n.rfind("pcm", 0) == 0)
                pcm.push_back(p);
            else if (n.rfind("cadvisor", 0) == 0)
                cadvisor.push_back(p);
        }
    };
    scanMon("");
    for (const auto& n : *entries) {
        if (n == "info" || n == "mon_groups" || n == "mon_data" || !fs.isDirectory(n)) continue;
        if (n.size() > 3 && n.rfind("COS", 0) == 0
            && std::all_of(n.begin() + 3, n.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            pqos.push_back(n);
        else if (n.rfind("cadvisor", 0) == 0)
            cadvisor.push_back(n);
        scanMon(n);
    }
    auto joinList = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v)
            s += (s.empty() ? "" : ", ") + x;
        return s;
    };
    if (!pqos.empty())
        out.push_back("pqos/intel-cmt-cat groups present (" + joinList(pqos)
            + "): pqos may rewrite these CLOS; coordinate or run `pqos -R` when done");
    if (!pcm.empty())
        out.push_back("Intel PCM monitor groups present (" + joinList(pcm) + "): PCM is using RMIDs here");
    if (!cadvisor.empty())
        out.push_back("cAdvisor groups present (" + joinList(cadvisor) + "): a container runtime manages these");
    return out;
}

} // namespace rdt
