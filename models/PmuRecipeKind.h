// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The recipes of the GUI's PMU menu. Whether one can run, live or simulated, is the engine's answer to starting it
// (engine/Engine.h startPmu): no Qt here and no check of its own.

namespace rdt::pmu {

enum class PmuRecipeKind { All, Tma, LbrCallStack, LbrAny, LoadLatency, CpuClock };

} // namespace rdt::pmu
