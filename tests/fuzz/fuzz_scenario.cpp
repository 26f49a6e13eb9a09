// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for simulator scenario files (`--scenario FILE`): any text, parsed with no base directory (so no
// other file is opened), and every word of every step read as a duration and a size, as the simulator reads its
// arguments. Errors name the line for garbage; crashes, hangs and unbounded allocations are defects. (Running a
// parsed scenario in the simulated machine is not fuzzed here: building a machine per input is too slow.)
#include "sim/Scenario.h"
#include "sim/Workload.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto scenario = rdt::sim::parseScenario(text, "fuzz");
    if (!scenario) return 0;
    for (const auto& step : scenario->steps)
        for (const auto& word : step.args) {
            (void)rdt::sim::parseDuration(word);
            (void)rdt::sim::parseSize(word);
        }
    return 0;
}
