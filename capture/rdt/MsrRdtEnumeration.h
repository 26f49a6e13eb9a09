// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace rdt {

/// What the MSR backend needs from CPUID (filled from platform's CpuFeatures or by tests/simulator presets).
struct MsrRdtEnumeration {
    // Monitoring, CPUID.0FH (20.18.5).
    unsigned maxRmid = 0; ///< CPUID.0FH.01H:ECX (highest RMID)
    std::uint64_t upscalingFactor = 1; ///< CPUID.0FH.01H:EBX, bytes per counter unit
    unsigned mbmWidth = 24; ///< 24 + CPUID.0FH.01H:EAX[7:0]
    bool overflowBit = false; ///< CPUID.0FH.01H:EAX[8]
    bool llcOccupancy = false, mbmTotal = false, mbmLocal = false; ///< CPUID.0FH.01H:EDX[0..2]
    // L3 CAT / CDP, CPUID.10H.01H (20.19.4.2).
    bool l3Cat = false;
    unsigned l3CbmLength = 0; ///< EAX[4:0] + 1
    std::uint64_t l3Shareable = 0; ///< EBX
    bool l3Cdp = false; ///< ECX[2]
    bool l3Sparse = false; ///< ECX[3]
    unsigned l3MaxClos = 0; ///< EDX[15:0] (highest CLOS, 0-based)
    std::uint64_t l3BytesPerBit = 0; ///< from CPUID.04H; 0 when unknown
    // L2 CAT, CPUID.10H.02H.
    bool l2Cat = false;
    unsigned l2CbmLength = 0;
    std::uint64_t l2Shareable = 0;
    bool l2Cdp = false;
    bool l2Sparse = false;
    unsigned l2MaxClos = 0;
    // MBA, CPUID.10H.03H (20.19.7.1).
    bool mba = false;
    unsigned mbaMaxDelay = 0; ///< EAX[11:0] + 1 (MBA_MAX)
    bool mbaLinear = false; ///< ECX[2]
    unsigned mbaMaxClos = 0;
    // CBA, CPUID.10H.05H (20.19.8.2).
    bool cba = false;
    unsigned cbaMaxLevel = 0;
    unsigned cbaMaxClos = 0;
    // Topology: L3 (and L2) cache id of every CPU; index = CPU number (sysfs), -1 for an offline CPU.
    std::vector<int> l3IdOfCpu;
    std::vector<int> l2IdOfCpu;
};

} // namespace rdt
