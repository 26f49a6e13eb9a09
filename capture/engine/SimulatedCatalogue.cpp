// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimulatedCatalogue.h"

#include "sim/Scenario.h"
#include "sim/SimCpuid.h"

namespace rdt::engine {

std::vector<SimulatedChoice> simulatedPresets()
{
    std::vector<SimulatedChoice> out;
    for (const auto& p : sim::presets())
        out.push_back({ p.id, p.name, p.source, p.id == sim::defaultPresetId() });
    return out;
}

std::vector<SimulatedChoice> simulatedScenarios()
{
    std::vector<SimulatedChoice> out;
    for (const auto& name : sim::builtinScenarioNames()) {
        auto scenario = sim::loadScenario(name);
        out.push_back({ name, scenario ? scenario->title : scenario.error().message, std::string(),
            name == sim::defaultScenarioName() });
    }
    return out;
}

} // namespace rdt::engine
