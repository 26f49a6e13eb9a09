// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one place a machine's CPUID snapshot is decoded for front ends (api/MachineReport.h): every engine's
// machineReport() (local, simulated, an agent's from what the protocol carries, a replay's from what the session
// recorded) comes from here, so the GUI, the CLI and the agent read the same vendor, caches and capabilities.

#include "EngineTypes.h"
#include "api/MachineReport.h"
#include "platform/CapabilityReport.h"
#include "platform/CpuFeatures.h"

#include <string>

namespace rdt::engine {

/// The report of `features` (null: no CPUID known), with `described` (the engine's describeMachine(), null when it
/// describes none: then `describeError` says why) for the lines, environment and topology.
api::MachineReport machineReportOf(const CpuFeatures* features, bool simulatedCpu, const CapabilityReport* described);
/// The same from a machine description (its CPUID snapshot, host and kernel) and where the engine runs.
api::MachineReport machineReportOf(
    const MachineDescription& machine, const CapabilityReport* described, const std::string& location);

} // namespace rdt::engine
