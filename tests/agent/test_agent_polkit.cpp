// SPDX-License-Identifier: GPL-3.0-or-later
// The agent asks a real polkitd per action: a private system bus (dbus-daemon) and polkitd started here, the
// project's policy installed where polkitd reads actions, and a rule that grants monitor but denies allocate and
// profile to nobody; and `--connect local` starts the agent through the real pkexec. Everything installed is
// removed and everything started is stopped at the end.
#include "AgentTestHelpers.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
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

/// A private system bus (dbus-daemon) and a real polkitd on it, with the project's policy installed where polkitd
/// reads actions and a rule that grants monitor but denies allocate and profile to nobody. Stopped and removed at
/// the end of each test.
class AgentPolkit : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(fs::exists("/usr/lib/polkit-1/polkitd")) << "install polkitd (./dev deps)";
        dir = makeTempDir("rdtscope-polkit");
        const std::string bus = dir + "/bus";
        // pkexec clears its environment before it asks polkit, so it only finds the system bus at its standard
        // path: where no system bus runs (a container, CI), this bus listens there too, for the pkexec tests.
        std::error_code ec;
        if (!fs::exists(kSystemBus, ec)) {
            fs::create_directories(fs::path(kSystemBus).parent_path(), ec);
            ownsSystemBusPath = !ec;
        }
        std::ofstream(dir + "/bus.conf")
            << "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" "
               "\"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n<busconfig><type>system</type>"
               "<listen>unix:path="
            << bus << "</listen>"
            << (ownsSystemBusPath ? "<listen>unix:path=" + std::string(kSystemBus) + "</listen>" : std::string())
            << "<auth>EXTERNAL</auth><policy context=\"default\"><allow user=\"*\"/><allow own=\"*\"/>"
               "<allow send_destination=\"*\"/><allow receive_sender=\"*\"/></policy></busconfig>\n";
        policy = std::make_unique<Installed>(kActions, slurp(RDTSCOPE_POLICY));
        rule = std::make_unique<Installed>(
            "/etc/polkit-1/rules.d/10-rdtscope-test-" + std::to_string(::getpid()) + ".rules",
            "polkit.addRule(function(action, subject) {\n"
            "  if (subject.user != \"nobody\") return null;\n"
            "  if (action.id == \"org.freedesktop.policykit.exec\" && action.lookup(\"program\") == \""
                + std::string(RDTSCOPE_AGENT)
                + "\") return polkit.Result.YES;\n"
                  "  if (action.id == \"org.rdtscope.agent.monitor\") return polkit.Result.YES;\n"
                  "  if (action.id == \"org.rdtscope.agent.allocate\") return polkit.Result.NO;\n"
                  "  if (action.id == \"org.rdtscope.agent.profile\") return polkit.Result.NO;\n"
                  "  return null;\n});\n");
        dbus = std::make_unique<BackgroundProcess>("/usr/bin/dbus-daemon",
            std::vector<std::string> { "--config-file=" + dir + "/bus.conf", "--nofork" }, dir + "/dbus.log");
        for (int i = 0; i < 500 && !fs::exists(bus); ++i)
            ::usleep(10000);
        ASSERT_TRUE(fs::exists(bus)) << dbus->log();
        ::setenv("DBUS_SYSTEM_BUS_ADDRESS", ("unix:path=" + bus).c_str(), 1);
        polkitd = std::make_unique<BackgroundProcess>(
            "/usr/lib/polkit-1/polkitd", std::vector<std::string> { "--no-debug" }, dir + "/polkitd.log");
        // polkitd is ready when pkcheck gets an answer (root is allowed; 127 while the name is not yet on the bus).
        int rc = -1;
        for (int i = 0; i < 100 && rc != 0; ++i) {
            rc = run(
                { "pkcheck", "--action-id", "org.rdtscope.agent.monitor", "--process", std::to_string(::getpid()) }, 10)
                     .exitCode;
            if (rc != 0) ::usleep(100000);
        }
        ASSERT_EQ(rc, 0) << polkitd->log();
    }
    void TearDown() override
    {
        polkitd.reset();
        dbus.reset();
        ::unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
        rule.reset();
        policy.reset();
        std::error_code ec;
        if (ownsSystemBusPath) fs::remove(kSystemBus, ec);
        if (!dir.empty()) fs::remove_all(dir, ec);
    }

    static constexpr const char* kSystemBus = "/run/dbus/system_bus_socket";
    std::string dir;
    bool ownsSystemBusPath = false; ///< the bus below also listens at kSystemBus (none was there)
    std::unique_ptr<Installed> policy;
    std::unique_ptr<Installed> rule;
    std::unique_ptr<BackgroundProcess> dbus;
    std::unique_ptr<BackgroundProcess> polkitd;
};

TEST_F(AgentPolkit, MonitorAllowedAllocateAndProfileRefusedByRealPolkitd)
{
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
    EXPECT_EQ(monitor.exitCode, 0) << monitor.err << agent.log() << polkitd->log();
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
}

TEST_F(AgentPolkit, ConnectLocalStartsTheAgentThroughRealPkexec)
{
    // `--connect local` runs `pkexec AGENT --stdio` (docs/PROTOCOL.md): the real setuid pkexec asks polkitd, and
    // the agent it starts answers over the pipe. Root is always authorized by polkitd.
    ASSERT_TRUE(fs::exists("/usr/bin/pkexec")) << "install pkexec (./dev deps)";
    const std::vector<std::string> local { RDTSCOPE_CLI, "--connect", "local", "--agent", RDTSCOPE_AGENT };
    auto with = [&](std::vector<std::string> argv, const std::vector<std::string>& args) {
        argv.insert(argv.end(), args.begin(), args.end());
        return argv;
    };
    const auto monitor = run(with(local, { "monitor", "--source", "sim", "--duration", "1", "--csv" }), 60, true);
    EXPECT_EQ(monitor.exitCode, 0) << monitor.err << polkitd->log();
    EXPECT_EQ(monitor.out.rfind("time_s,group,domain,", 0), 0u) << monitor.out;
    // A path pkexec cannot run is said as pkexec's refusal, with the fix.
    const auto missing
        = run({ RDTSCOPE_CLI, "--connect", "local", "--agent", dir + "/no-such-agent", "monitor", "--duration", "1" },
            60, true);
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.err.find("pkexec cannot run the agent"), std::string::npos) << missing.err;

    // A user: pkexec is setuid and asks about the caller. The rule lets nobody run this agent through pkexec; the
    // agent then asks polkit per request for pkexec's caller (PKEXEC_UID): monitor yes, allocate no.
    if (!ownsSystemBusPath)
        GTEST_SKIP() << "a system bus already runs at " << kSystemBus
                     << ": its polkitd, not this test's, would judge nobody (root was tested above)";
    const std::vector<std::string> asNobody { "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups" };
    const auto userMonitor
        = run(with(with(asNobody, local), { "monitor", "--source", "sim", "--duration", "1", "--csv" }), 60, true);
    EXPECT_EQ(userMonitor.exitCode, 0) << userMonitor.err << polkitd->log();
    EXPECT_EQ(userMonitor.out.rfind("time_s,group,domain,", 0), 0u) << userMonitor.out;
    const auto userSet = run(
        with(with(asNobody, local), { "alloc", "set", "--group", "Guaranteed", "L3:0=ff;1=ff", "--source", "sim" }), 60,
        true);
    EXPECT_NE(userSet.exitCode, 0) << userSet.out;
    EXPECT_NE(
        userSet.err.find("polkit does not allow uid 65534 the action org.rdtscope.agent.allocate"), std::string::npos)
        << userSet.err;
    // Another program than the agent is not what the rule allows: pkexec refuses, and the reason is pkexec's.
    const auto other
        = run(with(asNobody,
                  { RDTSCOPE_CLI, "--connect", "local", "--agent", "/usr/bin/true", "monitor", "--duration", "1" }),
            60, true);
    EXPECT_NE(other.exitCode, 0);
    EXPECT_NE(other.err.find("polkit did not allow pkexec to start the agent"), std::string::npos) << other.err;
}
