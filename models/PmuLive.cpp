// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuLive.h"

#include "pmu/PerfSyscalls.h"
#include "pmu/PmuCpuid.h"
#include "pmu/Recipes.h"

#include <cerrno>
#include <vector>

namespace rdt::pmu {

Result<PartRecipes> buildLiveRecipes(PmuRecipeKind kind, const PerfEnvironment& env)
{
    auto parts = corePmuParts(env);
    if (!parts) return parts.error();
    const RecipeOptions opt = hostRecipeOptions(env, readPmuCpuid());
    std::vector<RecipeKind> kinds;
    if (kind == PmuRecipeKind::All || kind == PmuRecipeKind::Tma) kinds.push_back(RecipeKind::Tma);
    if (kind == PmuRecipeKind::All || kind == PmuRecipeKind::LbrCallStack) kinds.push_back(RecipeKind::LbrCallStack);
    if (kind == PmuRecipeKind::LbrAny) kinds.push_back(RecipeKind::LbrAny);
    if (kind == PmuRecipeKind::All || kind == PmuRecipeKind::LoadLatency) kinds.push_back(RecipeKind::LoadLatency);
    PartRecipes all;
    for (RecipeKind k : kinds) {
        auto r = recipesForParts(*parts, k, opt);
        if (!r) return r.error();
        for (auto& recipe : r->recipes)
            all.recipes.push_back(std::move(recipe));
        for (auto& note : r->notes)
            all.notes.push_back(std::move(note));
    }
    return all;
}

LiveCheck checkLiveRecipe(PmuRecipeKind kind, bool systemWide)
{
    LiveCheck out;
    LinuxPerfSyscalls sys;
    const PerfEnvironment env = sys.environment();
    auto built = buildLiveRecipes(kind, env);
    if (!built) {
        out.advice = built.error().toString();
        return out;
    }
    for (const auto& r : built->recipes) {
        for (const auto& e : r.events) {
            if (needsCpuPmu(e.attr) && !env.hasCpuPmu && !env.hasCpuCorePmu && !env.hasCpuAtomPmu) {
                // What perf_event_open would answer here (ENOENT: no such PMU), with the engine's advice.
                out.advice = openAdvice(ENOENT, e.attr, e.name, env, systemWide).toString();
                return out;
            }
        }
    }
    out.available = true;
    return out;
}

} // namespace rdt::pmu
