// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rdt::lesson {

/// A lesson file compiled into the library (resources/lessons/<name>.lesson), so installed programs carry them.
struct EmbeddedLesson {
    std::string name;
    std::string text;
};

/// Generated at build time by capture/sim/EmbedScenarios.cmake (the same embedding as the scenarios).
const std::vector<EmbeddedLesson>& embeddedLessons();

} // namespace rdt::lesson
