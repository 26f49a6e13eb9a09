// SPDX-License-Identifier: GPL-3.0-or-later
// Intel's pqos (intel-cmt-cat, the OS interface: pqos -I) on the simulated machine, started by the test through
// `rdtscope-cli sim --namespace`: what pqos reports and writes is compared with rdtscope's view of the same mount
// (`rdtscope-cli alloc show --source resctrl`) and with the files of the emulated kernel itself. Each run is
// bounded by timeout(1). Skipped with the reason when pqos, root or /dev/fuse is missing.
#include "../cli/CliRun.h"
#include "FuseTestUtil.h"

#include <cstdio>
#include <cstring>
#include <linux/perf_event.h>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>

using namespace rdt::simfs::test;

namespace {

using NamespaceRun = CliRun;

/// `rdtscope-cli sim --namespace -- sh -c SCRIPT`, the build's rdtscope-cli first on PATH inside, at most
/// `seconds`.
NamespaceRun inNamespace(const std::string& script, int seconds = 60)
{
    std::string cli = RDTSCOPE_CLI;
    const std::string binDir = cli.substr(0, cli.rfind('/'));
    std::string quoted;
    for (char c : script)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return runShell("PATH=" + binDir + ":$PATH timeout " + std::to_string(seconds) + " " + cli
        + " sim --namespace -- sh -c '" + quoted + "' </dev/null 2>&1");
}

std::string skipReason()
{
    if (auto why = fuseUnavailableReason(); !why.empty()) return why;
    if (std::system("command -v pqos >/dev/null 2>&1") != 0)
        return "pqos is not installed (Debian package intel-cmt-cat)";
    return {};
}

/// "L3CA COS1 => MASK 0xf" lines of `pqos -s`: COS -> mask.
std::map<int, unsigned long> l3Classes(const std::string& out)
{
    std::map<int, unsigned long> m;
    static const std::regex re(R"(L3CA COS(\d+) => MASK 0x([0-9a-fA-F]+))");
    for (std::sregex_iterator it(out.begin(), out.end(), re), end; it != end; ++it)
        m[std::stoi((*it)[1])] = std::stoul((*it)[2], nullptr, 16);
    return m;
}

/// "MBA COS1 => 50% available" lines: COS -> percent.
std::map<int, int> mbaClasses(const std::string& out)
{
    std::map<int, int> m;
    static const std::regex re(R"(MBA COS(\d+) => (\d+)% available)");
    for (std::sregex_iterator it(out.begin(), out.end(), re), end; it != end; ++it)
        m[std::stoi((*it)[1])] = std::stoi((*it)[2]);
    return m;
}

/// "Core 1, L2ID 1, L3ID 0 => COS1" lines: core -> COS.
std::map<int, int> coreClasses(const std::string& out)
{
    std::map<int, int> m;
    static const std::regex re(R"(Core (\d+), L2ID \d+, L3ID \d+ => COS(\d+))");
    for (std::sregex_iterator it(out.begin(), out.end(), re), end; it != end; ++it)
        m[std::stoi((*it)[1])] = std::stoi((*it)[2]);
    return m;
}

class PqosOnSimulatedMachine : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (auto why = skipReason(); !why.empty()) GTEST_SKIP() << why;
    }
};

} // namespace

TEST_F(PqosOnSimulatedMachine, ShowsTheSimulatedClassesAndCores)
{
    const NamespaceRun r
        = inNamespace("pqos -I -s && cat /sys/fs/resctrl/info/L3/num_closids /sys/fs/resctrl/info/L3/cbm_mask");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const auto l3 = l3Classes(r.output);
    // skx-6154 (the default preset): 16 L3 CLOSIDs and 8 MBA ones, so 8 classes (pqos, as the kernel, takes the
    // smaller count); an 11-way mask 7ff; every class starts at the full mask.
    ASSERT_EQ(l3.size(), 8u) << r.output;
    for (const auto& [cos, mask] : l3)
        EXPECT_EQ(mask, 0x7ffu) << "COS" << cos;
    EXPECT_NE(r.output.find("16\n7ff\n"), std::string::npos) << r.output;
    EXPECT_EQ(mbaClasses(r.output).size(), 8u) << r.output;
    const auto cores = coreClasses(r.output);
    EXPECT_EQ(cores.size(), std::size_t(::sysconf(_SC_NPROCESSORS_CONF))) << r.output;
    for (const auto& [core, cos] : cores)
        EXPECT_EQ(cos, 0) << "core " << core;
}

TEST_F(PqosOnSimulatedMachine, WhatPqosWritesIsWhatTheKernelAndRdtscopeSee)
{
    const NamespaceRun r = inNamespace("pqos -I -e 'llc:1=0x00f;mba:1=50' && pqos -I -a 'llc:1=1' && pqos -I -s"
                                       " && echo '--- schemata' && cat /sys/fs/resctrl/COS1/schemata"
                                       " && echo '--- cpus' && cat /sys/fs/resctrl/COS1/cpus_list"
                                       " && echo '--- rdtscope' && rdtscope-cli alloc show --source resctrl");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    // pqos's own view
    EXPECT_EQ(l3Classes(r.output)[1], 0xfu) << r.output;
    EXPECT_EQ(mbaClasses(r.output)[1], 50) << r.output;
    const auto cores = coreClasses(r.output);
    EXPECT_EQ(cores.at(1), 1) << r.output;
    EXPECT_EQ(cores.at(0), 0) << r.output;
    // the emulated kernel's files
    EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(--- schemata\n\s*L3:0=0*f\n\s*MB:0=\s*50\n)"))) << r.output;
    EXPECT_NE(r.output.find("--- cpus\n1\n"), std::string::npos) << r.output;
    // rdtscope's view of the same mount: COS1 with the mask and the bandwidth pqos wrote
    EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(\nCOS1  mode shareable\n  L3:0=f\n  MB:0=50 )"))) << r.output;
}

TEST_F(PqosOnSimulatedMachine, PidAssociationAndReset)
{
    // A host process associated by pqos: the emulated kernel lists its PID in COS1/tasks, pqos -s shows it under
    // COS1, rdtscope counts one task in COS1; pqos -R then returns every class to the full mask.
    const NamespaceRun r = inNamespace(
        "sleep 30 & pqos -I -a \"pid:1=$!\" && echo \"--- pid $!\" && cat /sys/fs/resctrl/COS1/tasks"
        " && pqos -I -s && echo '--- rdtscope' && rdtscope-cli groups list --source resctrl"
        " && pqos -I -R && echo '--- after reset' && cat /sys/fs/resctrl/schemata /sys/fs/resctrl/COS1/schemata;"
        " kill $!");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.output, m, std::regex(R"(--- pid (\d+)\n(\d+)\n)"))) << r.output;
    const std::string pid = m[1];
    EXPECT_EQ(m[2], pid) << "the host PID pqos wrote is listed back in COS1/tasks";
    EXPECT_TRUE(std::regex_search(r.output, std::regex("COS1 => " + pid + "\n"))) << r.output;
    EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(\nCOS1\s+control\s+shareable\s+-\s+1\s)"))) << r.output;
    const auto after = r.output.substr(r.output.find("--- after reset"));
    EXPECT_TRUE(std::regex_search(after, std::regex(R"(L3:0=7ff\n\s*MB:0=\s*100\n\s*L3:0=7ff\n)"))) << after;
}

TEST_F(PqosOnSimulatedMachine, MonitorsTheSimulatedCounters)
{
    // pqos -m starts a hardware LLC-miss perf event for every core group besides resctrl's counters and gives up
    // when it cannot (docs/RESCTRL.md "pqos on the simulated machine").
    perf_event_attr attr {};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_CACHE_MISSES;
    const long fd = ::syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    if (fd < 0)
        GTEST_SKIP() << "pqos -m needs a hardware cache-miss perf event and this machine has none ("
                     << std::strerror(errno) << ")";
    ::close(static_cast<int>(fd));
    const NamespaceRun r = inNamespace("pqos -I -m 'all:0-1' -t 3 -i 10", 60);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("LLC[KB]"), std::string::npos) << r.output;
    // Data lines: "    0-1  ...  LLC  MBL  MBR"; the simulated streamer makes LLC occupancy non-zero.
    static const std::regex line(R"(\n\s*0-1\s+\S+\s+\S+\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+))");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.output, m, line)) << r.output;
    EXPECT_GT(std::stod(m[1]), 0.0) << r.output;
}

// Without root the namespace cannot be made: the command says why and how to fix it, exit 3 (unavailable here).
TEST(SimNamespaceErrors, NotRootSaysSoWithTheFix)
{
    if (::geteuid() != 0) GTEST_SKIP() << "the test drops root to show the error; it runs as a user already";
    if (std::system("command -v setpriv >/dev/null 2>&1") != 0) GTEST_SKIP() << "setpriv (util-linux) missing";
    const CliRun r = runShell("timeout 30 setpriv --reuid 65534 --regid 65534 --clear-groups "
        + std::string(RDTSCOPE_CLI) + " sim --namespace -- true </dev/null 2>&1");
    EXPECT_EQ(r.exitCode, 3) << r.output;
    EXPECT_NE(r.output.find("needs root"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("sudo"), std::string::npos) << r.output;
}

TEST(SimNamespaceErrors, MountOnAMissingDirectoryIsAUsageError)
{
    const CliRun r = runCli("sim --mount /nonexistent/rdtscope-mount", 30);
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find("not a directory"), std::string::npos) << r.output;
}

// SIGTERM to `sim --namespace` goes to the command; when it has ended the mount and the namespace go too.
TEST(SimNamespaceErrors, SigtermEndsTheCommandFirst)
{
    if (auto why = fuseUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
    const std::string cmd = std::string("bash -c '") + RDTSCOPE_CLI
        + " sim --namespace -- sleep 30 </dev/null >/dev/null 2>&1 & p=$!; sleep 1; kill -TERM $p;"
          " wait $p; echo \"exit $?\"'";
    const CliRun r = runShell("timeout 20 " + cmd);
    EXPECT_EQ(r.output, "exit 143\n") << "128 + SIGTERM: the command died of the forwarded signal";
}

TEST_F(PqosOnSimulatedMachine, MonitorReportsWhatPqosChangesAsExternalAndItsOwnWritesNot)
{
    // rdtscope-cli monitor on the mount sees pqos's write as an allocation change it did not make (issue 45 item
    // 6; engine/ExternalChangeDetector.h), and its own --at write not. pqos runs once before, so its classes are
    // part of the monitor's baseline; pqos writes only after the monitor printed its first table (bounded wait).
    const NamespaceRun r = inNamespace("pqos -I -s >/dev/null && out=$(mktemp) &&"
                                       " { rdtscope-cli monitor --source resctrl --interval 250 --duration 4"
                                       " --at 0.5:COS2:L3:0=f >\"$out\" & } &&"
                                       " for i in $(seq 100); do grep -q '^TIME' \"$out\" && break; sleep 0.05; done;"
                                       " pqos -I -e 'llc:1=0x3' >/dev/null && wait && echo '--- table' && cat \"$out\"",
        60);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("external change "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(": COS1 L3:0 7ff -> 3\n"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("applied 'L3:0=f' to COS2"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find(": COS2 "), std::string::npos) << "the monitor's own write is not external:\n" << r.output;
    std::size_t external = 0;
    for (auto at = r.output.find("external change "); at != std::string::npos;
         at = r.output.find("external change ", at + 1))
        ++external;
    EXPECT_EQ(external, 1u) << r.output;
}
