// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The engine a lesson runs on, and the automatic player behind `rdtscope-cli lesson NAME --check` (and every
// lesson's ctest): it performs each step's action through the engine, runs the simulated machine as fast as it
// can, and checks that the action was detected, that every claim held and that every question has one answer
// measured in this run.

#include "Lesson.h"
#include "engine/CaptureService.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rdt::lesson {

/// A capture service over the lesson's simulated source (`sim` or `sim-msr`) running its scenario's set-up only (the
/// student performs the changes). `who` names the applier in allocation events ("gui", "cli", "lesson-check").
/// A `source resctrl` lesson opens the real resctrl backend on /sys/fs/resctrl, and only when the simulated
/// machine is mounted there (`rdtscope-cli sim --namespace --scenario SCENARIO`) with the scenario's groups: the
/// error says how to start it otherwise.
Result<std::unique_ptr<engine::CaptureService>> openLessonEngine(const Lesson& lesson, const std::string& who);

struct StepCheck {
    std::string title;
    bool ok = true;
    std::vector<std::string> lines; ///< what was done and measured, one finding a line ("FAIL: ..." for failures)
};

struct LessonCheck {
    bool ok = true;
    std::vector<StepCheck> steps;
    double simulatedSeconds = 0;
};

struct CheckOptions {
    /// true: perform each step's action (`--check`); false: wait for the student to do it (`--follow`), in
    /// another front end or, in a `source resctrl` lesson, with the host tool the step names.
    bool performActions = true;
    /// How long a step waits for its done-when (simulated time, or wall time on a mounted machine).
    std::uint64_t actionLimitNs = 30'000'000'000;
    /// Sees each step as it begins (what `--follow` shows the student), before its action.
    std::function<void(const LessonStep&, std::size_t index)> stepStarted;
    /// Sees each step's result as soon as it is known.
    std::function<void(const StepCheck&)> progress;
};

/// Plays the whole lesson. Simulated sources run as fast as they can; a `source resctrl` lesson runs in real time
/// (one poll per sampling interval), as the mounted machine does.
Result<LessonCheck> checkLesson(const Lesson& lesson, const CheckOptions& options);
/// The same with the defaults (actions performed); `progress` (optional) sees each step's result.
Result<LessonCheck> checkLesson(const Lesson& lesson, const std::function<void(const StepCheck&)>& progress = {});

} // namespace rdt::lesson
