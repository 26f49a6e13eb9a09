// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli lesson: the guided exercises (docs/LESSONS.md). `--list` names every lesson with its concept;
// `lesson NAME` prints its steps; `lesson NAME --check` plays it on the simulated machine (performing each action)
// and checks every condition, claim and answer against what that run measured: what the tests run per lesson.
#include "Commands.h"
#include "Options.h"
#include "lesson/LessonCheck.h"
#include "lesson/LessonParser.h"

#include <chrono>
#include <cstdio>

namespace rdt::cli {

namespace {

struct LessonOptions {
    bool list = false, check = false;
    std::string lesson;
};

void printSteps(const lesson::Lesson& l)
{
    std::printf("%s: %s\nconcept: %s\nscenario: %s (simulated)\n", l.name.c_str(), l.title.c_str(),
        l.conceptText.c_str(), l.scenario.c_str());
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
        const auto& s = l.steps[i];
        std::printf("\n%zu. %s\n%s\n", i + 1, s.title.c_str(), s.text.c_str());
        if (s.action.kind != lesson::LessonAction::Kind::None) std::printf("   action: %s\n", s.action.text.c_str());
        if (s.question.kind != lesson::LessonQuestion::Kind::None)
            std::printf("   question: %s\n", s.question.text.c_str());
        for (std::size_t c = 0; c < s.question.choices.size(); ++c)
            std::printf("     %c) %s\n", char('a' + c), s.question.choices[c].text.c_str());
    }
}

int runLesson(const LessonOptions& o)
{
    if (o.list) {
        std::printf("lessons (built in; any file in the same format works by path):\n");
        for (const auto& n : lesson::builtinLessonNames()) {
            auto l = lesson::loadLesson(n);
            std::printf("  %-20s %s\n", n.c_str(), l ? l->conceptText.c_str() : l.error().toString().c_str());
        }
        return ExitOk;
    }
    if (o.lesson.empty()) {
        std::fprintf(stderr, "rdtscope-cli lesson: name a lesson, or --list\n");
        return ExitUsage;
    }
    auto l = lesson::loadLesson(o.lesson);
    if (!l) {
        std::fprintf(stderr, "rdtscope-cli lesson: %s\n", l.error().toString().c_str());
        return ExitFailure;
    }
    if (!o.check) {
        printSteps(*l);
        return ExitOk;
    }
    std::printf("# lesson %s on the simulated machine (scenario %s): all figures are simulated\n", l->name.c_str(),
        l->scenario.c_str());
    std::size_t n = 0;
    const auto wallStart = std::chrono::steady_clock::now();
    auto check = lesson::checkLesson(*l, [&](const lesson::StepCheck& s) {
        std::printf("step %zu: %s: %s\n", ++n, s.title.c_str(), s.ok ? "ok" : "FAILED");
        for (const auto& line : s.lines)
            std::printf("    %s\n", line.c_str());
        std::fflush(stdout);
    });
    if (!check) {
        std::fprintf(stderr, "rdtscope-cli lesson: %s\n", check.error().toString().c_str());
        return ExitFailure;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    std::printf("# %s: %zu steps, %.0f s simulated in %.1f s\n", check->ok ? "lesson holds" : "LESSON FAILED",
        check->steps.size(), check->simulatedSeconds, wall);
    return check->ok ? ExitOk : ExitFailure;
}

} // namespace

CommandRun defineLesson(CLI::App& cmd)
{
    cmd.footer("Lessons run on the simulated machine; everything they measure is simulated. Format: docs/LESSONS.md.");
    auto o = std::make_shared<LessonOptions>();
    cmd.add_option("lesson", o->lesson, "a built-in lesson or a lesson file")->type_name("NAME|FILE");
    cmd.add_flag("--list", o->list, "list the built-in lessons with the concept each teaches");
    cmd.add_flag(
        "--check", o->check, "play the lesson (performing every action) and check its conditions, claims and answers");
    return [o] { return runLesson(*o); };
}

} // namespace rdt::cli
