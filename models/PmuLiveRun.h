// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Live capture for the GUI: one rdt::pmu::PerfSession per recipe (TMA counting, LBR, load latency, or the software
// cpu-clock recipe that works without a hardware PMU) on the chosen target, drained into PmuData on each step.
// Opening fails with the engine's advice when the PMU cannot run the recipe (checked first by checkLiveRecipe).

#include "PmuData.h"
#include "PmuLive.h"
#include "core/Result.h"
#include "pmu/PerfSession.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rdt::pmu {

/// What a live capture opens: its recipes, the notes of building them, and the TMA series they count into.
struct LivePlan {
    std::vector<Recipe> recipes;
    std::vector<std::string> notes; ///< PMUs left out, per-PMU limits (hybrid parts)
    /// One label per counting (TMA) recipe when they carry a core PMU label (hybrid parts: "P-cores (cpu_core)",
    /// "E-cores (cpu_atom)"), in recipe order; empty otherwise (one unnamed series). Becomes PmuData::tmaSeries.
    std::vector<std::string> tmaSeries;
    /// For each recipe, the TMA series its group reads go to (0 for sampling recipes).
    std::vector<std::uint32_t> seriesOfRecipe;
};

class PmuLiveRun {
public:
    /// The recipes start() opens for `kind` on a machine described by `env` (CpuClock: the software recipe; else
    /// every core PMU's, as buildLiveRecipes builds them, so a hybrid part counts TMA on both cpu_core and cpu_atom).
    static Result<LivePlan> plan(PmuRecipeKind kind, const PerfEnvironment& env);
    /// Opens and starts the recipe(s) on `target`. CpuClock needs no hardware PMU (software event).
    static Result<std::unique_ptr<PmuLiveRun>> start(PmuRecipeKind kind, const PerfTarget& target);
    /// Opens and starts a plan's recipes through `sys` (start() passes the kernel; tests a fake).
    static Result<std::unique_ptr<PmuLiveRun>> open(
        LivePlan plan, const PerfTarget& target, std::unique_ptr<PerfSyscalls> sys);
    ~PmuLiveRun();

    /// Drains the rings and reads the TMA group once (one TMA interval per step).
    void step(PmuData& data);
    /// A fresh PmuData labelled live.
    PmuData makeData(const std::string& what) const;
    /// True once a launched command has exited (nothing more will come).
    bool finished();

private:
    PmuLiveRun() = default;
    struct Capture {
        std::unique_ptr<PerfSession> session;
        bool counting = false;
        std::uint32_t series = 0; ///< the TMA series of a counting capture (LivePlan::seriesOfRecipe)
        ReadData last;
        bool haveLast = false;
    };
    std::unique_ptr<PerfSyscalls> m_sys;
    std::vector<Capture> m_captures;
    std::vector<std::string> m_notes; ///< from building the recipes (hybrid parts: per-PMU notes)
    std::vector<std::string> m_tmaSeries; ///< LivePlan::tmaSeries
    std::vector<std::uint32_t> m_pids; ///< attached processes, whose /proc/PID/maps name code mapped before the start
};

} // namespace rdt::pmu
