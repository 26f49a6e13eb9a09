// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rdt::sim {

/// One line of a scenario: a command at a simulated time (setup lines run at 0 s, in file order).
struct ScenarioStep {
    std::uint64_t atNs = 0;
    std::string verb; ///< mkdir rmdir write thread set move assign msr unavailable note flush
    std::vector<std::string>
        args; ///< words after the verb; `write` and `note` keep the rest of the line in args[1]/[0]
    int line = 0; ///< for error messages
};

/// A parsed scenario file (format: resources/scenarios/README.md).
struct Scenario {
    std::string name;
    std::string title;
    std::string source; ///< "built-in" or the file path
    // machine
    std::string preset = "skx-6154";
    std::string cpuidFile; ///< a dump path (relative paths resolve against the scenario file's directory)
    unsigned sockets = 1, cores = 8, threadsPerCore = 1;
    std::uint32_t sampling = 64;
    std::uint64_t tickNs = 1'000'000;
    std::vector<std::pair<std::string, std::uint64_t>> overrides; ///< synthetic CPUID edits, labelled as such
    // resctrl mount
    bool cdp = false, cdpl2 = false;
    unsigned minCbmBits = 1;
    std::uint64_t durationNs = 0; ///< 0 = runs until stopped
    std::vector<ScenarioStep> steps; ///< sorted by time, file order within a time
};

/// Parses scenario text; errors name the line ("noisy-neighbour:12: unknown verb 'mkdri'").
Result<Scenario> parseScenario(const std::string& text, const std::string& name, const std::string& baseDir = {});
/// A built-in scenario by name, or a scenario file by path.
Result<Scenario> loadScenario(const std::string& nameOrPath);
/// Names of the built-in scenarios (compiled from resources/scenarios at build time).
std::vector<std::string> builtinScenarioNames();
/// The scenario used when none is named.
inline const char* defaultScenarioName()
{
    return "noisy-neighbour";
}

/// "250ms", "10s", "1.5s", "2m", "500us" -> nanoseconds.
Result<std::uint64_t> parseDuration(const std::string& text);

} // namespace rdt::sim
