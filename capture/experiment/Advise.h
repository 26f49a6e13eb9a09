// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The advisor run end to end through the engine: measure the groups as they are, sweep each one's ways alone (the
// others on the rest), propose masks for all (Advisor.h), and on request apply them as one transaction over the
// groups (each group's change is the engine's transaction; a refusal restores the groups already changed) and
// measure again, so the measured change can be set against the prediction.

#include "Advisor.h"
#include "Measurement.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rdt::experiment {

struct AdviseSettings {
    std::vector<std::string> groups;
    AdviceSettings advice;
    SweepSettings sweep; ///< settle, measure, poll, pacing and tolerance of each group's sweep
    bool apply = false;
};

struct AdviseResult {
    std::map<std::string, GroupMeasure> before; ///< at the allocation found
    std::vector<GroupCurve> curves;
    Advice advice;
    bool applied = false;
    std::vector<std::string> applyLog;
    std::map<std::string, GroupMeasure> after; ///< after applying
    std::vector<std::string> notes;
    bool stopped = false; ///< a stop came during a sweep (its allocation is restored; nothing was proposed)
    bool simulated = false;
};

struct AdviseHooks {
    std::function<bool()> stopRequested;
    std::function<void(const std::string& group, const SweepStep& step, unsigned planned)> onSweepStep;
    /// A step of a group's sweep was written, before its settle time (SweepHooks::onStepStart).
    std::function<void(const std::string& group, unsigned index, std::uint64_t value, const std::string& written,
        std::uint64_t timeNs)>
        onSweepStepStart;
    std::function<void(const engine::EngineEvent&)> onEvent;
    std::function<void(const RdtSampleBatch&)> onBatch; ///< every poll's samples (a session records them)
    std::function<void(const std::string& what)> onPhase; ///< "measuring the current allocation", "sweeping victim"
};

Result<AdviseResult> runAdvise(engine::Engine& engine, const AdviseSettings& settings, const AdviseHooks& hooks = {});

/// Applies `advice` group by group; when one is refused, the groups already changed get their `original` lines
/// back. The log says what was written and restored.
Status applyAdvice(engine::Engine& engine, const Advice& advice, const std::vector<GroupWrite>& original,
    std::vector<std::string>& log);

} // namespace rdt::experiment
