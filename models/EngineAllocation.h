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
    std::string readOnlyReason; ///< shown when !writable (the engine's Writability::text())
};

/// How the views show and step one bandwidth resource: the engine's layout (engine/AllocationLayoutOf.h) in the
/// views' terms.
BandwidthSchema bandwidthSchemaOf(const rdt::api::BandwidthLayout& layout);
/// The engine's allocation layout as the heatmap's and MB editor's schemas (no groups yet): for a live engine and a
/// replay alike, so neither works out ways, cache sizes or units itself.
AllocationState allocationStateOf(const rdt::api::AllocationLayout& layout);

/// The engine's layout + control groups + their schemata (+ modes) as an AllocationState. Occupancy stays empty:
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
    rdt::Result<std::vector<unsigned>> writeBandwidths(
        const std::string& group, int domain, const std::vector<std::pair<std::string, unsigned>>& values) override;

    /// The kernel's own words from an engine error ("...; kernel says: Overlaps with exclusive group" ->
    /// "Overlaps with exclusive group"; "L3:0: The mask 5 has ..." -> "The mask 5 has ..."), for the row.
    static std::string reasonOf(const rdt::Error& error);

private:
    rdt::Result<std::uint64_t> write(
        const std::string& group, const std::string& schema, int domain, const std::string& value, bool cache);

    rdt::engine::Engine& m_engine;
};
