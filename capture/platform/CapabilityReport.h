// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/CpuFeatures.h"
#include "platform/Environment.h"
#include "platform/Topology.h"

#include <string>
#include <vector>

namespace rdt {

/// One line of the machine description: what `rdtscope-cli info` prints and the GUI Machine panel shows
/// (both render exactly this list, in this order).
struct CapabilityLine {
    std::string group; ///< "Identity", "RDT monitoring", "Cache allocation", "Memory bandwidth allocation", ...
    std::string name; ///< "L3 CBM length"
    std::string value; ///< "11 bits (cbm_mask 0x7ff)"; masks in hex; "no" when absent
    bool present = false; ///< the feature exists / the value is meaningful
    std::string origin; ///< "CPUID.(EAX=10H,ECX=1):EAX[4:0]" or "/sys/fs/resctrl/info"
    std::string sdmSection; ///< "20.19.4.2"; empty for environment lines
    std::string whyNot; ///< when !present: why, and what would fix it
};

/// Group names, in report order.
namespace capgroup {
inline constexpr const char* Identity = "Identity";
inline constexpr const char* Monitoring = "RDT monitoring";
inline constexpr const char* CacheAllocation = "Cache allocation";
inline constexpr const char* Mba = "Memory bandwidth allocation";
inline constexpr const char* Cba = "Cache bandwidth allocation";
inline constexpr const char* AmdQos = "AMD Platform QoS"; ///< only for AMD/Hygon CPUs
inline constexpr const char* Caches = "Caches";
inline constexpr const char* Perfmon = "Performance monitoring";
inline constexpr const char* Lbr = "Architectural LBR";
inline constexpr const char* PerfmonExt = "Performance monitoring extended";
inline constexpr const char* CoreTypes = "Core types"; ///< hybrid dumps: one line per core type (CoreTypeView.h)
inline constexpr const char* Environment = "Environment";
inline constexpr const char* Topology = "Topology";
inline constexpr const char* Warnings = "Warnings";
}

struct CapabilityReport {
    std::string source; ///< where CPUID came from (CpuidSource::describe())
    std::vector<CapabilityLine> lines;
    /// The one-line summary of why RDT is unusable here (empty when it is usable), e.g.
    /// "CPUID.(EAX=07H,ECX=0):EBX[12]=0 and EBX[15]=0: the CPU enumerates no RDT; hypervisor: running in a VM;
    /// no resctrl in the kernel" (a vendor that is neither Intel nor AMD is named first).
    std::string rdtWhyNot;
    /// True when an EnvironmentProbe was given (a live machine); a dump only says what its CPU enumerates.
    bool environmentProbed = false;
};

/// Builds the report. `environment` and `topology` are optional: a dump of another machine has neither
/// (pass nullptr), and then no Environment/Topology lines are produced.
CapabilityReport buildCapabilityReport(
    const CpuFeatures& features, const EnvironmentProbe* environment, const Topology* topology);

/// Plain text, one capability per line, grouped: `  L3 CBM length: 11 bits (0x7ff)  [CPUID...; SDM 20.19.4.2]`.
std::string formatCapabilityReportText(const CapabilityReport& report);
/// JSON object {"source":..., "rdtWhyNot":..., "capabilities":[{group,name,value,present,origin,sdm,whyNot}]}.
std::string formatCapabilityReportJson(const CapabilityReport& report);

} // namespace rdt
