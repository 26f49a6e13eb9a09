// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuLive.h"

#include "pmu/PerfSyscalls.h"
#include "pmu/PmuCpuid.h"
#include "pmu/Recipes.h"

#include <cerrno>
#include <vector>

namespace rdt::pmu {

LiveCheck checkLiveRecipe(PmuRecipeKind kind, bool systemWide)
{
    LiveCheck out;
    LinuxPerfSyscalls sys;
    const PerfEnvironment env = sys.environment();
    auto enc = EventEncoder::create(env.hasCpuCorePmu ? env.cpuCoreType : 0);
    if (!enc) {
        out.advice = enc.error().toString();
        return out;
    }
    const RecipeOptions opt = hostRecipeOptions(env, readPmuCpuid());
    std::vector<Result<Recipe>> recipes;
    if (kind == PmuRecipeKind::All || kind == PmuRecipeKind::Tma) recipes.push_back(tmaRecipe(*enc, opt));
    if (kind == PmuRecipeKind::All || kind == PmuRecipeKind::LbrCallStack)
        recipes.push_back(lbrRecipe(*enc, LbrMode::CallStack, opt));
    if (kind == PmuRecipeKind::LbrAny) recipes.push_back(lbrRecipe(*enc, LbrMode::AnyBranch, opt));
    if (kind == PmuRecipeKind::All || kind == PmuRecipeKind::LoadLatency)
        recipes.push_back(loadLatencyRecipe(*enc, opt));
    for (const auto& r : recipes) {
        if (!r) {
            out.advice = r.error().toString();
            return out;
        }
        for (const auto& e : r->events) {
            if (needsCpuPmu(e.attr) && !env.hasCpuPmu && !env.hasCpuCorePmu) {
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
