// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rdt::engine {

/// One choice of simulated machine: a CPU preset or a built-in scenario, as `sim --list` prints it and the GUI's
/// File > Switch source offers it.
struct SimulatedChoice {
    std::string id; ///< "skx-6154", "noisy-neighbour"
    std::string title; ///< "Xeon Gold 6154 (Skylake-SP)", the scenario's title line
    std::string origin; ///< a preset's CPUID dump; "" for a scenario
    bool isDefault = false; ///< what a simulated source uses when none is named
};

/// The CPU presets (real CPUs' CPUID, simulated).
std::vector<SimulatedChoice> simulatedPresets();
/// The built-in scenarios; a scenario that does not load is listed with its error as its title.
std::vector<SimulatedChoice> simulatedScenarios();

} // namespace rdt::engine
