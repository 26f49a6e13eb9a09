// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Can a capture recipe run on this machine's PMU (perf_event_open)? Answers with the engine's own advice
// (openAdvice: no `cpu` PMU in a VM, perf_event_paranoid, a model without the events) instead of trying and
// failing later. No Qt here: the controls show the text.

#include "core/Result.h"

#include <string>

namespace rdt::pmu {

enum class PmuRecipeKind { All, Tma, LbrCallStack, LbrAny, LoadLatency };

struct LiveCheck {
    bool available = false;
    std::string advice; ///< why not, and what would fix it (empty when available)
};

/// Checks the recipe(s) against the real machine (PerfEnvironment, libpfm4 encoder).
LiveCheck checkLiveRecipe(PmuRecipeKind kind, bool systemWide);

} // namespace rdt::pmu
