// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The thin adapter between the capture service (capture/engine: local, or an agent's over the protocol) and the
// allocation views: it reads an AllocationState from the engine's snapshot and writes edits through its
// applyAllocation (validation, one transaction, rollback).

#include "AllocationState.h"
#include "engine/Engine.h"
#include "platform/CpuFeatures.h"
#include "platform/CpuidSource.h"

#include <functional>
#include <map>
#include <string>

struct AllocationStateOptions {
    bool simulated = false;
    bool writable = true;
    std::string readOnlyReason; ///< shown when !writable (see allocationReadOnlyReason())
    /// Associativity per cache name ("L3" -> 11) from CPUID.04H, so columns can say which ways a bit stands
    /// for; 0/absent = unknown.
    std::map<std::string, int> ways;
    std::string waysLeaf; ///< the leaf they came from (cacheParametersLeaf)
};

/// cacheWays of `features` for the caches `caps` controls, leaving out a cache whose size resctrl gives (bytes per CBM
/// bit x CBM length) and that is not the CPUID cache's size or a whole share of it (an SNC node's): that CPUID
/// describes another cache (a fixture tree read on a laptop), and its ways next to this CBM would contradict it.
std::map<std::string, int> cacheWaysFor(const rdt::CpuFeatures& features, const rdt::Capabilities& caps);

/// The CPUID leaf that describes a CPU's caches: "CPUID.04H" (Intel), "CPUID.8000001DH" (AMD, whose 04H is empty).
std::string cacheParametersLeaf(const rdt::CpuFeatures& features);

/// {"L2": ways, "L3": ways} from CPUID.04H (for AllocationStateOptions::ways); absent levels are left out.
std::map<std::string, int> cacheWays(const rdt::CpuFeatures& features);
/// The same from any CPUID source (the instruction, a dump, a simulated CPU's table): EBX[31:22]+1 of each
/// leaf 04H sub-leaf (SDM Vol. 2A CPUID leaf 04H "Deterministic Cache Parameters"; 8000001DH on AMD).
std::map<std::string, int> cacheWays(rdt::CpuidSource& cpuid);

/// {"L2": bytes, "L3": bytes} of one cache instance as the CPUID describes it: ways x partitions x line size x sets
/// of leaf 04H (SDM Vol. 2A CPUID leaf 04H; 8000001DH on AMD). A replay weighs it against resctrl's recorded size
/// (rdt::wholeCacheBytes).
std::map<std::string, std::uint64_t> cacheBytes(const rdt::CpuFeatures& features);

/// How the views show and step one bandwidth resource (unit, bounds, steps, rounding), from its capabilities: the
/// one place for it, used for a live engine's resources and for the ones a replay reconstructs.
BandwidthSchema bandwidthSchemaOf(const rdt::ResourceCaps& r, unsigned sncNodes = 1);

/// Capabilities + control groups + their schemata (+ modes) as an AllocationState. Occupancy stays empty:
/// feed AllocationModel::setOccupancy() from the sampler (occupancyFromBatch()).
rdt::Result<AllocationState> readAllocationState(rdt::engine::Engine& engine, const AllocationStateOptions& options);

/// llc_occupancy per group and domain from one sampler batch (monitor groups are summed into their control group
/// by resctrl already; they are skipped here).
std::map<std::string, std::map<int, std::uint64_t>> occupancyFromBatch(const rdt::RdtSampleBatch& batch);

/// AllocationWriter over the engine: every edit goes through Engine::applyAllocation() (validated, written,
/// read back, rolled back on failure, AllocationChanged published as an engine event).
class EngineAllocationWriter : public AllocationWriter {
public:
    explicit EngineAllocationWriter(rdt::engine::Engine& engine);

    rdt::Result<std::uint64_t> writeCbm(
        const std::string& group, const std::string& schema, int domain, std::uint64_t mask) override;
    rdt::Result<unsigned> writeBandwidth(
        const std::string& group, const std::string& schema, int domain, unsigned value) override;

    /// The kernel's own words from an engine error ("...; kernel says: Overlaps with exclusive group" ->
    /// "Overlaps with exclusive group"; "L3:0: The mask 5 has ..." -> "The mask 5 has ..."), for the row.
    static std::string reasonOf(const rdt::Error& error);

private:
    rdt::Result<std::uint64_t> write(
        const std::string& group, const std::string& schema, int domain, const std::string& value, bool cache);

    rdt::engine::Engine& m_engine;
};
