// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace rdt {

class CpuidSource;
struct CpuFeatures;

/// AMD Platform QoS beyond the leaves AMD shares with Intel (07H RDT_M/RDT_A, 0FH L3 monitoring, 10H.1 L3 CAT, the
/// layout the kernel's resctrl reads for both vendors): the extended leaf 80000020H and MBA's bit in 80000008H.
/// Bit positions as the kernel enumerates them (arch/x86/kernel/cpu/scattered.c, resctrl core.c/monitor.c) and the
/// AMD64 Architecture Programmer's Manual vol. 3 ("Platform QoS Extended Features").
struct AmdQos {
    bool decoded = false; ///< the CPU is AMD/Hygon and leaf 80000008H was read
    std::uint32_t maxExtendedLeaf = 0; ///< CPUID.80000000H:EAX
    bool mba = false; ///< CPUID.80000008H:EBX[6] (X86_FEATURE_MBA on AMD)
    bool l3mbe = false; ///< CPUID.(EAX=80000020H,ECX=0):EBX[1] L3 memory bandwidth enforcement
    bool smba = false; ///< ...EBX[2] slow-memory (CXL) bandwidth enforcement
    bool bmec = false; ///< ...EBX[3] bandwidth monitoring event configuration
    bool abmc = false; ///< ...EBX[5] assignable bandwidth monitoring counters
    bool sdciae = false; ///< ...EBX[6] smart data cache injection allocation enforcement (resctrl io_alloc)
    unsigned mbaBandwidthLength = 0; ///< CPUID.(EAX=80000020H,ECX=1):EAX: limits are 0..(1 << length)
    std::uint32_t mbaHighestCos = 0; ///< ...ECX=1:EDX
    unsigned smbaBandwidthLength = 0; ///< ECX=2:EAX
    std::uint32_t smbaHighestCos = 0; ///< ECX=2:EDX
    unsigned bmecEvents = 0; ///< ECX=3:EBX[7:0]: configurable bandwidth events
    std::uint32_t bmecValidBits = 0; ///< ECX=3:ECX: transaction bits a configuration may set
    unsigned abmcCounters = 0; ///< ECX=5:EBX[15:0] + 1: assignable counters per L3 domain
    bool detailsKnown = false; ///< leaf 80000020H was enumerated and read
    /// MBA enumerated but CPUID.(EAX=80000020H,ECX=1) not readable (dumps without it, or a maximum extended leaf
    /// below 80000020H): its limits and CLOS count are unknown, said as such (as Intel's missing 10H.3 is)
    bool mbaDetailsMissing = false;
    std::uint32_t mbaMax() const { return mbaBandwidthLength < 32 ? 1u << mbaBandwidthLength : 0; }
};

/// Fills f.amdQos (and warnings) for AMD/Hygon CPUs; leaves it undecoded otherwise.
void decodeAmdQos(CpuidSource& source, CpuFeatures& f);

} // namespace rdt
