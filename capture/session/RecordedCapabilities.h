// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a session says about the allocation resources of the machine it was recorded on, as capabilities: the one
// reconstruction a replay (the GUI's and rdtscope-cli replay's) hands to the engine's layout rule
// (engine/AllocationLayoutOf.h), so a replay shows the ways, sizes and units the live view showed.

#include "ReplaySource.h"
#include "SessionTypes.h"
#include "platform/CpuFeatures.h"
#include "rdt/RdtBackend.h"

#include <map>
#include <string>
#include <vector>

namespace rdt::session {

/// What the recorded allocations themselves show of a resource: used where neither the topology text nor the
/// CPUID snapshot tells (older or damaged files).
struct RecordedValues {
    std::vector<int> domains;
    unsigned widestMaskBits = 0; ///< cache resources: the highest set bit + 1 of any recorded mask
    unsigned largestValue = 0; ///< bandwidth resources: the largest recorded value
};

/// What each resource's recorded values show, from the allocations in force at one time (ReplaySource::
/// allocationStateAt): domains, widest mask, largest bandwidth value.
std::map<std::string, RecordedValues> recordedValuesOf(const AllocationState& allocations);

/// The recording machine's features from the session's CPUID snapshot; none for older or damaged files.
std::optional<CpuFeatures> recordedCpu(const MachineInfo& machine);

/// The capabilities of every resource in `seen` (resource name -> what its values show). First resctrl's own rules
/// as the session's topology line recorded them (bandwidth units since they were recorded; before that a
/// min_bandwidth of 0 is AMD's, as resctrl's info/ tells AMD apart). Else from the CPUID snapshot `cpu`: CBM lengths
/// of CPUID.10H.1/10H.2:EAX[4:0] (SDM 20.19.4.2), AMD MB/SMBA in 1/8 GB/s up to 1 << the length in
/// CPUID.80000020H.1/.2:EAX, Intel MB in percent with min_bandwidth and bandwidth_gran from CPUID.10H.3 when linear
/// (SDM 20.19.7.1); a value over 100 was recorded under mba_MBps; CBA is always throttle levels (SDM 20.19.8).
/// With neither: the widest recorded mask, resctrl's usual 10 % steps.
Capabilities recordedCapabilities(
    const MachineInfo& machine, const CpuFeatures* cpu, const std::map<std::string, RecordedValues>& seen);

} // namespace rdt::session
