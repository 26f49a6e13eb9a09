// SPDX-License-Identifier: GPL-3.0-or-later
// A lesson's PMU step sees a capture another front end started on its engine (the GUI's PMU controls) through the
// engine's PmuCaptureStarted event, exactly as its own action: a capture of the step's recipe and program completes
// the step and is measured; another recipe or program does not.
#include "LessonTestSupport.h"
#include "lesson/LessonCheck.h"
#include "lesson/LessonParser.h"
#include "lesson/LessonRun.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <variant>

using namespace rdt;
using namespace rdt::lesson;
using rdt::lesson::test::tick;

namespace {

const char* kLesson = R"(lesson t
title test
concept a PMU step started elsewhere
scenario noisy-neighbour
step A hash join
text Start TMA on the hash join.
action pmu tma program=backend
done-when pmu() == 1
run 1s
expect tma(backend) > tma(frontend)
)";

engine::PmuRequest simulated(engine::PmuCaptureKind kind, const std::string& program)
{
    engine::PmuRequest r;
    r.kind = kind;
    r.simulated = true;
    r.program = program;
    return r;
}

/// One tick, with the capture's owner (here the test, in the GUI the PMU pages) pumping it.
void tickPumping(engine::CaptureService& e, LessonRun& run, std::uint32_t id)
{
    ASSERT_TRUE(e.pumpPmu(id).ok);
    ASSERT_TRUE(e.readPmuCounters(id).ok);
    (void)e.drainPmuBatches();
    tick(e, run);
}

} // namespace

TEST(LessonPmuStartedElsewhere, TheEngineAnnouncesEveryStartedCapture)
{
    auto lesson = parseLesson(kLesson, "t");
    ASSERT_TRUE(lesson.ok()) << lesson.error().toString();
    auto engine = openLessonEngine(*lesson, "test");
    ASSERT_TRUE(engine.ok()) << engine.error().toString();
    auto& e = **engine;
    (void)e.drainEvents();
    auto started = e.startPmu(simulated(engine::PmuCaptureKind::LbrAny, "frontend"));
    ASSERT_TRUE(started.result.ok) << started.result.toString();
    std::vector<engine::PmuCaptureStarted> seen;
    for (auto& ev : e.drainEvents())
        if (auto* s = std::get_if<engine::PmuCaptureStarted>(&ev)) seen.push_back(*s);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].info.id, started.info.id);
    EXPECT_EQ(seen[0].request.kind, engine::PmuCaptureKind::LbrAny);
    EXPECT_EQ(seen[0].request.program, "frontend");
    EXPECT_TRUE(seen[0].info.simulated);
    // A refused request starts nothing and announces nothing.
    auto refused = simulated(engine::PmuCaptureKind::CpuClock, "");
    EXPECT_FALSE(e.startPmu(refused).result.ok);
    const auto after = e.drainEvents();
    EXPECT_TRUE(std::none_of(after.begin(), after.end(),
        [](const engine::EngineEvent& ev) { return std::holds_alternative<engine::PmuCaptureStarted>(ev); }));
}

TEST(LessonPmuStartedElsewhere, AMatchingCaptureCompletesTheStepAndIsMeasured)
{
    auto lesson = parseLesson(kLesson, "t");
    ASSERT_TRUE(lesson.ok()) << lesson.error().toString();
    auto engine = openLessonEngine(*lesson, "test");
    ASSERT_TRUE(engine.ok()) << engine.error().toString();
    auto& e = **engine;
    LessonRun run(*lesson);
    ASSERT_TRUE(run.begin(e).ok);
    ASSERT_EQ(run.phase(), StepPhase::Action);

    // Another recipe, or the step's recipe on another program: seen, not taken.
    auto lbr = e.startPmu(simulated(engine::PmuCaptureKind::LbrAny, "backend"));
    ASSERT_TRUE(lbr.result.ok);
    auto interpreter = e.startPmu(simulated(engine::PmuCaptureKind::Tma, "frontend"));
    ASSERT_TRUE(interpreter.result.ok);
    for (int i = 0; i < 2; ++i)
        tick(e, run);
    EXPECT_EQ(run.phase(), StepPhase::Action);
    EXPECT_FALSE(run.pmuCapture().has_value());

    // The step's recipe and program, as the PMU controls start it (the default recipe holds TMA).
    auto join = e.startPmu(simulated(engine::PmuCaptureKind::All, "backend"));
    ASSERT_TRUE(join.result.ok);
    tickPumping(e, run, join.info.id);
    EXPECT_EQ(run.phase(), StepPhase::Running);
    ASSERT_TRUE(run.pmuCapture().has_value());
    EXPECT_EQ(*run.pmuCapture(), join.info.id);
    EXPECT_FALSE(run.pmuCaptureOwned()) << "whoever started it pumps it";
    for (int i = 0; i < 20 && run.phase() == StepPhase::Running; ++i)
        tickPumping(e, run, join.info.id);
    ASSERT_EQ(run.phase(), StepPhase::Done);
    ASSERT_EQ(run.claims().size(), 1u);
    EXPECT_TRUE(run.claims()[0].held) << run.claims()[0].detail;
    run.end(e);
    EXPECT_FALSE(run.pmuCapture().has_value());
}
