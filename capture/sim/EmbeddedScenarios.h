// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rdt::sim {

/// A scenario file compiled into the library (resources/scenarios/<name>.scn, see its README.md).
struct EmbeddedScenario {
    std::string name;
    std::string text;
};

/// Generated at build time by EmbedScenarios.cmake (CMake file(READ) into a .cpp).
const std::vector<EmbeddedScenario>& embeddedScenarios();

} // namespace rdt::sim
