// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lab (`rdtscope-cli protect --compare static,slack,fsm,model --scenario load-steps --seed N`): every policy run
// on its own fresh simulated machine of the same seeded scenario variant (ScenarioVariant.h), as fast as the
// simulator runs, and reduced to the figures that compare them (Figures.h). Everything it prints is simulated.

#include "Figures.h"
#include "Protect.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rdt::protect {

struct LabSettings {
    std::string scenario = "load-steps";
    std::uint64_t seed = 1;
    std::vector<std::string> policies { "static", "slack", "fsm", "model" };
    std::string group; ///< "" = the scenario's `# protect:` group
    std::string target; ///< "" = the scenario's
    std::vector<std::string> be; ///< empty = the scenario's, else every other control group
    std::uint64_t durationNs = 0; ///< 0 = the scenario's duration
    std::uint64_t intervalNs = 100'000'000;
    PolicyTuning tuning;
    std::function<bool()> stopRequested;
    std::function<void(const std::string& policy)> onPolicyStart;
};

struct LabResult {
    std::string scenario;
    std::uint64_t seed = 0;
    std::string group, target;
    std::uint64_t durationNs = 0;
    std::vector<PolicyFigures> figures;
    std::vector<ProtectResult> runs; ///< each policy's whole run, in the same order
    bool stopped = false;
};

Result<LabResult> runLab(const LabSettings& settings);

} // namespace rdt::protect
