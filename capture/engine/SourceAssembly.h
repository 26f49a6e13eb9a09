// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where RDT sources are assembled: real resctrl and the real MSR device come from capture/rdt; the simulated
// machine (capture/sim) is put behind the same RdtBackend here, and only here, so nothing in capture/rdt or
// capture/pmu depends on the simulator.

#include "rdt/MsrBackend.h"
#include "rdt/RdtSource.h"

#include <string>
#include <vector>

namespace rdt {

namespace sim {
class SimMachine;
}

/// Opens a source by spec (auto, sim, sim-msr, sim-msr:DIR, resctrl, resctrl:PATH, msr). `auto` uses resctrl when it is
/// mounted and usable, else the simulated machine, saying why. Errors say exactly what is missing and how to
/// fix it (exit code 3 material).
Result<RdtSource> openRdtSource(const RdtSourceOptions& options);

/// `sim` (ResctrlBackend over SimResctrlFs) and `sim-msr` (MsrBackend over SimMsrSpace) for a scenario;
/// `setupOnly` drops the scenario's timed steps.
/// `timeScale`: the `sim` machine's steady-state time sampling limit (capture/sim/TimeScale.h).
/// `preset`: a CPU preset that replaces the scenario's (`sim` only; "" = the scenario's).
Result<RdtSource> openSimSource(const std::string& spec, const std::string& scenario, bool setupOnly = false,
    std::uint32_t timeScale = 1, const std::string& preset = {});

/// The built-in scenario names (resources/scenarios); an agent runs only these, never a file a client names.
std::vector<std::string> builtinScenarios();

/// The simulated machine's counts for the threads whose PIDs are listed (SimulationControl::taskCounts).
SimulatedTaskCounts simulatedTaskCounts(const sim::SimMachine& machine, const std::vector<unsigned>& pids);

/// What the MSR backend needs, from the simulated machine's enumeration.
MsrRdtEnumeration msrEnumerationOf(const sim::SimMachine& machine);

} // namespace rdt
