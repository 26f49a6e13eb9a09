// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The two CPUID facts the PMU recipes need from the live CPU: TMA slots per cycle (CPUID.23H.00H:ECX[7:0],
// SDM 22.2.9.6) and the architectural LBR depth (CPUID.1CH:EAX[7:0], SDM 21.1.2.2). The decoding lives in
// Tma.h / Recipes.h (tmaSlotsPerCycle, lbrDepthFromCpuid) so it is testable with any register values.

namespace rdt::pmu {

struct PmuCpuid {
    bool intel = false;
    unsigned maxLeaf = 0;
    unsigned slotsPerCycle = 4; ///< 4 when leaf 23H is absent or reports 0
    unsigned lbrDepth = 0; ///< 0 when leaf 1CH is absent (model-specific LBRs: the kernel knows their depth)
    bool archLbr = false; ///< CPUID.07H.00H:EDX[19]
};

/// Reads the live CPU (x86 only; elsewhere returns the defaults).
PmuCpuid readPmuCpuid();

} // namespace rdt::pmu
