// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Lesson.h"
#include "core/Result.h"

#include <string>
#include <vector>

namespace rdt::lesson {

/// Parses lesson text (docs/LESSONS.md); every error names the line ("my-lesson:12: unknown keyword 'acton'").
/// `name` labels messages; the file's own `lesson NAME` line names the lesson.
Result<Lesson> parseLesson(const std::string& text, const std::string& name);
/// A built-in lesson (resources/lessons, compiled in) by name, or a lesson file by path.
Result<Lesson> loadLesson(const std::string& nameOrPath);
/// The built-in lessons' names, sorted.
std::vector<std::string> builtinLessonNames();

} // namespace rdt::lesson
