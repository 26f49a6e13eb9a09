// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace rdt {

class CpuidSource;
struct CpuFeatures;

/// AMD's performance-monitoring enumeration, which does not use Intel's leaf 0AH (AMD APM Vol. 2 13.2 and Vol. 3
/// CPUID Fn8000_0001 and Fn8000_0022; Linux arch/x86/include/asm/perf_event.h `union cpuid_0x80000022_ebx`).
struct AmdPerfmon {
    bool decoded = false; ///< AMD/Hygon and CPUID.80000001H was read
    bool coreExt = false; ///< CPUID.80000001H:ECX[23] PerfCtrExtCore: 6 core counters instead of the legacy 4
    bool dfExt = false; ///< ...ECX[24] PerfCtrExtDF (northbridge / data fabric counters)
    bool llcExt = false; ///< ...ECX[28] PerfCtrExtLLC (L3 counters)
    bool v2Known = false; ///< leaf 80000022H was within the maximum extended leaf and read
    bool perfMonV2 = false; ///< CPUID.80000022H:EAX[0] (global control and status MSRs)
    bool lbrV2 = false; ///< ...EAX[1] LbrStack
    bool lbrPmcFreeze = false; ///< ...EAX[2]
    unsigned coreCounters = 0; ///< ...EBX[3:0] NumPerfCtrCore
    unsigned lbrV2Depth = 0; ///< ...EBX[9:4] LbrV2StackSz
    unsigned dfCounters = 0; ///< ...EBX[15:10] NumPerfCtrNB (data fabric)
    unsigned umcCounters = 0; ///< ...EBX[21:16] NumPerfCtrUmc
    /// Core counters: PerfMonV2's count, else 6 with PerfCtrExtCore, else the 4 legacy ones every AMD64 CPU has.
    unsigned coreCounterCount() const { return perfMonV2 && coreCounters ? coreCounters : coreExt ? 6 : 4; }
};

/// Fills f.amdPerfmon for AMD/Hygon CPUs; leaves it undecoded otherwise.
void decodeAmdPerfmon(CpuidSource& source, CpuFeatures& f);

} // namespace rdt
