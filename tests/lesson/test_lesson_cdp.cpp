// SPDX-License-Identifier: GPL-3.0-or-later
// The `cdp on|off` header and action (docs/LESSONS.md): the lesson starts with CDP off, the student's own CDP switch
// through the engine is detected by cdp(), and ways(G, L3CODE) reads the remounted groups' masks. And a lesson
// that ends stops its PMU capture.
#include "LessonTestSupport.h"
#include "lesson/LessonCheck.h"
#include "lesson/LessonParser.h"
#include "lesson/LessonRun.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::lesson;
using rdt::lesson::test::tick;

namespace {

const char* kCdpLesson = R"(lesson c
title test
concept cdp
scenario cdp
cdp off
step Enable
text Enable CDP.
action cdp on
done-when cdp() == 1
run 1s
expect ways(frontend, L3CODE) == 20
step Tma
text Count.
action pmu tma
done-when pmu() == 1
run 1s
)";

} // namespace

TEST(LessonCdp, StartsWithCdpOffAndDetectsTheStudentsSwitch)
{
    auto lesson = parseLesson(kCdpLesson, "c");
    ASSERT_TRUE(lesson.ok()) << lesson.error().toString();
    ASSERT_TRUE(lesson->startCdp.has_value());
    EXPECT_FALSE(*lesson->startCdp);
    EXPECT_EQ(lesson->steps[0].action.kind, LessonAction::Kind::Cdp);
    auto engine = openLessonEngine(*lesson, "test");
    ASSERT_TRUE(engine.ok()) << engine.error().toString();
    auto& e = **engine;
    LessonRun run(*lesson);
    ASSERT_TRUE(run.begin(e).ok);
    EXPECT_FALSE(e.machine()->capabilities.cdpL3) << "the header remounted the cdp scenario without CDP";
    for (int i = 0; i < 3; ++i)
        tick(e, run);
    EXPECT_EQ(run.phase(), StepPhase::Action) << "no switch yet";
    // The student's own switch (not perform()), as the GUI's Edit menu makes it.
    ASSERT_TRUE(e.setCdp(true).ok);
    tick(e, run);
    EXPECT_EQ(run.phase(), StepPhase::Running);
    while (run.phase() == StepPhase::Running)
        tick(e, run);
    ASSERT_EQ(run.claims().size(), 1u);
    EXPECT_TRUE(run.claims()[0].held) << run.claims()[0].detail;
    run.next(e);

    // The PMU step: its capture runs until the lesson ends.
    ASSERT_TRUE(run.perform(e).ok);
    ASSERT_TRUE(run.pmuCapture().has_value());
    tick(e, run);
    run.end(e);
    EXPECT_FALSE(run.pmuCapture().has_value());
    std::string why;
    EXPECT_EQ(run.measurements().metric("pmu", {}, why).value_or(-1), 0.0) << "the capture was stopped";
}

TEST(LessonCdp, ParserRejectsABadCdpLine)
{
    std::string text = kCdpLesson;
    text.replace(text.find("action cdp on"), 13, "action cdp maybe");
    auto bad = parseLesson(text, "c");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().toString().find("c:8"), std::string::npos) << bad.error().toString();
    std::string header = kCdpLesson;
    header.replace(header.find("cdp off"), 7, "cdp sometimes");
    EXPECT_FALSE(parseLesson(header, "c").ok());
}
