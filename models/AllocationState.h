// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The allocation picture the heatmap and the MBA editor show, as plain data (no Qt), so an engine adapter
// (models/EngineAllocationAdapter.h), a replayed session or a test can fill it the same way.

#include "core/Result.h"
#include "rdt/RdtBackend.h"
#include "rdt/Sample.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

/// One cache allocation schema as resctrl names it: "L3", or "L3CODE"/"L3DATA" under CDP (SDM 20.19.5), "L2"...
struct CacheSchema {
    std::string name; ///< schemata line name: "L3", "L3CODE", "L3DATA", "L2", "L2CODE", "L2DATA"
    int cbmLength = 0; ///< capacity bitmask length (CPUID.10H.ResID:EAX[4:0] + 1, resctrl cbm_mask)
    std::uint64_t shareableBits = 0; ///< bits other agents (I/O, DDIO) may also use (resctrl shareable_bits)
    int minCbmBits = 1; ///< minimum number of consecutive set bits (resctrl min_cbm_bits)
    bool sparseMasks = false; ///< non-contiguous masks allowed (CPUID.10H.ResID:ECX[3], resctrl sparse_masks)
    std::uint64_t cacheBytes = 0; ///< size of one cache instance (domain), CPUID.04H
    int ways = 0; ///< associativity of that cache, CPUID.04H:EBX[31:22] + 1 (8000001DH on AMD)
    std::string waysLeaf; ///< where `ways` came from: "CPUID.04H", "CPUID.8000001DH" ("" unknown)
    /// Intel SNC: the sub-NUMA nodes sharing one L3 (1 without SNC). A node's memory is cached in its own part of
    /// the L3, so each CBM bit gives a node 1/n of bytesPerBit() (resctrl.rst "Notes on Sub-NUMA Cluster mode").
    unsigned sncNodes = 1;
    /// AMD io_alloc (SDCIAE, Linux 6.19; resctrl.rst "io_alloc") when enabled: the ways I/O devices fill in each
    /// domain (info/<cache>/io_alloc_cbm) and the CLOSID the kernel holds for it (the highest), which no group
    /// gets. Empty / -1 when io_alloc is disabled or absent.
    std::map<int, std::uint64_t> ioAllocMasks;
    int ioAllocClosid = -1;
    /// The I/O ways of `domain` (0 when none).
    std::uint64_t ioAllocMask(int domain) const
    {
        const auto it = ioAllocMasks.find(domain);
        return it == ioAllocMasks.end() ? 0 : it->second;
    }

    /// "L3" for "L3", "L3CODE" and "L3DATA": the cache the schema controls (rows of one heatmap).
    std::string cacheName() const;
    /// "CODE", "DATA" or "" (no CDP).
    std::string cdpType() const;
    std::uint64_t fullMask() const { return cbmLength >= 64 ? ~0ull : (1ull << cbmLength) - 1; }
    /// The rules the engine's validator (rdt/AllocationRules.h) checks a mask of this schema against.
    rdt::ResourceCaps rules(const std::vector<int>& domains = {}) const;
    /// Bytes one CBM bit stands for (resctrl's size file: cache_size / cbm_len * popcount).
    std::uint64_t bytesPerBit() const { return cbmLength > 0 ? cacheBytes / static_cast<std::uint64_t>(cbmLength) : 0; }
};

/// A bandwidth control: resctrl's MB (percent, or MiBps with mba_MBps), an MSR MBA delay, or a CBA throttle level.
struct BandwidthSchema {
    enum class Scale { Linear, PowerOfTwo };
    /// Which way a value between steps goes: resctrl rounds MB percent up to bandwidth_gran (kernel bw_validate);
    /// the MSR interface rounds a delay down (SDM 20.19.7.2), to a power of two when not linear.
    enum class Rounding { Up, Down };

    std::string name = "MB"; ///< schemata line name: "MB", "SMBA", or "CBA" for the MSR-level CBA (SDM 20.19.8)
    std::string unit = "%"; ///< "%", "MiBps", "delay", "level"
    unsigned minValue = 10; ///< resctrl min_bandwidth
    unsigned maxValue = 100;
    unsigned granularity = 10; ///< resctrl bandwidth_gran (linear steps)
    Scale scale = Scale::Linear;
    Rounding rounding = Rounding::Up;
    bool higherThrottles = false; ///< true for delays and CBA levels: a bigger number means less bandwidth
    unsigned sncNodes = 1; ///< Intel SNC: nodes per L3 domain; a value applies to the whole domain, all its nodes
    /// What a value does (rdt::api::BandwidthRole, decided by the engine from the schemata name): a cap, reserved
    /// blocks (CBQRI MB_MIN), a weight (MB_WGHT) or one bound of region `region`'s min <= opt <= max triple.
    rdt::api::BandwidthRole role = rdt::api::BandwidthRole::Limit;
    int region = -1;
    /// CBQRI MB_MIN: the blocks all groups may reserve together per domain (0: none), and the file it came from.
    std::uint64_t budget = 0;
    std::string budgetSource;
    /// The control's own description (info/<RES>/resource_schemata/<CTRL>/) in words, "" when it has none.
    std::string described;
    std::vector<int> domains; ///< the control's own domains (MB on Arm MPAM: the L3 cache ids); empty = unknown
    /// info/<RES>/mode of the resource_schemata RFC: the active mode and those offered ("legacy", {legacy, native}).
    std::string mode;
    std::vector<std::string> modes;

    /// The value the hardware/kernel will actually apply for a requested one (clamped into [min, max]).
    unsigned effectiveValue(unsigned requested) const;
    /// The next allowed value above / below `value` (for sliders, arrow keys); clamps at the ends.
    unsigned stepUp(unsigned value) const;
    unsigned stepDown(unsigned value) const;
};

/// One control group (one CLOS) and everything allocated to it.
struct GroupAllocation {
    std::string group; ///< resctrl path relative to the root: "" = default group (CLOSID 0)
    int closid = -1; ///< -1 when unknown (resctrl does not show it without the debug mount option)
    bool exclusive = false; ///< resctrl mode "exclusive"
    std::map<std::string, std::map<int, std::uint64_t>> cbm; ///< schema -> domain id -> mask
    std::map<std::string, std::map<int, unsigned>> bandwidth; ///< schema ("MB") -> domain id -> value
    std::map<int, std::uint64_t> occupancyBytes; ///< L3 domain id -> live llc_occupancy

    std::string displayName() const { return group.empty() ? std::string("default") : group; }
};

/// Everything the allocation views show at one instant.
struct AllocationState {
    std::vector<CacheSchema> caches;
    std::vector<BandwidthSchema> bandwidths;
    std::vector<int> domains; ///< cache ids (resctrl domain ids; may have gaps)
    /// Why the machine offers no bandwidth control, when the engine knows (rdt::api::AllocationLayout).
    std::string bandwidthAbsent;
    std::vector<GroupAllocation> groups; ///< in CLOSID order, default group first
    bool writable = false; ///< false: editing is disabled and readOnlyReason says why (issue 6 item 8)
    std::string readOnlyReason;
    bool simulated = false; ///< the source is the simulated machine (always labelled)

    const CacheSchema* cacheSchema(const std::string& name) const;
    const BandwidthSchema* bandwidthSchema(const std::string& name) const;
    /// Distinct cacheName()s in schema order: "L3", "L2".
    std::vector<std::string> cacheNames() const;
};

/// Applies recorded changes to a state, in order, up to and including `untilNs` (refused ones are skipped): what a
/// replay seek shows is `replayAllocation(stateAtStart, changesSoFar, seekTime)`. Cache values are hex, bandwidth
/// values decimal; changes naming unknown groups or schemas are ignored. Returns how many were applied.
int replayAllocation(AllocationState& state, const std::vector<rdt::AllocationChanged>& changes, std::uint64_t untilNs);

/// The write side of the allocation API the editors use. Implementations write, then read back what the
/// backend holds; a rejection returns an Error whose message is the backend's reason (last_cmd_status text).
class AllocationWriter {
public:
    virtual ~AllocationWriter() = default;
    /// Writes one CBM for one group, schema and domain; returns the mask read back afterwards.
    virtual rdt::Result<std::uint64_t> writeCbm(
        const std::string& group, const std::string& schema, int domain, std::uint64_t mask)
        = 0;
    /// Writes one bandwidth value; returns the value read back (after the backend's rounding).
    virtual rdt::Result<unsigned> writeBandwidth(
        const std::string& group, const std::string& schema, int domain, unsigned value)
        = 0;
    /// Writes several bandwidth values of one group and domain as one change, validated as a whole (a region's
    /// min, opt and max, which only together keep min <= opt <= max); returns the values read back, in order.
    virtual rdt::Result<std::vector<unsigned>> writeBandwidths(
        const std::string& group, int domain, const std::vector<std::pair<std::string, unsigned>>& values)
        = 0;
};
