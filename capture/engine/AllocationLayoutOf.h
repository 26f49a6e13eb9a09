// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one rule for what an allocation resource looks like (api/AllocationLayout.h), from a machine's capabilities
// and its CPUID: used for live engines, agents' engines (from the machine description they send) and replays (from
// the capabilities a session recorded), so way counts, cache sizes and bandwidth units never differ between them.

#include "EngineTypes.h"
#include "api/AllocationLayout.h"
#include "platform/CpuFeatures.h"
#include "platform/CpuidSource.h"

#include <cstdint>
#include <map>
#include <string>

namespace rdt::engine {

/// The CPUID leaf that describes a CPU's caches: "CPUID.04H" (Intel), "CPUID.8000001DH" (AMD, whose 04H is empty).
std::string cacheParametersLeaf(const CpuFeatures& features);
/// {"L2": ways, "L3": ways}: EBX[31:22]+1 of each cache of leaf 04H (SDM Vol. 2A CPUID leaf 04H "Deterministic
/// Cache Parameters"; 8000001DH on AMD); absent levels are left out.
std::map<std::string, int> cacheWays(const CpuFeatures& features);
std::map<std::string, int> cacheWays(CpuidSource& cpuid);
/// cacheWays for the caches `caps` controls, leaving out a cache whose size resctrl gives (bytes per CBM bit x CBM
/// length) and that is not the CPUID cache's size or a whole share of it (an SNC node's): that CPUID describes
/// another cache (a fixture tree read on a laptop), and its ways next to this CBM would contradict it.
std::map<std::string, int> cacheWaysFor(const CpuFeatures& features, const Capabilities& caps);
/// {"L2": bytes, "L3": bytes} of one cache instance as the CPUID describes it (ways x partitions x line size x sets).
std::map<std::string, std::uint64_t> cacheBytes(const CpuFeatures& features);

/// How one bandwidth resource's values are shown and stepped: unit, bounds, steps, rounding.
api::BandwidthLayout bandwidthLayoutOf(const ResourceCaps& r, unsigned sncNodes = 1);
/// Every resource of `caps`; `cpu` (null when unknown) gives way counts and the whole cache's size where it
/// describes the cache resctrl controls.
api::AllocationLayout allocationLayoutOf(const Capabilities& caps, const CpuFeatures* cpu);
/// The same from a machine description (its capabilities and its CPUID snapshot).
api::AllocationLayout allocationLayoutOf(const MachineDescription& machine);

} // namespace rdt::engine
