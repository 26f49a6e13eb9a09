// SPDX-License-Identifier: GPL-3.0-or-later
#include "BranchStackOrigin.h"

#include <algorithm>
#include <cstdlib>

namespace rdt::perfdata {

namespace {

using pmu::BranchStackSource;

/// perf's HEADER_CPUID on x86: "GenuineIntel,6,85,4" (vendor, family, model, stepping in decimal; perf
/// arch/x86/util/header.c get_cpuid).
struct X86Cpu {
    std::string vendor;
    unsigned family = 0, model = 0;
};

bool parseX86CpuId(const std::string& cpuId, X86Cpu& out)
{
    const auto c1 = cpuId.find(',');
    if (c1 == std::string::npos) return false;
    const auto c2 = cpuId.find(',', c1 + 1);
    if (c2 == std::string::npos) return false;
    out.vendor = cpuId.substr(0, c1);
    out.family = static_cast<unsigned>(std::strtoul(cpuId.c_str() + c1 + 1, nullptr, 10));
    out.model = static_cast<unsigned>(std::strtoul(cpuId.c_str() + c2 + 1, nullptr, 10));
    return true;
}

/// Intel cores whose LBR is the architectural one (CPUID leaf 0x1C; Linux arch/x86/events/intel/lbr.c
/// intel_pmu_arch_lbr_init runs where X86_FEATURE_ARCH_LBR is set): Sapphire/Emerald/Granite Rapids, Sierra
/// Forest, Grand Ridge, Alder/Raptor/Meteor/Arrow/Lunar Lake, and family 19 parts.
bool intelArchLbr(const X86Cpu& cpu)
{
    if (cpu.family > 6) return true;
    static constexpr unsigned models[]
        = { 0x8f, 0xcf, 0xad, 0xae, 0xaf, 0xb6, 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0xaa, 0xac, 0xc5, 0xc6, 0xbd };
    return std::find(std::begin(models), std::end(models), cpu.model) != std::end(models);
}

/// AMD family 19h models of Zen 3 (BRS, Linux arch/x86/events/amd/brs.c); later 19h models are Zen 4, and family
/// 1Ah is Zen 5, both with LbrExtV2 (arch/x86/events/amd/lbr.c).
bool amdZen3(const X86Cpu& cpu)
{
    return cpu.family == 0x19 && (cpu.model <= 0x0f || (cpu.model >= 0x20 && cpu.model <= 0x5f));
}

bool contains(const std::string& s, const char* what)
{
    return s.find(what) != std::string::npos;
}

} // namespace

pmu::BranchStackSource branchStackSource(const pmu::EventAttr& attr, const HeaderInfo& header)
{
    // Synthesized stacks come with the trace event they were built from (perf inject --itrace keeps its attr).
    auto traced = [&](const char* pmu) {
        for (const auto& e : header.events)
            if (contains(e.name, pmu) || contains(header.pmuName(e.attr.type), pmu)) return true;
        return contains(header.pmuName(attr.type), pmu);
    };
    if (traced("cs_etm")) return BranchStackSource::SynthesizedEtm;
    if (traced("arm_spe")) return BranchStackSource::SynthesizedSpe;
    if (traced("intel_pt")) return BranchStackSource::SynthesizedPt;
    if (header.arch == "aarch64" || header.arch == "arm64") return BranchStackSource::ArmBrbe;
    X86Cpu cpu;
    if (!parseX86CpuId(header.cpuId, cpu)) return BranchStackSource::Unknown;
    if (cpu.vendor == "GenuineIntel")
        return intelArchLbr(cpu) ? BranchStackSource::IntelArchLbr : BranchStackSource::IntelLbr;
    if (cpu.vendor == "AuthenticAMD" || cpu.vendor == "HygonGenuine")
        return amdZen3(cpu) ? BranchStackSource::AmdBrs
                            : (cpu.family >= 0x19 ? BranchStackSource::AmdLbrV2 : BranchStackSource::Unknown);
    return BranchStackSource::Unknown;
}

} // namespace rdt::perfdata
