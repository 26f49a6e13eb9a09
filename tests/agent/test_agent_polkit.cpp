// SPDX-License-Identifier: GPL-3.0-or-later
// The agent asks a real polkitd per action: a private system bus (dbus-daemon) and polkitd started here, the
// project's policy installed where polkitd reads actions, and a rule that grants monitor but denies allocate and
// profile to nobody. Everything installed is removed and everything started is stopped at the end.
#include "AgentTestHelpers.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace rdt::test;
namespace fs = std::filesystem;

namespace {
const fs::path kActions = "/usr/share/polkit-1/actions/org.rdtscope.agent.policy";

/// A file put in place for the test and removed afterwards (left alone when it was there before).
struct Installed {
    fs::path path;
    bool mine = false;
    Installed(const fs::path& p, const std::string& content)
        : path(p)
    {
        if (fs::exists(p)) return;
        std::ofstream(p) << content;
        mine = true;
    }
    ~Installed()
    {
        std::error_code ec;
        if (mine) fs::remove(path, ec);
    }
};

std::string slurp(const fs::path& p)
{
    std::ifstream in(p);
    return { std::istreambuf_iterator<char>(in), {} };
}
}

TEST(AgentPolkit, MonitorAllowedAllocateAndProfileRefusedByRealPolkitd)
{
    ASSERT_TRUE(fs::exists("/usr/lib/polkit-1/polkitd")) << "install polkitd (./dev deps)";
    const std::string dir = makeTempDir("rdtscope-polkit");
    const std::string bus = dir + "/bus";
    std::ofstream(dir + "/bus.conf")
        << "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" "
           "\"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n<busconfig><type>system</type>"
           "<listen>unix:path="
        << bus
        << "</listen><auth>EXTERNAL</auth><policy context=\"default\"><allow user=\"*\"/><allow own=\"*\"/>"
           "<allow send_destination=\"*\"/><allow receive_sender=\"*\"/></policy></busconfig>\n";
    Installed policy(kActions, slurp(RDTSCOPE_POLICY));
    Installed rule("/etc/polkit-1/rules.d/10-rdtscope-test-" + std::to_string(::getpid()) + ".rules",
        "polkit.addRule(function(action, subject) {\n"
        "  if (subject.user != \"nobody\") return null;\n"
        "  if (action.id == \"org.rdtscope.agent.monitor\") return polkit.Result.YES;\n"
        "  if (action.id == \"org.rdtscope.agent.allocate\") return polkit.Result.NO;\n"
        "  if (action.id == \"org.rdtscope.agent.profile\") return polkit.Result.NO;\n"
        "  return null;\n});\n");
    BackgroundProcess dbus(
        "/usr/bin/dbus-daemon", { "--config-file=" + dir + "/bus.conf", "--nofork" }, dir + "/dbus.log");
    for (int i = 0; i < 500 && !fs::exists(bus); ++i)
        ::usleep(10000);
    ASSERT_TRUE(fs::exists(bus)) << dbus.log();
    ::setenv("DBUS_SYSTEM_BUS_ADDRESS", ("unix:path=" + bus).c_str(), 1);
    BackgroundProcess polkitd("/usr/lib/polkit-1/polkitd", { "--no-debug" }, dir + "/polkitd.log");
    // polkitd is ready when pkcheck gets an answer (root is allowed; 127 while the name is not yet on the bus).
    int rc = -1;
    for (int i = 0; i < 100 && rc != 0; ++i) {
        rc = run(
            { "pkcheck", "--action-id", "org.rdtscope.agent.monitor", "--process", std::to_string(::getpid()) }, 10)
                 .exitCode;
        if (rc != 0) ::usleep(100000);
    }
    ASSERT_EQ(rc, 0) << polkitd.log();

    const std::string sock = dir + "/agent.sock";
    BackgroundProcess agent(
        RDTSCOPE_AGENT, { "--listen", "unix:" + sock, "--allow-group", "users" }, dir + "/agent.log");
    for (int i = 0; i < 1000 && agent.log().find("listening on unix:") == std::string::npos; ++i)
        ::usleep(10000);
    auto asNobody = [&](const std::vector<std::string>& args) {
        std::vector<std::string> argv { "setpriv", "--reuid=nobody", "--regid=users", "--clear-groups", RDTSCOPE_CLI,
            "--connect", "unix:" + sock };
        argv.insert(argv.end(), args.begin(), args.end());
        return run(argv, 60, true);
    };
    const auto monitor = asNobody({ "monitor", "--source", "sim", "--duration", "1", "--csv" });
    EXPECT_EQ(monitor.exitCode, 0) << monitor.err << agent.log() << polkitd.log();
    EXPECT_EQ(monitor.out.rfind("time_s,group,domain,", 0), 0u) << monitor.out;
    const auto set = asNobody({ "alloc", "set", "--group", "Guaranteed", "L3:0=ff;1=ff", "--source", "sim" });
    EXPECT_NE(set.exitCode, 0) << set.out;
    EXPECT_NE(set.err.find("polkit does not allow uid 65534 the action org.rdtscope.agent.allocate"), std::string::npos)
        << set.err << agent.log();
    EXPECT_NE(set.err.find("rules.d"), std::string::npos) << set.err;
    EXPECT_NE(agent.log().find("refused: polkit does not allow"), std::string::npos) << agent.log();
    // A real PMU capture is the profile action; the simulated PMU, which runs its own program, only monitors.
    const auto profile = asNobody({ "pmu", "lbr", "--source", "perf", "--pid", "1", "--duration", "1" });
    EXPECT_NE(profile.exitCode, 0) << profile.out;
    EXPECT_NE(
        profile.err.find("polkit does not allow uid 65534 the action org.rdtscope.agent.profile"), std::string::npos)
        << profile.err << agent.log();
    const auto simulated = asNobody({ "pmu", "lbr", "--source", "sim", "--duration", "1" });
    EXPECT_EQ(simulated.exitCode, 0) << simulated.err << agent.log();
    EXPECT_NE(simulated.out.find("(simulated data)"), std::string::npos) << simulated.out;
    ::unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
    std::error_code ec;
    fs::remove_all(dir, ec);
}
