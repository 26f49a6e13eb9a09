// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The text of a scenario a simulated source would run (a built-in one by name, else a file by path, bounded as the
// simulator reads it): for a caller that derives a variant of it (protect's lab, docs/PROTECT.md) without reaching
// into the simulator.

#include "core/Result.h"

#include <string>

namespace rdt::engine {

Result<std::string> scenarioText(const std::string& nameOrPath);

} // namespace rdt::engine
