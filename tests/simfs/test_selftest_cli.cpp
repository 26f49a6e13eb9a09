// SPDX-License-Identifier: GPL-3.0-or-later
// `rdtscope-cli selftest` as users run it (issue 45's "Done when" lines): on the simulated machine, through the
// simulated machine mounted at /sys/fs/resctrl by `sim --namespace` (root and /dev/fuse; skipped with the reason
// otherwise), on a machine without resctrl (exit 3 with the reason), and a saved copy reopened. Every run is bounded
// by timeout(1).
#include "FuseTestUtil.h"

#include "selftest/ResctrlAbsence.h"
#include "selftest/ResctrlSelftest.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>

using namespace rdt::simfs::test;

namespace {

struct CliRun {
    int exitCode = -1;
    std::string out; ///< stdout
    std::string err; ///< stderr
};

std::string quote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

/// The build's rdtscope-cli with `args` (already quoted as needed), at most `seconds`.
CliRun cli(const std::string& args, int seconds = 60)
{
    const std::string errFile = ::testing::TempDir() + "rdtscope-selftest-cli.err";
    const std::string cmd = "timeout " + std::to_string(seconds) + " " + std::string(RDTSCOPE_CLI) + " " + args
        + " </dev/null 2>" + quote(errFile);
    CliRun r;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        r.out.append(buf, n);
    const int status = ::pclose(p);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream e(errFile);
    std::ostringstream s;
    s << e.rdbuf();
    r.err = s.str();
    std::filesystem::remove(errFile);
    return r;
}

/// The check lines of a selftest run (those not starting with '#'), each checked: PASS or SKIP (FAIL is counted),
/// the check's name, its section in parentheses, and a reason after ": " on every SKIP.
struct Lines {
    unsigned pass = 0, skip = 0, fail = 0, other = 0;
    std::vector<std::string> skips;
};
Lines checkLines(const std::string& out)
{
    Lines l;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (line.rfind("PASS ", 0) == 0) {
            ++l.pass;
        } else if (line.rfind("SKIP ", 0) == 0) {
            ++l.skip;
            l.skips.push_back(line);
            EXPECT_NE(line.find("): "), std::string::npos) << "a SKIP without its reason: " << line;
        } else if (line.rfind("FAIL ", 0) == 0) {
            ++l.fail;
        } else {
            ++l.other;
            ADD_FAILURE() << "not a check line: " << line;
        }
        EXPECT_NE(line.find(" ("), std::string::npos) << "no section: " << line;
    }
    return l;
}

} // namespace

// Done when: `rdtscope-cli selftest --source sim --write` prints only PASS and SKIP lines and exits 0. On the
// simulated machine every check can run, so every one passes, the effect checks included.
TEST(SelftestCli, SimulatedMachineWithWritePassesEveryCheck)
{
    const CliRun r = cli("selftest --source sim --write");
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const Lines l = checkLines(r.out);
    EXPECT_EQ(l.fail, 0u) << r.out;
    EXPECT_EQ(l.pass, rdt::selftest::ResctrlSelftest::checkNames().size()) << r.out;
    for (const char* effect :
        { "PASS cat-fence-bounds-occupancy", "PASS mba-cap-lowers-mbm", "PASS mbm-counts-known-stream" })
        EXPECT_NE(r.out.find(effect), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SIMULATED"), std::string::npos) << "simulated data must say so: " << r.out;
}

// Done when: `rdtscope-cli sim --namespace -- rdtscope-cli selftest --write` does the same through the mount. The
// streamer there is a host process the simulated machine does not model: the effect checks skip saying exactly that.
TEST(SelftestCli, ThroughTheMountedSimulatedMachineEffectChecksSkipWithTheReason)
{
    if (auto why = fuseUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
    const std::string self = RDTSCOPE_CLI;
    const CliRun r = cli("sim --namespace -- " + self + " selftest --write");
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const Lines l = checkLines(r.out);
    EXPECT_EQ(l.fail, 0u) << r.out;
    EXPECT_EQ(l.skip, 3u) << r.out;
    for (const auto& s : l.skips)
        EXPECT_NE(s.find("host process, which the simulated machine does not model"), std::string::npos) << s;
    EXPECT_NE(r.out.find("PASS closid-limit"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("PASS mbm-counts-cpu-work"), std::string::npos) << r.out;
}

// SIGTERM during a --write run: the run stops, every group it made is removed, and the exit code says the signal.
TEST(SelftestCli, SigtermRemovesEveryGroupMade)
{
    if (auto why = fuseUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
    const std::string self = RDTSCOPE_CLI;
    // Waits (at most 2 s) until a group of the run exists, then sends SIGTERM; lists what is left afterwards.
    const std::string script = self
        + " selftest --write & pid=$!; i=0; while [ $i -lt 400 ]; do "
          "ls /sys/fs/resctrl | grep -q rdtscope-selftest && break; sleep 0.005; i=$((i+1)); done; "
          "kill -TERM $pid; wait $pid; echo exit=$?; echo left:; ls /sys/fs/resctrl | grep rdtscope-selftest; true";
    const CliRun r = cli("sim --namespace -- sh -c " + quote(script));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto left = r.out.substr(r.out.find("left:") + 5);
    EXPECT_EQ(left.find("rdtscope-selftest"), std::string::npos) << r.out;
    // Either the signal came during the run (143, "interrupted") or the run had already ended cleanly.
    const bool interrupted = r.out.find("exit=143") != std::string::npos;
    EXPECT_TRUE(interrupted || r.out.find("exit=0") != std::string::npos) << r.out;
    if (interrupted) {
        EXPECT_NE(r.out.find("# interrupted by signal 15"), std::string::npos) << r.out;
    }
}

// Done when: `rdtscope-cli selftest` on a machine without RDT says why nothing can be tested and exits 3.
TEST(SelftestCli, NoResctrlSaysWhyAndExits3)
{
    struct stat st { };
    if (::stat("/sys/fs/resctrl/info", &st) == 0) GTEST_SKIP() << "this machine has resctrl mounted";
    const CliRun r = cli("selftest");
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
    EXPECT_NE(r.err.find("nothing can be tested: no resctrl mounted at /sys/fs/resctrl"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("fix: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("rdtscope-cli selftest --source sim"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("rdtscope-cli sim --namespace -- rdtscope-cli selftest"), std::string::npos) << r.err;
    // A path that is no resctrl tree: also nothing to test.
    EXPECT_EQ(cli("selftest --source resctrl:/nonexistent-rdtscope").exitCode, 3);
}

// The diagnosis names the cause from /proc: kernel support, the CPU flags, a hypervisor, and the matching fix.
TEST(SelftestCli, AbsenceDiagnosisFollowsProc)
{
    const std::string proc = ::testing::TempDir() + "rdtscope-fake-proc";
    std::filesystem::create_directories(proc);
    auto write = [&](const std::string& f, const std::string& text) { std::ofstream(proc + "/" + f) << text; };
    write("filesystems", "nodev\tsysfs\nnodev\ttmpfs\n");
    write("cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 hypervisor\n");
    auto a = rdt::selftest::ResctrlAbsence::diagnose("/sys/fs/resctrl", proc);
    EXPECT_NE(a.why.find("no rdt_a"), std::string::npos) << a.why;
    EXPECT_NE(a.why.find("hypervisor hides RDT"), std::string::npos) << a.why;
    EXPECT_NE(a.fix.find("bare metal"), std::string::npos) << a.fix;
    write("filesystems", "nodev\tsysfs\nnodev\tresctrl\n");
    write("cpuinfo", "flags\t\t: fpu rdt_a cat_l3 cqm\n");
    a = rdt::selftest::ResctrlAbsence::diagnose("/sys/fs/resctrl", proc);
    EXPECT_NE(a.why.find("the kernel has resctrl"), std::string::npos) << a.why;
    EXPECT_EQ(a.fix, "mount it: mount -t resctrl resctrl /sys/fs/resctrl");
    write("mounts", "resctrl /mnt/rdt resctrl rw,relatime 0 0\n");
    a = rdt::selftest::ResctrlAbsence::diagnose("/sys/fs/resctrl", proc);
    EXPECT_NE(a.why.find("resctrl is mounted at /mnt/rdt"), std::string::npos) << a.why;
    EXPECT_EQ(a.fix, "test that one: rdtscope-cli selftest --source resctrl:/mnt/rdt");
    write("mounts", "");
    write("filesystems", "nodev\tsysfs\n");
    a = rdt::selftest::ResctrlAbsence::diagnose("/sys/fs/resctrl", proc);
    EXPECT_NE(a.fix.find("CONFIG_X86_CPU_RESCTRL"), std::string::npos) << a.fix;
    std::filesystem::remove_all(proc);
}

// --save DIR: the copy and the CPUID reopen as `--source resctrl:DIR` and `info --cpuid-dump DIR/cpuid.txt`.
TEST(SelftestCli, SavedCopyReopensAsSourceAndCpuidDump)
{
    const std::string dir = ::testing::TempDir() + "rdtscope-selftest-saved";
    std::filesystem::remove_all(dir);
    CliRun r = cli("selftest --source sim --save " + quote(dir));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(std::filesystem::exists(dir + "/info"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/schemata"));
    r = cli("selftest --source resctrl:" + quote(dir));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(checkLines(r.out).fail, 0u) << r.out;
    EXPECT_NE(r.out.find("PASS info-cache-masks"), std::string::npos) << r.out;
    r = cli("alloc show --source resctrl:" + quote(dir));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("L3"), std::string::npos) << r.out;
    r = cli("info --cpuid-dump " + quote(dir + "/cpuid.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("Xeon Gold 6154"), std::string::npos) << r.out;
    // A copy has no kernel behind it: --write is refused, and a second save never mixes into the first.
    EXPECT_EQ(cli("selftest --write --source resctrl:" + quote(dir)).exitCode, 2);
    EXPECT_EQ(cli("selftest --source sim --save " + quote(dir)).exitCode, 1);
    std::filesystem::remove_all(dir);
}

TEST(SelftestCli, HelpListsTheCommandAndItsExitCodes)
{
    CliRun r = cli("--help");
    EXPECT_NE(r.out.find("selftest"), std::string::npos) << r.out;
    r = cli("selftest --help");
    EXPECT_EQ(r.exitCode, 0);
    for (const char* s : { "--write", "--save", "--source", "3 when nothing can be tested" })
        EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
    EXPECT_EQ(cli("selftest --source msr").exitCode, 2);
}
