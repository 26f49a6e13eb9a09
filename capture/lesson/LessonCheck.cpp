// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonCheck.h"

#include "LessonRun.h"
#include "MountedMachine.h"
#include "PmuMeasurements.h"
#include "core/Text.h"

#include <chrono>
#include <thread>

namespace rdt::lesson {

namespace {

/// A `source resctrl` lesson's engine: the real backend on the simulated machine `sim --namespace` mounted (the
/// run's begin() checks that it serves the lesson's scenario).
Result<std::unique_ptr<engine::CaptureService>> openMountedLessonEngine(const Lesson& lesson, engine::ServiceOptions o)
{
    if (auto mounted = requireMountedMachine(lesson); !mounted) return mounted.error();
    o.rdt.spec = std::string("resctrl:") + kMountedMachinePath;
    return engine::CaptureService::open(o);
}

} // namespace

Result<std::unique_ptr<engine::CaptureService>> openLessonEngine(const Lesson& lesson, const std::string& who)
{
    engine::ServiceOptions o;
    o.who = who;
    if (lesson.rdtSource == "resctrl") return openMountedLessonEngine(lesson, o);
    o.rdt.spec = lesson.rdtSource;
    o.rdt.scenario = lesson.scenario;
    o.rdt.scenarioSetupOnly = true;
    return engine::CaptureService::open(o);
}

namespace {

/// One poll period: a simulated machine runs for it (as fast as it can); on a mounted machine, which runs in real
/// time, the period passes on the wall clock. Then the sampler polls and the run sees the events.
void tick(engine::CaptureService& engine, LessonRun& run)
{
    const auto next = engine.nowNs() + engine.samplingIntervalNs();
    if (engine.source().simulated)
        engine.advanceTo(next);
    else if (const auto now = engine.nowNs(); now < next)
        std::this_thread::sleep_for(std::chrono::nanoseconds(next - now));
    (void)engine.pollRdt(); // a failed poll arrives as an EngineError event and leaves a gap in the samples
    for (auto& e : engine.drainEvents())
        run.observe(e);
    run.update(engine);
}

/// `originNs`: the lesson's start on the engine's clock (0 for a simulated machine, CLOCK_MONOTONIC then for a mounted
/// one), so reports count the lesson's seconds.
StepCheck checkStep(engine::CaptureService& engine, LessonRun& run, const CheckOptions& options, std::uint64_t originNs)
{
    const auto& step = run.step();
    StepCheck out;
    out.title = step.title;
    auto fail = [&](const std::string& what) {
        out.ok = false;
        out.lines.push_back("FAIL: " + what);
    };
    // A refused action is tried again every poll, as a student would (a freed RMID leaves limbo later); a
    // done-when that never holds fails the step below.
    bool refused = false;
    auto attempt = [&] {
        auto r = run.perform(engine);
        if (!r.ok) {
            if (!refused) out.lines.push_back("refused: " + step.action.text + ": " + r.toString());
            refused = true;
            return;
        }
        std::string did = "did: " + step.action.text;
        for (const auto& n : r.notes)
            did += " (" + n + ")";
        out.lines.push_back(did);
        refused = false;
    };
    if (step.action.kind != LessonAction::Kind::None && options.performActions) attempt();
    for (auto& e : engine.drainEvents())
        run.observe(e);
    run.update(engine);
    const auto started = engine.nowNs();
    while (run.phase() == StepPhase::Action || run.phase() == StepPhase::Running) {
        if (run.phase() == StepPhase::Action && engine.nowNs() - started > options.actionLimitNs) {
            fail(formatString("done-when '%s' never held within %.0f s", step.doneWhen->text.c_str(),
                double(options.actionLimitNs) * 1e-9));
            return out;
        }
        tick(engine, run);
        if (refused && run.phase() == StepPhase::Action) attempt();
    }
    if (step.doneWhen) out.lines.push_back("detected: " + step.doneWhen->text);
    out.lines.push_back(formatString("ran %.1f s (simulated%s), now at %.1f s", double(step.runNs) * 1e-9,
        engine.source().simulated ? "" : ", in real time on the mounted machine",
        double(engine.nowNs() - originNs) * 1e-9));
    if (const auto& pmu = run.measurements().pmuReport(); pmu && step.action.kind == LessonAction::Kind::Pmu)
        for (const auto& line : describePmuReport(*pmu))
            out.lines.push_back("simulated PMU: " + line);
    for (const auto& c : run.claims()) {
        if (c.held)
            out.lines.push_back("claim held: " + c.text + " (" + c.detail + ")");
        else
            fail("claim '" + c.text + "' did not hold (" + c.detail + ")");
    }
    if (step.question.kind == LessonQuestion::Kind::Number) {
        auto measured = run.measuredAnswer();
        if (!measured) {
            fail("the answer '" + step.question.answer.text + "' was not measured: " + measured.error().message);
            return out;
        }
        auto graded = run.answerNumber(*measured);
        out.lines.push_back(formatString(
            "answer: %s = %.3g %s", step.question.answer.text.c_str(), *measured, step.question.unit.c_str()));
        if (!graded.right) fail("the measured answer was not graded right: " + graded.feedback);
    } else if (step.question.kind == LessonQuestion::Kind::Choice) {
        const auto right = run.rightChoices();
        if (right.size() != 1) {
            fail(formatString("%zu choices hold in this run; a question needs exactly one", right.size()));
            return out;
        }
        out.lines.push_back("answer: " + step.question.choices[right.front()].text);
        (void)run.answerChoice(right.front());
    }
    return out;
}

} // namespace

Result<LessonCheck> checkLesson(const Lesson& lesson, const std::function<void(const StepCheck&)>& progress)
{
    CheckOptions options;
    options.progress = progress;
    return checkLesson(lesson, options);
}

Result<LessonCheck> checkLesson(const Lesson& lesson, const CheckOptions& options)
{
    auto engine = openLessonEngine(lesson, "lesson-check");
    if (!engine) return engine.error();
    LessonRun run(lesson);
    if (auto r = run.begin(**engine); !r.ok) return r.error();
    // The mounted machine's clock is CLOCK_MONOTONIC: the lesson's seconds count from its start.
    const auto startNs = (*engine)->source().simulated ? 0 : (*engine)->nowNs();
    LessonCheck check;
    while (!run.finished()) {
        if (options.stepStarted) options.stepStarted(run.step(), run.stepIndex());
        auto step = checkStep(**engine, run, options, startNs);
        check.ok = check.ok && step.ok;
        if (options.progress) options.progress(step);
        check.steps.push_back(std::move(step));
        if (run.phase() == StepPhase::Done)
            run.next(**engine);
        else
            run.skip(**engine);
    }
    check.simulatedSeconds = double((*engine)->nowNs() - startNs) * 1e-9;
    return check;
}

} // namespace rdt::lesson
