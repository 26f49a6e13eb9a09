// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The synthetic programs the simulated PMU can run, each a SimProgram built and laid out (SimProgram::demo and its
// siblings name these).

#include "SimProgram.h"

#include <string>

namespace rdt::pmu {

/// The request server (see SimProgram::demo); `memoryScale` multiplies its big regions.
SimProgram demoProgram(double memoryScale = 1.0);
/// An interpreter whose many large handlers miss the instruction cache: frontend bound.
SimProgram frontendBoundProgram();
/// A hash join whose probes and chain walks miss the caches: backend (memory) bound.
SimProgram backendBoundProgram(double memoryScale = 1.0);
/// By name: "server" (or "", the demo), "frontend", "backend".
Result<SimProgram> namedProgram(const std::string& name, double memoryScale = 1.0);

} // namespace rdt::pmu
