// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AmdPerfmon.h"
#include "AmdQos.h"

#include "platform/CpuidSource.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt {

/// Everything rdtscope needs from CPUID, decoded once (SDM Vol. 3B 20.18.5, 20.19.4-20.19.8, 21.1, 22.2).
/// Fields hold the enumerated values; a feature whose leaf is missing or implausible stays "not present" and
/// gets a line in `warnings` instead of a guessed value (docs/RESCTRL.md "CPUID dumps": some mislabel sub-leaves).

struct CpuIdentity {
    std::string vendor; ///< CPUID.00H:EBX,EDX,ECX, e.g. "GenuineIntel"
    std::uint32_t maxBasicLeaf = 0; ///< CPUID.00H:EAX
    std::uint32_t maxExtendedLeaf = 0; ///< CPUID.80000000H:EAX
    std::uint32_t signature = 0; ///< CPUID.01H:EAX, e.g. 0x50654
    unsigned family = 0; ///< DisplayFamily (family + extended family when family == 0FH)
    unsigned model = 0; ///< DisplayModel (model + extended model << 4 when family is 06H or 0FH)
    unsigned stepping = 0;
    std::string brand; ///< CPUID.80000002H-80000004H, trimmed
    bool hypervisor = false; ///< CPUID.01H:ECX[31]
    bool isIntel() const { return vendor == "GenuineIntel"; }
    bool isAmd() const { return vendor == "AuthenticAMD" || vendor == "HygonGenuine"; }
};

/// CPUID.04H deterministic cache parameters, one per sub-leaf until type 0.
struct CacheInfo {
    std::uint32_t leaf = 4; ///< 04H, or 8000001DH (same layout) on AMD, which leaves 04H empty
    std::uint32_t subleaf = 0;
    unsigned level = 0; ///< EAX[7:5]
    std::string type; ///< "Data", "Instruction", "Unified" (EAX[4:0])
    unsigned ways = 0; ///< EBX[31:22] + 1
    unsigned partitions = 0; ///< EBX[21:12] + 1
    unsigned lineSize = 0; ///< EBX[11:0] + 1
    unsigned sets = 0; ///< ECX + 1
    unsigned maxSharingThreads = 0; ///< EAX[25:14] + 1
    bool inclusive = false; ///< EDX[1]
    bool complexIndexing = false; ///< EDX[2]
    /// AMD's legacy leaves 80000005H (L1) and 80000006H (L2, L3), read when 8000001DH is not there: they state the
    /// size directly and the associativity as an encoding, often a range; ways and sets are then 0 (unknown) and
    /// the sharing count is unknown (0).
    std::uint64_t statedBytes = 0;
    std::string waysText; ///< the associativity as the encoding gives it: "12-way", "8 to 15 ways", "fully associative"
    std::uint64_t sizeBytes() const
    {
        return statedBytes ? statedBytes : std::uint64_t(ways) * partitions * lineSize * sets;
    }
};

/// RDT monitoring (SDM 20.18.5): CPUID.07H.00H:EBX[12], leaf 0FH.
struct RdtMonitoring {
    bool supported = false; ///< CPUID.07H.00H:EBX.RDT_M[12]
    std::uint32_t highestRmidAny = 0; ///< CPUID.0FH.00H:EBX, highest RMID of any resource
    unsigned rmidFieldWidth = 0; ///< Ceil(Log2(1 + CPUID.0FH.00H:EBX)) (20.18.6)
    bool l3 = false; ///< CPUID.0FH.00H:EDX[1]
    bool l3DetailsKnown = false; ///< CPUID.0FH.01H was read and passed validation; fields below are valid
    // CPUID.0FH.01H (valid when l3)
    std::uint32_t upscalingFactor = 0; ///< EBX: bytes per counter unit
    std::uint32_t highestRmid = 0; ///< ECX; RMIDs = highestRmid + 1
    bool occupancy = false; ///< EDX[0] L3 occupancy (event 01H)
    bool totalBandwidth = false; ///< EDX[1] L3 total external bandwidth (event 02H)
    bool localBandwidth = false; ///< EDX[2] L3 local external bandwidth (event 03H)
    unsigned counterWidth = 0; ///< MBM counter width 24 + EAX[7:0] (20.18.5.2); 0 when unknown
    /// AMD: EAX[7:0] = 0 means 24 + 20 = 44 bits (Linux resctrl MBM_CNTR_WIDTH_OFFSET_AMD), not 24
    bool counterWidthAmdDefault = false;
    bool overflowBit = false; ///< EAX[8]: IA32_QM_CTR bit 61
    bool nonCpuCmt = false; ///< EAX[9]
    bool nonCpuMbm = false; ///< EAX[10]
    std::uint32_t rmidCount() const { return l3DetailsKnown ? highestRmid + 1 : 0; }
};

/// One cache allocation resource, CPUID.10H.01H (L3) or 10H.02H (L2), SDM 20.19.4.2.
struct CacheAllocation {
    bool present = false; ///< CPUID.10H.00H:EBX[1] or [2]
    bool detailsKnown = false; ///< the sub-leaf was read and passed validation; fields below are valid
    unsigned cbmLength = 0; ///< EAX[4:0] + 1
    std::uint32_t cbmMask = 0; ///< (1 << cbmLength) - 1, what resctrl shows as cbm_mask
    std::uint32_t shareableBits = 0; ///< EBX, masked to the CBM length
    bool nonCpuAgent = false; ///< ECX[1] (L3 only)
    bool cdp = false; ///< ECX[2]
    bool nonContiguous = false; ///< ECX[3], or AMD (below)
    /// AMD allows any CBM whatever ECX[3] says (Linux sets arch_has_sparse_bitmasks for AMD; ECX[3] is Intel's bit)
    bool nonContiguousByVendor = false;
    std::uint32_t highestClos = 0; ///< EDX[15:0]
    std::uint32_t closCount() const { return detailsKnown ? highestClos + 1 : 0; }
    /// CLOS usable with CDP enabled: (highestClos >> 1) + 1 (20.19.4.4, 20.19.5)
    std::uint32_t closCountCdp() const { return detailsKnown && cdp ? (highestClos >> 1) + 1 : 0; }
    std::uint64_t bytesPerCbmBit = 0; ///< cache size (CPUID.04H) / cbmLength; 0 when the cache is unknown
};

/// Memory bandwidth allocation, CPUID.10H.03H (20.19.7.1).
struct MbaInfo {
    bool present = false; ///< CPUID.10H.00H:EBX[3]
    bool detailsKnown = false; ///< CPUID.10H.03H was read and is plausible
    unsigned maxThrottle = 0; ///< EAX[11:0] + 1 (percent of delay)
    bool linear = false; ///< ECX[2]
    bool perThread = false; ///< ECX[0]
    std::uint32_t highestClos = 0; ///< EDX[15:0]
    unsigned granularity() const { return linear && maxThrottle <= 100 ? 100 - maxThrottle : 0; }
    std::uint32_t closCount() const { return detailsKnown ? highestClos + 1 : 0; }
};

/// Cache bandwidth allocation, CPUID.10H.05H (20.19.8.2).
struct CbaInfo {
    bool present = false; ///< CPUID.10H.00H:EBX[5]
    bool detailsKnown = false; ///< CPUID.10H.05H was read and is plausible
    unsigned maxLevel = 0; ///< EAX[7:0]
    unsigned scope = 0; ///< EAX[11:8]; 1 = logical processor scope
    bool linear = false; ///< ECX[3]
    std::uint32_t highestClos = 0; ///< EDX[15:0]
    std::uint32_t closCount() const { return detailsKnown ? highestClos + 1 : 0; }
};

/// RDT allocation (20.19): CPUID.07H.00H:EBX[15], leaf 10H.
struct RdtAllocation {
    bool supported = false; ///< CPUID.07H.00H:EBX.RDT_A[15]
    std::uint32_t resourceBitmap = 0; ///< CPUID.10H.00H:EBX
    bool resourcePriority = false; ///< CPUID.10H.00H:EBX[6] (20.21.2)
    CacheAllocation l3; ///< ResID 1
    CacheAllocation l2; ///< ResID 2
    MbaInfo mba; ///< ResID 3
    CbaInfo cba; ///< ResID 5
    std::uint32_t closMax = 0; ///< max highest CLOS over enumerated resources (20.19.4.4 pseudo-code)
    unsigned closFieldWidth = 0; ///< Ceil(Log2(closMax + 1)): IA32_PQR_ASSOC bits [32+w-1:32]
    /// Why closFieldWidth is unknown ("" when it is known): no resource's highest CLOS could be read, or Resource
    /// Priority is the only allocation feature (its CLOS_MAX comes from ACPI _CPC, SDM 20.19.4.4).
    std::string closFieldWidthUnknown;
};

/// Architectural performance monitoring, CPUID.0AH (22.2).
struct PerfmonInfo {
    unsigned version = 0; ///< EAX[7:0]
    unsigned gpCounters = 0; ///< EAX[15:8]
    unsigned gpWidth = 0; ///< EAX[23:16]
    unsigned eventVectorLength = 0; ///< EAX[31:24]
    std::uint32_t eventsUnavailable = 0; ///< EBX: bit n set = architectural event n NOT available
    std::uint32_t fixedBitmap = 0; ///< ECX (version >= 5)
    unsigned fixedCounters = 0; ///< EDX[4:0] (version > 1)
    unsigned fixedWidth = 0; ///< EDX[12:5]
    bool anyThreadDeprecated = false; ///< EDX[15]
    /// Names of architectural events (Table 22-3) that are available: bit < eventVectorLength and EBX bit clear.
    std::vector<std::string> availableEvents() const;
    /// FxCtr[i]_is_supported := ECX[i] || (EDX[4:0] > i)  (22.2.5.2)
    bool fixedCounterSupported(unsigned i) const { return ((fixedBitmap >> i) & 1U) != 0 || fixedCounters > i; }
};

/// Architectural LBR, CPUID.1CH (21.1; CPUID.07H.00H:EDX[19]).
struct ArchLbrInfo {
    bool supported = false; ///< CPUID.07H.00H:EDX[19]
    std::uint32_t depthBitmap = 0; ///< 1CH:EAX[7:0], bit n = depth 8*(n+1) supported
    bool deepCStateReset = false; ///< EAX[30]
    bool lipValues = false; ///< EAX[31]: IP fields hold LIP (else EIP/RIP)
    bool cplFiltering = false; ///< EBX[0]
    bool branchFiltering = false; ///< EBX[1]
    bool callStackMode = false; ///< EBX[2]
    bool mispredictBit = false; ///< ECX[0]
    bool timedLbr = false; ///< ECX[1] cycle counts
    bool branchTypeField = false; ///< ECX[2]
    std::uint32_t eventLoggingBitmap = 0; ///< ECX[19:16]: counters whose events can be logged
    std::vector<unsigned> depths() const;
};

/// CPUID.23H architectural performance monitoring extended leaf (22.2.9), CPUID.07H.01H:EAX[8].
struct PerfmonExtInfo {
    bool supported = false; ///< CPUID.07H.01H:EAX.ARCH_PERFMON_EXT[8]
    std::uint32_t subleafBitmap = 0; ///< 23H.00H:EAX
    std::uint32_t gpBitmap = 0; ///< 23H.01H:EAX
    std::uint32_t fixedBitmap = 0; ///< 23H.01H:EBX
    unsigned tmaSlotsPerCycle = 0; ///< 23H.00H:ECX[7:0]
    std::uint32_t eventBitmap = 0; ///< 23H.03H:EAX (positive polarity)
    bool countersKnown = false; ///< sub-leaf 1 was read: the bitmaps below are this logical CPU's counters
    bool eventsKnown = false; ///< sub-leaf 3 was read
};

/// Hybrid parts (CPUID.07H.00H:EDX[15]): the core type of the logical processor the values come from, CPUID.1AH
/// (SDM Vol. 2A, "Hybrid Information Enumeration Leaf"). Leaves 04H and 23H describe that core type only; 0AH
/// gives what every logical processor shares (SDM Vol. 3B 22.2.9.2).
struct HybridInfo {
    bool hybrid = false; ///< CPUID.07H.00H:EDX[15]
    bool coreTypeKnown = false; ///< leaf 1AH was read
    unsigned coreType = 0; ///< 1AH:EAX[31:24]: 20H Intel Atom (E-core), 40H Intel Core (P-core)
    std::uint32_t nativeModelId = 0; ///< 1AH:EAX[23:0]
    /// "P-core", "E-core", "core type 0x.." or "" when unknown.
    std::string coreTypeName() const;
};

struct CpuFeatures {
    std::string source; ///< CpuidSource::describe()
    CpuIdentity identity;
    std::vector<CacheInfo> caches;
    RdtMonitoring monitoring;
    RdtAllocation allocation;
    PerfmonInfo perfmon;
    ArchLbrInfo archLbr;
    PerfmonExtInfo perfmonExt;
    HybridInfo hybrid;
    AmdQos amdQos; ///< AMD/Hygon only: leaf 80000020H and MBA's 80000008H bit
    AmdPerfmon amdPerfmon; ///< AMD/Hygon only: 80000001H counter extensions, PerfMonV2 (80000022H)
    bool archPerfmonExtKnown = false; ///< false when CPUID.07H.01H was not available (dumps often lack it)
    /// Missing or implausible leaves, in the words the CLI prints ("CPUID.(EAX=10H,ECX=3) missing: ...").
    std::vector<std::string> warnings;

    /// The cache of a level with a unified or data type, if CPUID.04H listed one.
    const CacheInfo* cache(unsigned level) const;
    /// Usable RDT: the CPUID.07H bit AND a resource in leaf 0FH/10H (the Xeon D-1718T sets the bits but
    /// reports all-zero leaves, i.e. RDT fused off or disabled).
    bool hasRdtMonitoring() const { return monitoring.supported && monitoring.l3; }
    bool hasRdtAllocation() const { return allocation.supported && (allocation.resourceBitmap & 0x7EU) != 0; }
    bool hasRdt() const { return hasRdtMonitoring() || hasRdtAllocation(); }
};

/// Decodes every leaf above from a source. Never fails: what cannot be read becomes a warning.
CpuFeatures decodeCpuFeatures(CpuidSource& source);

/// Ceil(Log2(n)) for n >= 1, 0 for n <= 1: the field-width rule of 20.18.6 and 20.19.4.4.
unsigned ceilLog2(std::uint64_t n);

} // namespace rdt
