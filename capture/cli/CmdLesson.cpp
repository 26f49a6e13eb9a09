// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli lesson: the guided exercises (docs/LESSONS.md). `--list` names every lesson with its concept;
// `lesson NAME` prints its steps; `lesson NAME --check` plays it on the simulated machine (performing each action)
// and checks every condition, claim and answer against what that run measured: what the tests run per lesson.
#include "Commands.h"
#include "Options.h"
#include "lesson/LessonCheck.h"
#include "lesson/LessonParser.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <optional>

namespace rdt::cli {

namespace {

struct LessonOptions {
    bool list = false, check = false, follow = false;
    std::optional<double> waitSeconds;
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
    if (o.check && o.follow) {
        std::fprintf(stderr, "rdtscope-cli lesson: --check performs the actions, --follow waits for yours: pick one\n");
        return ExitUsage;
    }
    if (!o.check && !o.follow) {
        printSteps(*l);
        return ExitOk;
    }
    const bool mounted = l->rdtSource == "resctrl";
    if (o.follow && !mounted) {
        // A simulated lesson's machine lives in this process: nobody else can act on it.
        std::fprintf(stderr,
            "rdtscope-cli lesson: --follow waits for actions on the mounted machine, and lesson %s runs on a "
            "simulated machine of its own: play it in the GUI (rdtscope --lesson %s) or --check it\n",
            l->name.c_str(), l->name.c_str());
        return ExitUsage;
    }
    if (mounted)
        std::printf("# lesson %s on the simulated machine mounted at /sys/fs/resctrl (scenario %s, real time): all "
                    "figures are simulated\n",
            l->name.c_str(), l->scenario.c_str());
    else
        std::printf("# lesson %s on the simulated machine (scenario %s): all figures are simulated\n", l->name.c_str(),
            l->scenario.c_str());
    std::size_t n = 0;
    const auto wallStart = std::chrono::steady_clock::now();
    lesson::CheckOptions options;
    options.performActions = o.check;
    if (o.waitSeconds)
        options.actionLimitNs = std::uint64_t(*o.waitSeconds * 1e9);
    else if (o.follow)
        options.actionLimitNs = 600'000'000'000;
    if (o.follow)
        options.stepStarted = [&](const lesson::LessonStep& s, std::size_t index) {
            std::printf("\n%zu. %s\n%s\n", index + 1, s.title.c_str(), s.text.c_str());
            if (s.action.kind != lesson::LessonAction::Kind::None)
                std::printf("   do: %s\n   waiting until %s (at most %.0f s)\n",
                    s.action.kind == lesson::LessonAction::Kind::Run ? s.action.command.c_str() : s.action.text.c_str(),
                    s.doneWhen->text.c_str(), double(options.actionLimitNs) * 1e-9);
            std::fflush(stdout);
        };
    options.progress = [&](const lesson::StepCheck& s) {
        std::printf("step %zu: %s: %s\n", ++n, s.title.c_str(), s.ok ? "ok" : "FAILED");
        for (const auto& line : s.lines)
            std::printf("    %s\n", line.c_str());
        std::fflush(stdout);
    };
    auto check = lesson::checkLesson(*l, options);
    if (!check) {
        std::fprintf(stderr, "rdtscope-cli lesson: %s\n", check.error().toString().c_str());
        return check.error().code == ENODEV || check.error().code == ENOENT ? ExitUnavailable : ExitFailure;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    std::printf("# %s: %zu steps, %.0f s simulated in %.1f s\n", check->ok ? "lesson holds" : "LESSON FAILED",
        check->steps.size(), check->simulatedSeconds, wall);
    if (o.follow && !check->ok)
        std::printf("# a step fails when its action is not seen in time or what it claims did not happen: read its "
                    "FAIL line, then start again\n");
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
    cmd.add_flag("--follow", o->follow,
        "lessons on the mounted machine (source resctrl): wait for you to do each step's action with the host tool "
        "it names, then check its claims and print the measured answers");
    addNumber(cmd, "--wait", o->waitSeconds, { 1, 86400 }, "S",
        "how long a step waits for its action (default 30 s of simulated time with --check, 600 s with --follow)");
    return [o] { return runLesson(*o); };
}

} // namespace rdt::cli
