// SPDX-License-Identifier: GPL-3.0-or-later
// A lesson run on the real engine over the simulated machine: the action is detected from the engine's events,
// answers are graded against what this run measured, skip and reset work; and the checker fails a false claim.
#include "LessonTestSupport.h"
#include "lesson/LessonCheck.h"
#include "lesson/LessonParser.h"
#include "lesson/LessonRun.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::lesson;
using rdt::lesson::test::tick;

namespace {

const char* kLesson = R"(lesson t
title test
concept fencing
scenario noisy-neighbour
step Watch
text Watch.
run 3s
remember before = occupancy(victim)
question number Victim occupancy?
answer occupancy(victim) within 10% unit MiB
hint first hint
hint second hint
step Fence
text Fence.
action alloc streamer L3:0=003
done-when ways(streamer) <= 2
run 4s
expect occupancy(victim) > 2 * $before
question choice Victim?
choice rose when occupancy(victim) > $before
choice fell when occupancy(victim) <= $before
)";

} // namespace

TEST(LessonRun, DetectsTheStudentsActionAndGradesAgainstTheRun)
{
    auto lesson = parseLesson(kLesson, "t");
    ASSERT_TRUE(lesson.ok()) << lesson.error().toString();
    auto engine = openLessonEngine(*lesson, "test");
    ASSERT_TRUE(engine.ok()) << engine.error().toString();
    auto& e = **engine;
    LessonRun run(*lesson);
    ASSERT_TRUE(run.begin(e).ok);
    EXPECT_EQ(run.phase(), StepPhase::Running);
    EXPECT_FALSE(run.measuredAnswer().ok()) << "nothing to grade before the step ran";
    while (run.phase() == StepPhase::Running)
        tick(e, run);
    ASSERT_EQ(run.phase(), StepPhase::Question);
    auto measured = run.measuredAnswer();
    ASSERT_TRUE(measured.ok()) << measured.error().message;
    EXPECT_GT(*measured, 1.0);
    EXPECT_FALSE(run.answerNumber(*measured * 2).right);
    EXPECT_EQ(run.phase(), StepPhase::Question) << "a wrong answer leaves the question open";
    EXPECT_EQ(run.nextHint(), "first hint");
    EXPECT_EQ(run.nextHint(), "second hint");
    EXPECT_TRUE(run.answerNumber(*measured * 1.05).right) << "within 10 %";
    EXPECT_EQ(run.phase(), StepPhase::Done);
    run.next(e);
    EXPECT_EQ(run.stepIndex(), 1u);
    EXPECT_EQ(run.phase(), StepPhase::Action);

    // Time passes without the action: the step waits.
    for (int i = 0; i < 3; ++i)
        tick(e, run);
    EXPECT_EQ(run.phase(), StepPhase::Action);
    // A change that does not satisfy done-when (4 ways) is seen but does not complete the step.
    auto four = Schemata::parseStrict("L3:0=00f");
    ASSERT_TRUE(e.applyAllocation("streamer", *four).result.ok);
    tick(e, run);
    EXPECT_EQ(run.phase(), StepPhase::Action);
    // The student's own change (not perform()): detected from the AllocationChanged event.
    auto two = Schemata::parseStrict("L3:0=003");
    ASSERT_TRUE(e.applyAllocation("streamer", *two).result.ok);
    tick(e, run);
    EXPECT_EQ(run.phase(), StepPhase::Running);
    while (run.phase() == StepPhase::Running)
        tick(e, run);
    ASSERT_EQ(run.claims().size(), 1u);
    EXPECT_TRUE(run.claims()[0].held) << run.claims()[0].detail;
    EXPECT_EQ(run.rightChoices(), std::vector<std::size_t> { 0 });
    EXPECT_FALSE(run.answerChoice(1).right);
    EXPECT_TRUE(run.answerChoice(0).right);
    run.next(e);
    EXPECT_TRUE(run.finished());
    EXPECT_EQ(run.completedSteps(), 2u);

    // Reset: back to step one, nothing remembered.
    ASSERT_TRUE(run.begin(e).ok);
    EXPECT_EQ(run.stepIndex(), 0u);
    EXPECT_FALSE(run.finished());
    run.skip(e);
    EXPECT_TRUE(run.stepSkipped(0));
    EXPECT_EQ(run.stepIndex(), 1u);
}

TEST(LessonRun, CheckerFailsAFalseClaimAndAnUndetectedAction)
{
    std::string text = kLesson;
    text.replace(text.find("> 2 * $before"), 13, "< $before / 2");
    auto wrongClaim = parseLesson(text, "t");
    ASSERT_TRUE(wrongClaim.ok());
    auto check = checkLesson(*wrongClaim);
    ASSERT_TRUE(check.ok()) << check.error().toString();
    EXPECT_FALSE(check->ok);
    ASSERT_EQ(check->steps.size(), 2u);
    EXPECT_TRUE(check->steps[0].ok);
    EXPECT_FALSE(check->steps[1].ok);

    std::string never = kLesson;
    never.replace(never.find("ways(streamer) <= 2"), 19, "ways(streamer) <= 1");
    auto undetected = parseLesson(never, "t");
    ASSERT_TRUE(undetected.ok());
    auto c2 = checkLesson(*undetected);
    ASSERT_TRUE(c2.ok());
    EXPECT_FALSE(c2->ok);
    bool said = false;
    for (const auto& line : c2->steps[1].lines)
        said = said || line.find("never held") != std::string::npos;
    EXPECT_TRUE(said);
}
