// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson format: what parses, and malformed files rejected with the line that is wrong.
#include "lesson/LessonParser.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::lesson;

namespace {

const char* kGood = R"(# a comment
lesson demo
title A demo
concept fencing raises occupancy
scenario noisy-neighbour
sampling 500ms

step Look
text First line
text second line.
explain llc-occupancy cat
look timeline victim streamer
run 3s
window 1s
remember before = occupancy(victim)
expect occupancy(victim) < 8
question number How much?
answer occupancy(victim) within 20% unit MiB
hint Look at the timeline.

step Fence
text Do it.
action alloc streamer L3:0=003
done-when ways(streamer) <= 2
run 2s
question choice What happened?
choice rose when occupancy(victim) > $before
choice fell when occupancy(victim) <= $before
)";

std::string withLine(const std::string& text, int lineNo, const std::string& replacement)
{
    std::string out;
    int n = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        ++n;
        out += (n == lineNo ? replacement : text.substr(pos, end - pos)) + "\n";
        pos = end + 1;
    }
    return out;
}

} // namespace

TEST(LessonParser, ReadsEveryKeyword)
{
    auto l = parseLesson(kGood, "demo");
    ASSERT_TRUE(l.ok()) << l.error().toString();
    EXPECT_EQ(l->name, "demo");
    EXPECT_EQ(l->conceptText, "fencing raises occupancy");
    EXPECT_EQ(l->samplingNs, 500'000'000u);
    ASSERT_EQ(l->steps.size(), 2u);
    const auto& s = l->steps[0];
    EXPECT_EQ(s.text, "First line second line.");
    EXPECT_EQ(s.explain, (std::vector<std::string> { "llc-occupancy", "cat" }));
    ASSERT_TRUE(s.look.has_value());
    EXPECT_EQ(s.look->view, "timeline");
    EXPECT_EQ(s.look->groups.size(), 2u);
    EXPECT_EQ(s.runNs, 3'000'000'000u);
    EXPECT_EQ(s.windowNs, 1'000'000'000u);
    EXPECT_EQ(s.question.kind, LessonQuestion::Kind::Number);
    EXPECT_DOUBLE_EQ(s.question.tolerance, 0.2);
    EXPECT_FALSE(s.question.absoluteTolerance);
    EXPECT_EQ(s.question.unit, "MiB");
    EXPECT_EQ(s.question.answer.text, "occupancy(victim)");
    const auto& f = l->steps[1];
    EXPECT_EQ(f.action.kind, LessonAction::Kind::Alloc);
    EXPECT_EQ(f.action.group, "streamer");
    EXPECT_EQ(f.action.schemata, "L3:0=003");
    ASSERT_TRUE(f.doneWhen.has_value());
    EXPECT_EQ(f.doneWhen->op, "<=");
    ASSERT_EQ(f.question.choices.size(), 2u);
    EXPECT_EQ(f.question.choices[1].text, "fell");
}

TEST(LessonParser, RejectsMalformedLinesWithTheirNumber)
{
    struct Case {
        int line;
        const char* text;
        const char* says;
    };
    const Case cases[] = {
        { 8, "# no step line", "unknown keyword 'text' before the first step" }, // reported on line 9
        { 10, "txet second line.", "unknown keyword 'txet'" },
        { 13, "run soon", "'soon'" },
        { 16, "expect occupancy(victim) 8", "no comparison" },
        { 16, "expect occupncy(victim) < 8", "unknown function 'occupncy'" },
        { 16, "expect occupancy(victim < 8", "unbalanced parentheses" },
        { 18, "answer occupancy(victim) within lots", "tolerance" },
        { 23, "action paint streamer", "cannot read action" },
        { 23, "action pmu tma progrm=frontend", "cannot read 'progrm=frontend'" },
        { 23, "action pmu tma scale=1000", "cannot read 'scale=1000'" },
        { 23, "action pmu tma group=", "cannot read 'group='" },
        { 23, "action pmu cycles", "cannot read action" },
        { 5, "scenario no-such-scenario", "scenario 'no-such-scenario'" },
        { 26, "question essay Why?", "question must be" },
    };
    for (const auto& c : cases) {
        auto l = parseLesson(withLine(kGood, c.line, c.text), "demo");
        ASSERT_FALSE(l.ok()) << c.text;
        const auto& msg = l.error().message;
        EXPECT_NE(msg.find(c.says), std::string::npos) << c.text << " -> " << msg;
        const int reported = c.line == 8 ? 9 : c.line;
        EXPECT_NE(msg.find("demo:" + std::to_string(reported) + ":"), std::string::npos) << msg;
    }
}

TEST(LessonParser, RejectsIncompleteSteps)
{
    // An action without done-when: the error names the step's own line.
    auto noDetect = parseLesson(withLine(kGood, 24, "# no done-when"), "demo");
    ASSERT_FALSE(noDetect.ok());
    EXPECT_NE(noDetect.error().message.find("demo:21: step 'Fence': an action needs a done-when"), std::string::npos)
        << noDetect.error().message;
    auto oneChoice = parseLesson(withLine(kGood, 28, "# only one choice"), "demo");
    ASSERT_FALSE(oneChoice.ok());
    EXPECT_NE(oneChoice.error().message.find("at least two"), std::string::npos);
    auto header = parseLesson(withLine(kGood, 12, "sampling 1s"), "demo");
    ASSERT_FALSE(header.ok());
    EXPECT_NE(header.error().message.find("demo:12: 'sampling' belongs before the first step"), std::string::npos);
    auto noTitle = parseLesson(withLine(kGood, 3, "# no title"), "demo");
    ASSERT_FALSE(noTitle.ok());
    EXPECT_NE(noTitle.error().message.find("'title' line is missing"), std::string::npos);
    EXPECT_FALSE(parseLesson("", "empty").ok());
}

TEST(LessonParser, BuiltinsLoadAndFilesByPath)
{
    const auto names = builtinLessonNames();
    ASSERT_FALSE(names.empty());
    EXPECT_NE(std::find(names.begin(), names.end(), "noisy-neighbour"), names.end());
    for (const auto& n : names) {
        auto l = loadLesson(n);
        ASSERT_TRUE(l.ok()) << n << ": " << l.error().toString();
        EXPECT_EQ(l->name, n) << "a built-in lesson's file name and its 'lesson' line agree";
        EXPECT_FALSE(l->conceptText.empty());
    }
    auto missing = loadLesson("/no/such/lesson");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().advice.find("noisy-neighbour"), std::string::npos);
    auto dir = loadLesson("/");
    EXPECT_FALSE(dir.ok()) << "a directory is not a lesson";
}

TEST(LessonParser, ReadsAPmuRecipeAction)
{
    auto l = parseLesson(withLine(withLine(kGood, 23, "action pmu mem program=backend scale=8 ldlat=300 group=victim"),
                             24, "done-when pmu() == 1"),
        "demo");
    ASSERT_TRUE(l.ok()) << l.error().toString();
    const auto& a = l->steps[1].action;
    EXPECT_EQ(a.kind, LessonAction::Kind::Pmu);
    EXPECT_EQ(a.pmuRecipe, "mem");
    EXPECT_EQ(a.pmuProgram, "backend");
    EXPECT_DOUBLE_EQ(a.pmuScale, 8);
    EXPECT_EQ(a.pmuLdlat, 300u);
    EXPECT_EQ(a.pmuGroup, "victim");
}

// A step may have the student run a host tool (pqos) only on the mounted simulated machine (`source resctrl`).
TEST(LessonParser, RunActionsBelongToLessonsOnTheMountedMachine)
{
    const std::string withRun = withLine(kGood, 23, "action run pqos -I -e \"llc:1=0x3\"");
    auto refused = parseLesson(withRun, "demo");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("action 'run' needs 'source resctrl'"), std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("demo:23:"), std::string::npos) << refused.error().message;

    auto mounted = parseLesson(withLine(withRun, 6, "source resctrl"), "demo");
    ASSERT_TRUE(mounted.ok()) << mounted.error().toString();
    EXPECT_EQ(mounted->rdtSource, "resctrl");
    const auto& a = mounted->steps[1].action;
    EXPECT_EQ(a.kind, LessonAction::Kind::Run);
    EXPECT_EQ(a.command, "pqos -I -e \"llc:1=0x3\"");

    // A real machine's resctrl by path is no lesson source.
    auto path = parseLesson(withLine(kGood, 6, "source resctrl:/sys/fs/resctrl"), "demo");
    ASSERT_FALSE(path.ok());
    EXPECT_NE(path.error().message.find("is not a simulated source"), std::string::npos) << path.error().message;
}
