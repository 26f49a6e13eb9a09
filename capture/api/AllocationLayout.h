// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every allocation resource of a source looks like, decided once by the engine (engine/AllocationLayoutOf.h)
// for live sources, agents' engines and replays alike: mask lengths, the whole cache's size, way counts and where
// they came from (or why they are unknown), and what a bandwidth value means. Front ends display it; none of them
// works out a way count, a cache size or a bandwidth unit again.

#include "BandwidthControl.h"
#include "ControlDescription.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdt::api {

struct CacheLayout {
    std::string resource; ///< schemata name: "L3", "L3CODE", "L3DATA", "L2", ...
    unsigned cbmLength = 0; ///< capacity bitmask length (resctrl cbm_mask, CPUID.10H.ResID:EAX[4:0] + 1)
    std::uint64_t shareableBits = 0;
    unsigned minCbmBits = 1;
    bool sparseMasks = false;
    /// One whole cache instance (domain), SNC nodes included; 0 when unknown (cacheBytesUnknown says why).
    std::uint64_t cacheBytes = 0;
    std::string cacheBytesUnknown;
    unsigned sncNodes = 1; ///< Intel SNC: sub-NUMA nodes sharing one L3 (each bit gives each node 1/n of a bit)
    /// Associativity of that cache and the CPUID leaf it came from; 0 when unknown (waysUnknown says why).
    unsigned ways = 0;
    std::string waysLeaf; ///< "CPUID.04H", "CPUID.8000001DH"
    std::string waysUnknown;
    std::map<int, std::uint64_t> ioAllocMasks; ///< AMD io_alloc (resctrl.rst "io_alloc") per domain, when enabled
    int ioAllocClosid = -1; ///< the CLOSID io_alloc holds (the highest), -1 when none
    std::vector<int> domains;

    /// "L3" for "L3", "L3CODE" and "L3DATA".
    std::string cacheName() const;
    /// Bytes one bit of the mask stands for in the whole cache; 0 when unknown.
    std::uint64_t bytesPerBit() const { return cbmLength > 0 ? cacheBytes / cbmLength : 0; }
};

struct BandwidthLayout {
    std::string resource; ///< "MB", "SMBA", "CBA"
    BandwidthUnit unit = BandwidthUnit::Percent;
    unsigned minValue = 0;
    unsigned maxValue = 100;
    unsigned granularity = 1; ///< linear steps (resctrl bandwidth_gran)
    bool linear = true; ///< false: Intel's non-linear MBA, whose delays are powers of two (SDM 20.19.7.1)
    bool roundsUp = false; ///< resctrl rounds a percent up to bandwidth_gran (kernel bw_validate)
    bool higherThrottles = false; ///< CBA levels: a bigger value means less bandwidth
    unsigned sncNodes = 1; ///< a value applies to the whole L3 domain, all its nodes
    std::vector<int> domains;
    BandwidthRole role = BandwidthRole::Limit; ///< what the value does (BandwidthControl.h)
    int region = -1; ///< MB_REGION<n>_*: n
    /// CBQRI MB_MIN: the blocks all control groups together may reserve in a domain; 0 when there is no budget.
    std::uint64_t budget = 0;
    std::string budgetSource; ///< the file the budget was read from
    /// What info/<RES>/resource_schemata/<CTRL>/ says of the control, when the kernel describes it.
    std::optional<ControlDescription> description;
    /// info/<RES>/mode: the resource's selected mode ("legacy", "native") and those offered; "" when absent.
    std::string mode;
    std::vector<std::string> modes;
};

struct AllocationLayout {
    std::vector<CacheLayout> caches;
    std::vector<BandwidthLayout> bandwidths;
    std::vector<int> domains; ///< every resource's domain ids, ascending
    /// Why there is no bandwidth control when the machine's shape says (MB hidden under CDP on Arm MPAM); "" else.
    std::string bandwidthAbsent;

    const CacheLayout* cache(const std::string& resource) const;
    const BandwidthLayout* bandwidth(const std::string& resource) const;
};

} // namespace rdt::api
