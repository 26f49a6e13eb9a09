// SPDX-License-Identifier: GPL-3.0-or-later
#include "ScenarioText.h"

#include "core/BoundedFile.h"
#include "sim/EmbeddedScenarios.h"
#include "sim/Scenario.h"

#include <cerrno>
#include <unistd.h>

namespace rdt::engine {

Result<std::string> scenarioText(const std::string& nameOrPath)
{
    for (const auto& s : sim::embeddedScenarios())
        if (s.name == nameOrPath) return s.text;
    if (::access(nameOrPath.c_str(), F_OK) != 0) {
        std::string names;
        for (const auto& n : sim::builtinScenarioNames())
            names += (names.empty() ? "" : ", ") + n;
        return errnoError(
            ENOENT, "no built-in scenario or readable file '" + nameOrPath + "'", "built-in scenarios: " + names);
    }
    // As sim::loadScenario reads a scenario file: a page of text, 1 MiB at most.
    return readBoundedFile(nameOrPath, 1u << 20, "scenario");
}

} // namespace rdt::engine
