// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// TMA's level-2 Memory Bound share (the fraction of issue slots the pipeline was stalled on loads or stores), what a
// sweep reports per step next to IPC and MPKI (docs/EXPERIMENTS.md). One formula per PMU model, built on the TMA
// recipe (Recipes.h tmaRecipe) so level 1 comes from the same groups and arithmetic as `rdtscope-cli pmu tma`:
//  - Sapphire Rapids and later P-cores: the topdown-mem-bound metric of the slots group, over the sum of the four
//    level-1 metrics (perf's sapphirerapids tma_memory_bound MetricExpr; tmaFromIcelake).
//  - Skylake (skl, skx, clx) and Ice Lake (icl, icx): perf's skylake / icelake metrics JSON
//      tma_memory_bound = (CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES)
//          / (CYCLE_ACTIVITY.STALLS_TOTAL + EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * EXE_ACTIVITY.2_PORTS_UTIL
//             + EXE_ACTIVITY.BOUND_ON_STORES) * tma_backend_bound
//    with tma_retiring and tma_backend_bound from the level-1 TMA group. The five stall events are two more groups
//    (three and two events), so that each fits the four general counters an SMT thread has on Skylake; the kernel
//    multiplexes the groups and each group's counts are scaled by its time_enabled / time_running.
//  - Older cores (Sandy Bridge to Broadwell) and E-cores: not counted (their formulas need other events; unfinished).

#include "Recipes.h"

#include <optional>
#include <string>
#include <vector>

namespace rdt::pmu {

/// The groups to count for the share: groups[0] is the model's TMA recipe, then the stall groups when needed.
struct MemoryBoundRecipes {
    std::vector<Recipe> groups;
    std::string description; ///< which formula, for the user
};

/// The groups for the encoder's model, or why the share cannot be counted there.
Result<MemoryBoundRecipes> memoryBoundRecipes(const EventEncoder& enc, const RecipeOptions& opt);

struct MemoryBoundShare {
    std::optional<double> share; ///< in [0, 1]; none when the interval had no counts
    std::string note; ///< why none, or what was clamped
};

/// The share over one interval from each group's read delta (same order as `r.groups`; values not yet scaled).
MemoryBoundShare memoryBoundShare(const MemoryBoundRecipes& r, const std::vector<ReadData>& deltas);

} // namespace rdt::pmu
