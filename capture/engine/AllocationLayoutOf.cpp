// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationLayoutOf.h"

#include "platform/CpuidDump.h"
#include "rdt/CacheSize.h"

#include <algorithm>
#include <optional>

namespace rdt::engine {

std::string cacheParametersLeaf(const CpuFeatures& features)
{
    return features.identity.isAmd() ? "CPUID.8000001DH" : "CPUID.04H";
}

std::map<std::string, int> cacheWays(const CpuFeatures& features)
{
    std::map<std::string, int> out;
    for (unsigned level : { 2u, 3u }) {
        if (const CacheInfo* c = features.cache(level); c && c->ways > 0)
            out["L" + std::to_string(level)] = static_cast<int>(c->ways);
    }
    return out;
}

std::map<std::string, int> cacheWays(CpuidSource& cpuid)
{
    return cacheWays(decodeCpuFeatures(cpuid));
}

std::map<std::string, int> cacheWaysFor(const CpuFeatures& features, const Capabilities& caps)
{
    auto ways = cacheWays(features);
    for (const auto& r : caps.resources) {
        if (!r.isCache() || r.bytesPerBit == 0 || r.cbmBits == 0) continue;
        const std::string level = r.name.substr(0, 2); // L3CODE/L3DATA are the L3
        const CacheInfo* c = features.cache(level == "L2" ? 2 : 3);
        if (!c || c->sizeBytes() == 0) continue;
        if (!resctrlSizeIsThisCache(r.bytesPerBit * r.cbmBits, c->sizeBytes())) ways.erase(level);
    }
    return ways;
}

std::map<std::string, std::uint64_t> cacheBytes(const CpuFeatures& features)
{
    std::map<std::string, std::uint64_t> out;
    for (unsigned level : { 2u, 3u })
        if (const CacheInfo* c = features.cache(level); c && c->sizeBytes() > 0)
            out["L" + std::to_string(level)] = c->sizeBytes();
    return out;
}

api::BandwidthLayout bandwidthLayoutOf(const ResourceCaps& r, unsigned sncNodes)
{
    api::BandwidthLayout b;
    b.resource = r.name;
    b.unit = r.mbpsMode ? api::BandwidthUnit::MiBps : r.bandwidthUnit;
    b.domains = r.domains;
    b.sncNodes = sncNodes;
    switch (b.unit) {
    case api::BandwidthUnit::EighthGBps:
        // AMD MBA/SMBA: absolute bandwidth in 1/8 GB/s steps, the maximum meaning unlimited (resctrl.rst "on AMD
        // systems"); the kernel takes any step in range, so nothing rounds.
        b.minValue = r.minBandwidth;
        b.maxValue = r.maxBandwidth;
        break;
    case api::BandwidthUnit::ThrottleLevel:
        // CBA through the MSRs (SDM 20.19.8): a throttle level per CLOS, 0 unthrottled, every level a step.
        b.minValue = r.minBandwidth;
        b.maxValue = r.maxBandwidth;
        b.higherThrottles = true;
        break;
    case api::BandwidthUnit::MiBps:
        // mba_MBps: any u32 MiBps, no rounding (docs/RESCTRL.md "Group files").
        b.minValue = 0;
        b.maxValue = 4294967295u;
        break;
    case api::BandwidthUnit::Percent:
        b.minValue = r.minBandwidth;
        b.maxValue = 100;
        b.granularity = r.bandwidthGran ? r.bandwidthGran : 1;
        b.linear = r.delayLinear;
        b.roundsUp = true; // kernel bw_validate: roundup to bandwidth_gran
        break;
    case api::BandwidthUnit::Blocks:
    case api::BandwidthUnit::Weight:
    case api::BandwidthUnit::Described:
        // CBQRI blocks and weights, and controls that describe themselves: every value between the bounds
        // info/ gives is a step (resource_schemata's resolution is the unit's divisor, not a step).
        b.minValue = r.minBandwidth;
        b.maxValue = r.maxBandwidth;
        b.granularity = r.bandwidthGran ? r.bandwidthGran : 1;
        break;
    }
    b.role = r.role;
    b.region = r.region;
    b.budget = r.budget;
    b.budgetSource = r.budgetSource;
    b.description = r.description;
    b.mode = r.mode;
    b.modes = r.modes;
    return b;
}

api::AllocationLayout allocationLayoutOf(const Capabilities& caps, const CpuFeatures* cpu)
{
    api::AllocationLayout layout;
    const unsigned snc = std::max(1u, caps.monitoring.sncNodesPerL3());
    const auto ways = cpu ? cacheWaysFor(*cpu, caps) : std::map<std::string, int> {};
    const auto cpuidBytes = cpu ? cacheBytes(*cpu) : std::map<std::string, std::uint64_t> {};
    for (const auto& r : caps.resources) {
        for (int d : r.domains)
            if (std::find(layout.domains.begin(), layout.domains.end(), d) == layout.domains.end())
                layout.domains.push_back(d);
        if (!r.isCache()) {
            layout.bandwidths.push_back(bandwidthLayoutOf(r, snc));
            continue;
        }
        api::CacheLayout c;
        c.resource = r.name;
        c.cbmLength = r.cbmBits;
        c.shareableBits = r.shareableBits;
        c.minCbmBits = r.minCbmBits;
        c.sparseMasks = r.sparseMasks;
        c.domains = r.domains;
        const std::string cache = c.cacheName();
        c.sncNodes = cache == "L3" ? snc : 1;
        // The whole cache instance: the CPUID's where it describes the cache resctrl controls (its size, or a whole
        // SNC share of it: with SNC resctrl's size files give one node's share, resctrl.rst "Notes on Sub-NUMA
        // Cluster mode"), resctrl's (times its nodes) where the CPUID describes another cache (a fixture tree read
        // on a laptop), the CPUID's when resctrl gave none.
        const std::uint64_t share = r.bytesPerBit * r.cbmBits;
        const auto found = cpuidBytes.find(cache);
        const std::uint64_t cpuid = found == cpuidBytes.end() ? 0 : found->second;
        c.cacheBytes = share == 0 || (cpuid > 0 && resctrlSizeIsThisCache(share, cpuid)) ? cpuid : share * c.sncNodes;
        if (c.cacheBytes == 0)
            c.cacheBytesUnknown = "resctrl gives no size for " + r.name + " and no CPUID describes the " + cache;
        if (const auto w = ways.find(cache); w != ways.end()) {
            c.ways = static_cast<unsigned>(w->second);
            c.waysLeaf = cacheParametersLeaf(*cpu);
        } else if (!cpu) {
            c.waysUnknown = "no CPUID of the machine is known";
        } else if (cacheWays(*cpu).count(cache)) {
            c.waysUnknown = "the CPUID's " + cache + " is not the cache resctrl controls (their sizes differ)";
        } else {
            c.waysUnknown = cacheParametersLeaf(*cpu) + " describes no " + cache;
        }
        if (r.ioAllocEnabled()) {
            for (const auto& v : r.ioAllocCbm)
                c.ioAllocMasks[v.domain] = v.value;
            c.ioAllocClosid = r.numClosids > 0 ? static_cast<int>(r.numClosids) - 1 : -1;
        }
        layout.caches.push_back(std::move(c));
    }
    std::sort(layout.domains.begin(), layout.domains.end());
    layout.bandwidthAbsent = caps.bandwidthAbsentReason();
    return layout;
}

api::AllocationLayout allocationLayoutOf(const MachineDescription& machine)
{
    std::optional<CpuFeatures> cpu;
    if (auto table = cpuidTableFromJson(machine.cpuidJson)) cpu = decodeCpuFeatures(*table);
    return allocationLayoutOf(machine.capabilities, cpu ? &*cpu : nullptr);
}

} // namespace rdt::engine
