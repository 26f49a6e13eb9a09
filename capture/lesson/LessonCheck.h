// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The engine a lesson runs on, and the automatic player behind `rdtscope-cli lesson NAME --check` (and every
// lesson's ctest): it performs each step's action through the engine, runs the simulated machine as fast as it
// can, and checks that the action was detected, that every claim held and that every question has one answer
// measured in this run.

#include "Lesson.h"
#include "engine/CaptureService.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rdt::lesson {

/// A capture service over the lesson's simulated source (`sim` or `sim-msr`) running its scenario's set-up only (the
/// student performs the changes). `who` names the applier in allocation events ("gui", "cli", "lesson-check").
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

/// Plays the whole lesson; `progress` (optional) sees each step's result as soon as it is known.
Result<LessonCheck> checkLesson(const Lesson& lesson, const std::function<void(const StepCheck&)>& progress = {});

} // namespace rdt::lesson
