// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Can a capture recipe run on this machine's PMU (perf_event_open)? Answers with the engine's own advice
// (openAdvice: no `cpu` PMU in a VM, perf_event_paranoid, a model without the events) instead of trying and
// failing later. No Qt here: the controls show the text.

#include "core/Result.h"
#include "pmu/CorePmus.h"

#include <string>

namespace rdt::pmu {

enum class PmuRecipeKind { All, Tma, LbrCallStack, LbrAny, LoadLatency, CpuClock };

struct LiveCheck {
    bool available = false;
    std::string advice; ///< why not, and what would fix it (empty when available)
};

/// The recipes for `kind` (not CpuClock) on this machine, built as the CLI builds them: one per core PMU, so on
/// hybrid parts cpu_core and cpu_atom each get their own (corePmuParts / recipesForParts); notes say what was
/// left out per PMU.
Result<PartRecipes> buildLiveRecipes(PmuRecipeKind kind, const PerfEnvironment& env);

/// Checks the recipe(s) against the real machine (PerfEnvironment, libpfm4 encoder).
LiveCheck checkLiveRecipe(PmuRecipeKind kind, bool systemWide);

} // namespace rdt::pmu
