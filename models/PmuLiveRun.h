// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Live capture for the GUI: one rdt::pmu::PerfSession per recipe (TMA counting, LBR, load latency, or the software
// cpu-clock recipe that works without a hardware PMU) on the chosen target, drained into PmuData on each step.
// Opening fails with the engine's advice when the PMU cannot run the recipe (checked first by checkLiveRecipe).

#include "PmuData.h"
#include "PmuLive.h"
#include "core/Result.h"
#include "pmu/PerfSession.h"

#include <memory>
#include <vector>

namespace rdt::pmu {

class PmuLiveRun {
public:
    /// Opens and starts the recipe(s) on `target`. CpuClock needs no hardware PMU (software event).
    static Result<std::unique_ptr<PmuLiveRun>> start(PmuRecipeKind kind, const PerfTarget& target);
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
        ReadData last;
        bool haveLast = false;
    };
    std::unique_ptr<LinuxPerfSyscalls> m_sys;
    std::vector<Capture> m_captures;
    std::vector<std::string> m_notes; ///< from building the recipes (hybrid parts: per-PMU notes)
};

} // namespace rdt::pmu
