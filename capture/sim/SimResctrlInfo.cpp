// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation's info/ directory: which resources it lists and what their files read
// (fs/resctrl/rdtgroup.c res_common_files, as summarised in docs/RESCTRL.md).
#include "SimResctrlInfo.h"

#include "SimMachine.h"
#include "SimResctrlAmdMonitoring.h"
#include "SimResctrlControls.h"
#include "SimResctrlMonitoring.h"
#include "SimResctrlTelemetry.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>

namespace rdt::sim {

SimResctrlInfo::SimResctrlInfo(SimMachine& machine, const ResctrlMountOptions& options, const SimCmdStatus& status,
    const SimResctrlControls& controls, SimResctrlMonitoring& monitoring, SimResctrlAmdMonitoring& amd,
    const SimResctrlTelemetry& telemetry)
    : m_machine(machine)
    , m_options(options)
    , m_status(status)
    , m_controls(controls)
    , m_monitoring(monitoring)
    , m_amd(amd)
    , m_telemetry(telemetry)
{ }

std::vector<std::string> SimResctrlInfo::dirs() const
{
    std::vector<std::string> out;
    for (const auto& s : m_controls.schemas())
        if (s.infoDir) out.push_back(s.name);
    if (m_monitoring.present()) out.push_back("L3_MON");
    if (m_telemetry.enabled()) out.push_back("PERF_PKG_MON");
    return out;
}

std::vector<std::string> SimResctrlInfo::files(const std::string& dir) const
{
    if (dir == "L3_MON") {
        std::vector<std::string> files { "max_threshold_occupancy", "mon_features", "num_rmids" };
        for (auto& f : m_amd.infoFiles())
            files.push_back(std::move(f));
        return files;
    }
    if (dir == "PERF_PKG_MON") return { "mon_features", "num_rmids" };
    if (dir == "L3_MON/event_configs") return { "mbm_local_bytes", "mbm_total_bytes" };
    if (dir == "L3_MON/event_configs/mbm_local_bytes" || dir == "L3_MON/event_configs/mbm_total_bytes")
        return { "event_filter" };
    // info/<dir>/resource_schemata/ and its controls' descriptions (the 2026 "Generic schema description" RFC).
    const auto& bw = m_controls.bandwidthControls();
    if (const auto at = dir.find("/resource_schemata"); at != std::string::npos) {
        const std::string res = dir.substr(0, at), rest = dir.substr(at + 18);
        const auto controls = bw.describedControls(res);
        if (rest.empty()) return controls;
        if (std::find(controls.begin(), controls.end(), rest.substr(1)) != controls.end())
            return { "max", "min", "resolution", "scale", "scope", "tolerance", "type", "unit" };
        return {};
    }
    for (const auto& s : m_controls.schemas())
        if (s.name == dir && s.infoDir) {
            if (s.kind == SchemaKind::MbMin || s.kind == SchemaKind::MbWeight) return bw.legacyFiles(s);
            std::vector<std::string> files;
            // AMD and MPAM: no thread_throttle_mode (an x86 Intel file).
            if (s.kind == SchemaKind::MB
                && (m_machine.features().mba.absolute() || m_machine.options().dialect == ResctrlDialect::ArmMpam))
                files = { "bandwidth_gran", "delay_linear", "min_bandwidth", "num_closids" };
            else if (s.kind == SchemaKind::MB)
                files = { "bandwidth_gran", "delay_linear", "min_bandwidth", "num_closids", "thread_throttle_mode" };
            if (!files.empty()) {
                if (!bw.describedControls(dir).empty()) files.push_back("resource_schemata");
                return files;
            }
            return { "bit_usage", "cbm_mask", "min_cbm_bits", "num_closids", "shareable_bits", "sparse_masks" };
        }
    return {};
}

Result<std::string> SimResctrlInfo::read(const std::string& dir, const std::string& file)
{
    const SimFeatures& f = m_machine.features();
    if (dir.empty()) return m_status.read();
    if (dir == "L3_MON") {
        if (file == "num_rmids") return std::to_string(m_monitoring.rmidsPerNode()) + "\n";
        if (file == "max_threshold_occupancy") return std::to_string(m_monitoring.threshold()) + "\n";
        if (file != "mon_features") return m_amd.readInfo(dir, file);
        std::string s;
        const bool has[] = { f.mon.occupancy, f.mon.mbmTotal, f.mon.mbmLocal };
        for (int e = 0; e < 3; ++e) // BMEC lists each configurable event's _config file after it
            if (has[e])
                s += std::string(kL3MonEvents[e]) + "\n"
                    + (e > 0 && m_amd.bmecFiles() ? kL3MonEvents[e] + std::string("_config\n") : "");
        return s;
    }
    if (dir.rfind("L3_MON/", 0) == 0) return m_amd.readInfo(dir, file);
    if (dir == "PERF_PKG_MON") return m_telemetry.readInfo(file);
    if (const auto at = dir.find("/resource_schemata/"); at != std::string::npos)
        return m_controls.bandwidthControls().describe(dir.substr(at + 19), file);
    for (const auto& s : m_controls.schemas()) {
        if (s.name != dir) continue;
        char buf[32];
        if (file == "num_closids") return std::to_string(s.numClosid) + "\n";
        if (s.kind == SchemaKind::MbMin || s.kind == SchemaKind::MbWeight)
            return m_controls.bandwidthControls().readLegacy(s, file);
        if (s.kind == SchemaKind::MB) {
            const MbaCaps& m = f.mba;
            const unsigned gran = m.absolute() ? 1 : m.maxDelay <= 100 ? 100 - m.maxDelay : 1;
            if (file == "min_bandwidth") return std::to_string(m.absolute() ? 0 : gran) + "\n";
            if (file == "bandwidth_gran") return std::to_string(gran) + "\n";
            if (file == "delay_linear") return std::string(m.linear ? "1" : "0") + "\n";
            return std::string(m.perThread ? "per-thread" : "max") + "\n";
        }
        const CatCaps& cat = m_controls.catOf(s);
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
        return m_controls.bitUsage(s);
    }
    return errnoError(ENOENT, "no such info file " + dir + "/" + file);
}

Status SimResctrlInfo::write(
    const std::string& path, const std::string& dir, const std::string& file, const std::string& data)
{
    if (dir == "L3_MON" && file == "max_threshold_occupancy") return m_monitoring.writeThreshold(path, data);
    if (dir == "L3_MON" && file != "mon_features" && file != "num_rmids") return m_amd.writeInfo(file, data);
    return errnoError(EACCES, "cannot write " + path + ": read-only file");
}

} // namespace rdt::sim
