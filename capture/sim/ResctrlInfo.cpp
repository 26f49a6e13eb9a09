// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation's info/ directory: which resources it lists and what their files read
// (fs/resctrl/rdtgroup.c res_common_files, as summarised in docs/RESCTRL.md).
#include "SimResctrlFs.h"

#include <cstdio>

namespace rdt::sim {

std::vector<std::string> SimResctrlFs::infoDirs() const
{
    std::vector<std::string> out;
    for (const auto& s : m_schemas)
        out.push_back(s.name);
    if (monitoring()) out.push_back("L3_MON");
    if (telemetry()) out.push_back("PERF_PKG_MON");
    return out;
}

std::vector<std::string> SimResctrlFs::infoFiles(const std::string& dir) const
{
    if (dir == "L3_MON") {
        std::vector<std::string> files { "max_threshold_occupancy", "mon_features", "num_rmids" };
        for (auto& f : amdMonInfoFiles())
            files.push_back(std::move(f));
        return files;
    }
    if (dir == "PERF_PKG_MON") return { "mon_features", "num_rmids" };
    if (dir == "L3_MON/event_configs") return { "mbm_local_bytes", "mbm_total_bytes" };
    if (dir == "L3_MON/event_configs/mbm_local_bytes" || dir == "L3_MON/event_configs/mbm_total_bytes")
        return { "event_filter" };
    for (const auto& s : m_schemas)
        if (s.name == dir) {
            if (s.kind == SchemaKind::MB && m_machine.features().mba.absolute()) // AMD: no throttle mode
                return { "bandwidth_gran", "delay_linear", "min_bandwidth", "num_closids" };
            if (s.kind == SchemaKind::MB)
                return { "bandwidth_gran", "delay_linear", "min_bandwidth", "num_closids", "thread_throttle_mode" };
            return { "bit_usage", "cbm_mask", "min_cbm_bits", "num_closids", "shareable_bits", "sparse_masks" };
        }
    return {};
}

Result<std::string> SimResctrlFs::readInfo(const std::string& dir, const std::string& file)
{
    const SimFeatures& f = m_machine.features();
    if (dir.empty()) return m_status.empty() ? std::string("ok\n") : m_status;
    if (dir == "L3_MON") {
        if (file == "num_rmids") return std::to_string(rmidsPerNode()) + "\n";
        if (file == "max_threshold_occupancy") return std::to_string(m_threshold) + "\n";
        if (file != "mon_features") return readAmdMonInfo(dir, file);
        std::string s;
        const bool has[] = { f.mon.occupancy, f.mon.mbmTotal, f.mon.mbmLocal };
        for (int e = 0; e < 3; ++e) // BMEC lists each configurable event's _config file after it
            if (has[e])
                s += std::string(kL3MonEvents[e]) + "\n"
                    + (e > 0 && bmecFiles() ? kL3MonEvents[e] + std::string("_config\n") : "");
        return s;
    }
    if (dir.rfind("L3_MON/", 0) == 0) return readAmdMonInfo(dir, file);
    if (dir == "PERF_PKG_MON") return readTelemetryInfo(file);
    for (const auto& s : m_schemas) {
        if (s.name != dir) continue;
        char buf[32];
        if (file == "num_closids") return std::to_string(s.numClosid) + "\n";
        if (s.kind == SchemaKind::MB) {
            const MbaCaps& m = f.mba;
            const unsigned gran = m.absolute() ? 1 : m.maxDelay <= 100 ? 100 - m.maxDelay : 1;
            if (file == "min_bandwidth") return std::to_string(m.absolute() ? 0 : gran) + "\n";
            if (file == "bandwidth_gran") return std::to_string(gran) + "\n";
            if (file == "delay_linear") return std::string(m.linear ? "1" : "0") + "\n";
            return std::string(m.perThread ? "per-thread" : "max") + "\n";
        }
        const CatCaps& cat = catOf(s);
        if (file == "cbm_mask") {
            std::snprintf(buf, sizeof buf, "%x\n", cat.fullMask());
            return std::string(buf);
        }
        if (file == "min_cbm_bits") return std::to_string(m_options.minCbmBits) + "\n";
        if (file == "shareable_bits") {
            std::snprintf(buf, sizeof buf, "%x\n", cat.shareableBits);
            return std::string(buf);
        }
        if (file == "sparse_masks") return std::string(cat.sparse ? "1" : "0") + "\n";
        return bitUsage(s);
    }
    return errnoError(ENOENT, "no such info file " + dir + "/" + file);
}

} // namespace rdt::sim
