// SPDX-License-Identifier: GPL-3.0-or-later
// The pqos-fence lesson (resources/lessons/pqos-fence.lesson) as a student plays it: inside `rdtscope-cli sim
// --namespace --scenario pqos-neighbour`, `rdtscope-cli lesson pqos-fence --follow` watches the mount while the test
// types pqos commands as each step asks for them. The lesson holds when the student fences the streamer's CPU into
// two ways, and fails, saying which check, when the student gives the class every way or fences the victim too.
// Every wait is bounded (polls of the lesson's output, --wait, timeout(1)).
#include "NamespaceRun.h"
#include "rdt/MountType.h"

#include <string>

using namespace rdt::simfs::test;

namespace {

/// The student's session: the lesson in the background, then at each of the steps 2 and 3 (once the lesson printed
/// it) the student's pqos command; the lesson's exit code and output at the end.
CliRun playLesson(const std::string& step2Command, const std::string& step3Command)
{
    const std::string waitFor = "for i in $(seq 300); do grep -q \"^STEP\\. \" \"$out\" && break; sleep 0.1; done; ";
    auto waitForStep = [&](int step) {
        std::string w = waitFor;
        w.replace(w.find("STEP"), 4, std::to_string(step));
        return w;
    };
    return inNamespace("out=$(mktemp); rdtscope-cli lesson pqos-fence --follow --wait 8 >\"$out\" 2>&1 & l=$!; "
            + waitForStep(2) + step2Command + " >/dev/null 2>&1; " + waitForStep(3) + step3Command
            + " >/dev/null 2>&1; wait $l; echo \"lesson exit $?\"; cat \"$out\"",
        120, "--scenario pqos-neighbour");
}

class PqosLesson : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (auto why = pqosUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
    }
};

} // namespace

TEST_F(PqosLesson, HoldsWhenTheStudentFencesTheStreamersCpu)
{
    const CliRun r = playLesson("pqos -I -e \"llc:1=0x3\"", "pqos -I -a \"llc:1=1\"");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("lesson exit 0"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("   do: pqos -I -e \"llc:1=0x3\""), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("detected: ways(COS1) <= 2"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("detected: cpuways(1) <= 2"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("claim held: occupancy(mon_groups/victim) > 2 * $occBefore"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("claim held: occupancy(mon_groups/victim) > 10"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("FAIL"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("# lesson holds: 4 steps"), std::string::npos) << r.output;
}

TEST_F(PqosLesson, FailsWhenTheStudentGivesTheStreamerEveryWay)
{
    const CliRun r = playLesson("pqos -I -e \"llc:1=0x7ff\"", "pqos -I -a \"llc:1=1\"");
    ASSERT_EQ(r.exitCode, 0) << r.output; // the shell's; the lesson's own exit is below
    EXPECT_NE(r.output.find("lesson exit 1"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("FAIL: done-when 'ways(COS1) <= 2' never held within 8 s"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("FAIL: done-when 'cpuways(1) <= 2' never held within 8 s"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("FAIL: claim 'occupancy(mon_groups/victim) > 10' did not hold"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("# LESSON FAILED"), std::string::npos) << r.output;
}

TEST_F(PqosLesson, FailsWhenTheStudentFencesTheVictimToo)
{
    // COS1 gets two ways as asked, but both CPUs go into it: the streamer is fenced, and the victim with it, into the
    // same two ways. The schemata check passes; the CPU check and the re-measured occupancy do not.
    const CliRun r = playLesson("pqos -I -e \"llc:1=0x3\"", "pqos -I -a \"llc:1=0,1\"");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("lesson exit 1"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("detected: cpuways(1) <= 2"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("FAIL: claim 'cpuways(0) > 2' did not hold"), std::string::npos) << r.output;
    EXPECT_NE(
        r.output.find("FAIL: claim 'occupancy(mon_groups/victim) > 2 * $occBefore' did not hold"), std::string::npos)
        << r.output;
}

// Outside the namespace the lesson has no machine to run on: it says how to start one, exit 3 (unavailable here).
TEST(PqosLessonOutsideTheNamespace, SaysHowToStartTheMountedMachine)
{
    if (rdt::mountTypeAt("/sys/fs/resctrl") == "fuse.resctrl")
        GTEST_SKIP() << "this test runs inside a simulated mount already";
    const CliRun r = runCli("lesson pqos-fence --check", 30);
    EXPECT_EQ(r.exitCode, 3) << r.output;
    EXPECT_NE(r.output.find("runs on the simulated machine mounted at /sys/fs/resctrl"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("sim --namespace --scenario pqos-neighbour"), std::string::npos) << r.output;
}

// On a mounted machine that serves another scenario (here the default one) the lesson names the missing group.
TEST_F(PqosLesson, RefusesAMountWithoutItsScenario)
{
    const CliRun r = inNamespace("rdtscope-cli lesson pqos-fence --check; echo \"lesson exit $?\"", 60);
    EXPECT_NE(r.output.find("lesson exit 3"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("has no group 'mon_groups/victim': it does not serve scenario 'pqos-neighbour'"),
        std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("did: run pqos"), std::string::npos) << "no pqos command runs there:\n" << r.output;
}

// --follow waits for actions someone else performs on the mounted machine; a simulated lesson's machine lives in the
// playing process, so nothing could ever act on it: a usage error that says where to play it.
TEST(PqosLessonOutsideTheNamespace, FollowIsForLessonsOnTheMountedMachine)
{
    const CliRun simulated = runCli("lesson noisy-neighbour --follow", 30);
    EXPECT_EQ(simulated.exitCode, 2) << simulated.output;
    EXPECT_NE(simulated.output.find("play it in the GUI (rdtscope --lesson noisy-neighbour) or --check it"),
        std::string::npos)
        << simulated.output;
    const CliRun both = runCli("lesson pqos-fence --check --follow", 30);
    EXPECT_EQ(both.exitCode, 2) << both.output;
}
