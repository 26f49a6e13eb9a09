// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimCpuid.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace rdt::sim {

/// One cache level as CPUID.04H describes it.
struct CacheGeometry {
    std::uint32_t ways = 0, sets = 0, lineSize = 64, partitions = 1;
    std::uint64_t sizeBytes() const { return std::uint64_t { ways } * partitions * lineSize * sets; }
    bool present() const { return ways != 0 && sets != 0; }
};

/// CAT for one cache level (CPUID.10H.1 or 10H.2, SDM 20.19.4.2).
struct CatCaps {
    bool present = false;
    std::uint32_t cbmLen = 0, shareableBits = 0, numClos = 0;
    bool cdp = false, sparse = false;
    std::uint32_t fullMask() const { return cbmLen >= 32 ? 0xFFFFFFFFu : ((1u << cbmLen) - 1); }
};

/// MBA (CPUID.10H.3, 20.19.7.1): maxDelay = EAX[11:0]+1, linear = ECX[2], per-thread = ECX[0].
/// On AMD (CPUID 80000020H.1, AMD64 APM vol. 2 "L3 External Bandwidth Enforcement") the controls are absolute
/// limits instead: multiples of 1/8 GB/s up to maxBandwidth, which means unlimited.
struct MbaCaps {
    bool present = false, linear = false, perThread = false;
    std::uint32_t maxDelay = 0, numClos = 0;
    std::uint32_t maxBandwidth = 0; ///< AMD: 1 << 80000020H.1:EAX (2048); 0 = Intel's delay percentages
    bool absolute() const { return maxBandwidth != 0; }
};

/// AMD's monitoring extensions (CPUID 80000020H.0:EBX): BMEC ([3]) and assignable counters ABMC ([5]).
struct AmdMonCaps {
    bool bmec = false;
    std::uint32_t bmecValidBits = 0; ///< 80000020H.3:ECX: transaction types a configuration may select
    unsigned abmcCounters = 0; ///< 80000020H.5:EBX[15:0] + 1 per L3 domain; 0 = no ABMC
};

/// CBA (CPUID.10H.5, 20.19.8.2).
struct CbaCaps {
    bool present = false, linear = false;
    std::uint32_t maxLevel = 0, numClos = 0;
};

/// L3 monitoring (CPUID.0FH, 20.18.5).
struct MonCaps {
    bool present = false, occupancy = false, mbmTotal = false, mbmLocal = false, overflowBit = false;
    std::uint32_t maxRmid = 0; ///< 0FH.0:EBX, bounds IA32_PQR_ASSOC.RMID
    std::uint32_t l3MaxRmid = 0; ///< 0FH.1:ECX
    std::uint32_t scale = 1; ///< 0FH.1:EBX, bytes per counter unit (upscaling factor)
    std::uint32_t counterWidth = 24; ///< 24 + 0FH.1:EAX[7:0]
};

/// What the simulated processor enumerates: the parts of platform/CpuFeatures.h (decoded from the machine's
/// CPUID by the same decoder the real hardware path uses) that the model needs, flattened.
struct SimFeatures {
    std::string brand;
    CacheGeometry l1d, l1i, l2, l3;
    std::uint32_t l3SharingThreads = 1; ///< CPUID.04H.3:EAX[25:14]+1
    CatCaps l3Cat, l2Cat;
    MbaCaps mba;
    CbaCaps cba;
    MonCaps mon;
    bool amd = false; ///< AuthenticAMD/HygonGenuine: resctrl speaks the AMD dialect (GB/s MBA, sparse masks, ...)
    AmdMonCaps amdMon;
    /// Max CLOS over all allocation resources (20.19.4.4 pseudo code), bounds IA32_PQR_ASSOC.CLOS.
    std::uint32_t closMax = 0;
    bool allocation() const { return l3Cat.present || l2Cat.present || mba.present || cba.present; }
    std::vector<std::string> warnings; ///< CpuFeatures::warnings (missing or implausible leaves)
};

SimFeatures decodeFeatures(const SimCpuid& cpuid);

/// Machine shape and timing: what CPUID does not say.
struct SimTopology {
    unsigned sockets = 1; ///< one NUMA node per socket
    unsigned coresPerSocket = 8;
    unsigned threadsPerCore = 1; ///< logical CPUs per core; MBA "max" mode throttles a core by its hungriest thread
    /// Cores sharing one L3 (one resctrl L3 domain). 0 = the whole socket, as on Intel Xeons; an AMD EPYC has one L3
    /// per CCX (8 cores on Zen 3/Zen 4), so a socket holds several L3 domains.
    unsigned coresPerL3 = 0;
    /// Sub-NUMA Clustering: nodes per L3 domain (1 = off). With SNC the hardware counts each RMID per node: a CPU of
    /// node n tags its lines with RMID + n x (RMIDs / nodes) (kernel Documentation/filesystems/resctrl.rst "Notes on
    /// Sub-NUMA Cluster mode"; arch/x86/kernel/cpu/resctrl/monitor.c logical_rmid_to_physical_rmid).
    unsigned sncNodes = 1;
    /// The node within its L3 domain: cores split evenly, in order.
    unsigned sncNodeOf(unsigned cpu) const
    {
        const unsigned perL3 = coresPerL3 == 0 ? coresPerSocket : coresPerL3;
        const unsigned coresPerNode = std::max(1u, perL3 / std::max(1u, sncNodes));
        return std::min(sncNodes - 1, (coreOf(cpu) % perL3) / coresPerNode);
    }
    unsigned cpuCount() const { return sockets * coresPerSocket * threadsPerCore; }
    /// Logical CPU numbering: cpu = (socket * coresPerSocket + core) * threadsPerCore + thread.
    unsigned socketOf(unsigned cpu) const { return cpu / (coresPerSocket * threadsPerCore); }
    unsigned coreOf(unsigned cpu) const { return cpu / threadsPerCore; } ///< global core index
    unsigned l3PerSocket() const
    {
        return coresPerL3 == 0 || coresPerL3 >= coresPerSocket ? 1 : (coresPerSocket + coresPerL3 - 1) / coresPerL3;
    }
    unsigned l3Count() const { return sockets * l3PerSocket(); }
    /// L3 domains are numbered socket by socket: socket * l3PerSocket() + the CCX within the socket.
    unsigned l3Of(unsigned cpu) const
    {
        const unsigned core = coreOf(cpu) % coresPerSocket;
        return socketOf(cpu) * l3PerSocket() + (l3PerSocket() == 1 ? 0 : core / coresPerL3);
    }
};

/// Latency and bandwidth model (cycles per cache line touched); plausible Skylake-SP figures.
struct SimTiming {
    double ghz = 3.0;
    double l1Cycles = 5, l2Cycles = 14, l3Cycles = 60, dramLocalCycles = 250, dramRemoteCycles = 400;
    double coreMaxMemBw = 16e9; ///< bytes/s one core can pull from memory unthrottled (MBA scales this)
    double coreMaxL3Bw = 64e9; ///< bytes/s between a core's L2 and L3 (CBA scales this)
    double socketMemBw = 100e9; ///< bytes/s the memory controllers of one socket sustain
};

/// Which resctrl the simulated kernel speaks (docs/RESCTRL.md "Dialects"). The machine underneath is the same model;
/// the dialect decides which schemata lines, info/ files and rules the kernel shows:
/// - X86: Intel/AMD as the CPUID enumerates them (Documentation/filesystems/resctrl.rst);
/// - ArmMpam: Documentation/arch/arm64/mpam.rst: CPOR bitmaps as L2/L3, MBW_MAX as MB in percent on L3 cache ids,
///   CSU as llc_occupancy, MBWU as mbm_total_bytes only, and no MB while CDP (emulated with PARTID pairs) is on;
/// - RiscvCbqri: the CBQRI branch's resctrl.rst: MB_MIN (reserved bandwidth blocks, their sum within a budget) and
///   MB_WGHT (0..255) instead of MB;
/// - RegionAware: Intel's region-aware MBA as the 2026 resource_schemata RFC shows it: MB plus
///   MB_REGION<n>_{MIN,OPT,MAX}, every control described in info/MB/resource_schemata/.
enum class ResctrlDialect { X86, ArmMpam, RiscvCbqri, RegionAware };

struct SimOptions {
    ResctrlDialect dialect = ResctrlDialect::X86;
    SimTopology topology;
    SimTiming timing;
    /// Set sampling factor S (power of two): only lines whose line index is a multiple of S are simulated,
    /// which is exactly the sets whose index is a multiple of S in a modulo-indexed cache; every simulated
    /// access stands for S real ones. 1 = exact full simulation. See CacheSlice.h for the error analysis.
    std::uint32_t setSampling = 64;
    /// Time sampling once the machine is steady (TimeScale.h): at most this many accesses per simulated one
    /// (power of two). 1 = every access simulated, as experiments, lessons and the CLI need.
    std::uint32_t maxTimeScale = 1;
    std::uint64_t tickNs = 1'000'000; ///< simulated time per tick
    std::uint64_t seed = 1;
    /// resctrl shows PERF_PKG_MON per-package telemetry (Intel, Linux 7.0) with synthetic counts (a kernel/platform
    /// feature no CPUID leaf enumerates: the kernel finds it through Intel PMT).
    bool pkgTelemetry = false;
    /// A deliberately broken processor, for testing the tests: cache allocation masks are accepted and read back but
    /// fills ignore them (every CLOS may use every L3 way), so a CAT fence no longer bounds occupancy. Only the
    /// self-test's own test sets it (capture/selftest, the fence check must then fail).
    bool ignoreCatMasks = false;
};

} // namespace rdt::sim
