// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonCheck.h"

#include "LessonRun.h"
#include "PmuMeasurements.h"
#include "core/Text.h"

namespace rdt::lesson {

Result<std::unique_ptr<engine::CaptureService>> openLessonEngine(const Lesson& lesson, const std::string& who)
{
    engine::ServiceOptions o;
    o.who = who;
    o.rdt.spec = lesson.rdtSource;
    o.rdt.scenario = lesson.scenario;
    o.rdt.scenarioSetupOnly = true;
    return engine::CaptureService::open(o);
}

namespace {

/// How long a step may wait for its done-when after its action was performed (simulated): a condition that never
/// holds is a broken lesson, not an endless run.
constexpr std::uint64_t kDetectLimitNs = 30'000'000'000;

/// One poll period of simulated time: the machine runs, the sampler polls, the run sees the events.
void tick(engine::CaptureService& engine, LessonRun& run)
{
    engine.advanceTo(engine.nowNs() + engine.samplingIntervalNs());
    (void)engine.pollRdt(); // a failed poll arrives as an EngineError event and leaves a gap in the samples
    for (auto& e : engine.drainEvents())
        run.observe(e);
    run.update(engine);
}

StepCheck checkStep(engine::CaptureService& engine, LessonRun& run)
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
    if (step.action.kind != LessonAction::Kind::None) attempt();
    for (auto& e : engine.drainEvents())
        run.observe(e);
    run.update(engine);
    const auto started = engine.nowNs();
    while (run.phase() == StepPhase::Action || run.phase() == StepPhase::Running) {
        if (run.phase() == StepPhase::Action && engine.nowNs() - started > kDetectLimitNs) {
            fail("done-when '" + step.doneWhen->text + "' never held");
            return out;
        }
        tick(engine, run);
        if (refused && run.phase() == StepPhase::Action) attempt();
    }
    if (step.doneWhen) out.lines.push_back("detected: " + step.doneWhen->text);
    out.lines.push_back(formatString(
        "ran %.1f s (simulated), now at %.1f s", double(step.runNs) * 1e-9, double(engine.nowNs()) * 1e-9));
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
    auto engine = openLessonEngine(lesson, "lesson-check");
    if (!engine) return engine.error();
    LessonRun run(lesson);
    if (auto r = run.begin(**engine); !r.ok) return r.error();
    LessonCheck check;
    while (!run.finished()) {
        auto step = checkStep(**engine, run);
        check.ok = check.ok && step.ok;
        if (progress) progress(step);
        check.steps.push_back(std::move(step));
        if (run.phase() == StepPhase::Done)
            run.next(**engine);
        else
            run.skip(**engine);
    }
    check.simulatedSeconds = double((*engine)->nowNs()) * 1e-9;
    return check;
}

} // namespace rdt::lesson
