// SPDX-License-Identifier: GPL-3.0-or-later
#include "LoadLatencyOrigin.h"

namespace rdt::perfdata {

std::string LoadLatencyOrigin::describe() const
{
    std::string s;
    const char* thresholdName = "ldlat";
    switch (facility) {
    case Facility::IntelPebs:
        s = "Intel PEBS load latency";
        break;
    case Facility::AmdIbsOp:
        s = "AMD IBS op";
        if (l3MissOnly) s += ", l3missonly";
        break;
    case Facility::ArmSpe:
        s = "Arm SPE";
        thresholdName = "min_latency";
        break;
    default:
        return "unknown facility";
    }
    if (threshold) s += std::string(", ") + thresholdName + " " + std::to_string(*threshold);
    return s;
}

LoadLatencyOrigin loadLatencyOrigin(const pmu::EventAttr& attr, const HeaderInfo& header)
{
    LoadLatencyOrigin o;
    const std::string pmu = header.pmuName(attr.type);
    // Synthesized SPE samples (perf's arm-spe decoder) carry the PMU of the arm_spe event the file recorded.
    bool spe = pmu.rfind("arm_spe", 0) == 0;
    for (const auto& e : header.events)
        spe = spe || header.pmuName(e.attr.type).rfind("arm_spe", 0) == 0 || e.name.rfind("arm_spe", 0) == 0;
    if (spe) {
        o.facility = LoadLatencyOrigin::Facility::ArmSpe;
        // Linux drivers/perf/arm_spe_pmu.c: PMU_FORMAT_ATTR(min_latency, "config2:0-11"), on the arm_spe event.
        for (const auto& e : header.events)
            if (header.pmuName(e.attr.type).rfind("arm_spe", 0) == 0 && (e.attr.config2 & 0xfffu))
                o.threshold = static_cast<std::uint32_t>(e.attr.config2 & 0xfffu);
        return o;
    }
    if (pmu == "ibs_op") {
        // Linux arch/x86/events/amd/ibs.c: l3missonly "config:16", ldlat "config1:0-11" (Zen 5).
        o.facility = LoadLatencyOrigin::Facility::AmdIbsOp;
        o.l3MissOnly = (attr.config >> 16) & 1u;
        if (attr.config1 & 0xfffu) o.threshold = static_cast<std::uint32_t>(attr.config1 & 0xfffu);
        return o;
    }
    const bool intelCpu = header.cpuId.rfind("GenuineIntel", 0) == 0;
    const bool coreName = pmu == "cpu" || pmu == "cpu_core" || pmu == "cpu_atom";
    if (intelCpu || (header.cpuId.empty() && coreName)) {
        // arch/x86/events/intel/core.c: PMU_FORMAT_ATTR(ldlat, "config1:0-15") (docs/PMU.md "PEBS load latency").
        o.facility = LoadLatencyOrigin::Facility::IntelPebs;
        if (attr.config1 & 0xffffu) o.threshold = static_cast<std::uint32_t>(attr.config1 & 0xffffu);
    }
    return o;
}

} // namespace rdt::perfdata
