// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Protect scenarios are ordinary simulator scenarios (resources/scenarios/README.md) with two conventions
// (docs/PROTECT.md "Scenarios"): a comment line `# protect: group=G target=T [be=G,G]` names what the lab protects
// by default, and notes beginning `load step` mark the load steps convergence is measured after. The lab's seed
// makes a variant: every distinct time of a timed line moves by the same seeded jitter (up to +-400 ms, order kept),
// so steps written together stay together and seed N always gives the same text.

#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rdt::protect {

struct ScenarioDefaults {
    std::string group; ///< "" when the scenario names none
    std::string target;
    std::vector<std::string> be;
};

/// The `# protect:` line's settings (empty fields when there is none); an error for a malformed line.
Result<ScenarioDefaults> protectDefaultsOf(const std::string& scenarioText);
/// The scenario's text with its timed lines moved by the seed's jitter (seed 0: unchanged).
std::string seededVariant(const std::string& scenarioText, std::uint64_t seed);

} // namespace rdt::protect
