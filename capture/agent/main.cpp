// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-agent: the only rdtscope process that touches the hardware on a server (docs/PROTOCOL.md). It serves
// the capture engine over --stdio (ssh, pkexec) or a unix socket. It links no perf.data reader, no session reader
// and no GUI code: untrusted files are parsed only by the unprivileged GUI and CLI.
#include "AgentOptions.h"
#include "AgentServer.h"
#include "MetricsEndpoint.h"
#include "ServiceHandler.h"
#include "protocol/Frame.h"
#include "protocol/UnixSocket.h"

#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <unistd.h>

using namespace rdt;
using namespace rdt::agent;

namespace {
void logLine(const std::string& line)
{
    char stamp[32];
    const std::time_t t = std::time(nullptr);
    std::tm tm {};
    ::localtime_r(&t, &tm);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
    std::fprintf(stderr, "%s rdtscope-agent[%d]: %s\n", stamp, static_cast<int>(::getpid()), line.c_str());
    std::fflush(stderr);
}

volatile std::sig_atomic_t g_stopRequested = 0;
std::unique_ptr<MetricsEndpoint> g_metrics;

void onStopSignal(int)
{
    g_stopRequested = 1;
    AgentServer::requestStop();
}

bool systemdPassedOneSocket()
{
    const char* pid = std::getenv("LISTEN_PID");
    const char* fds = std::getenv("LISTEN_FDS");
    return pid && fds && std::atol(pid) == static_cast<long>(::getpid()) && std::atoi(fds) == 1;
}

/// A client's command did not stop in time (AgentServer::stopAll): exit without destructors, which would run under
/// its thread; the metrics endpoint still removes its groups first.
[[noreturn]] void exitLeavingWorkers(int rc)
{
    g_metrics.reset();
    std::fflush(stderr);
    std::_Exit(rc);
}

std::string hostName()
{
    char buf[HOST_NAME_MAX + 1] = {};
    ::gethostname(buf, sizeof buf - 1);
    return buf;
}
}

int main(int argc, char** argv)
{
    auto parsed = parseAgentOptions(std::vector<std::string>(argv + 1, argv + argc), systemdPassedOneSocket());
    if (!parsed) {
        std::fprintf(stderr, "rdtscope-agent: %s\n%s", parsed.error().message.c_str(), parsed.error().advice.c_str());
        return 2;
    }
    const AgentOptions& opt = *parsed;
    if (opt.help) {
        std::fputs(agentUsage(), stdout);
        return 0;
    }
    // The metrics endpoint stops (and removes its groups) when main returns, before static destructors run.
    struct StopMetricsOnReturn {
        ~StopMetricsOnReturn() { g_metrics.reset(); }
    } stopMetricsOnReturn;
    std::signal(SIGPIPE, SIG_IGN);
    struct sigaction sa { };
    sa.sa_handler = onStopSignal;
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGHUP, &sa, nullptr);

    AgentContext ctx;
    ctx.identity.software = "rdtscope-agent " RDTSCOPE_VERSION;
    ctx.identity.hostname = hostName();
    ctx.identity.capabilities = { "zstd" };
    ctx.identity.maxFrameBytes = protocol::kDefaultMaxFrameBytes;
    ctx.identity.heartbeatMs = 2000;
    ctx.identity.uid = static_cast<std::uint32_t>(::geteuid());
    ctx.restoreOnExit = opt.restoreOnExit;
    ctx.idleLimitNs = std::uint64_t { opt.idleTimeoutS } * 1'000'000'000;
    ctx.log = logLine;
    ctx.polkit.enabled = !opt.noPolkit;
    if (const char* uid = std::getenv("PKEXEC_UID"); uid && opt.stdio) ctx.pkexecUid = std::atoi(uid);
    // Say which checks apply, in the log and in the Welcome's capabilities (docs/PROTOCOL.md "Authorization").
    if (opt.noPolkit) {
        ctx.identity.capabilities.push_back("no-polkit");
        logLine("--no-polkit: polkit is not asked; every accepted client may monitor, allocate and profile");
    } else if (!opt.stdio || ctx.pkexecUid) {
        ctx.identity.capabilities.push_back("polkit");
    }

    if (opt.metrics) {
        auto started = MetricsEndpoint::start(opt, logLine);
        if (!started) {
            logLine("--metrics: " + started.error().toString());
            return 1;
        }
        g_metrics = std::move(*started);
        if (!opt.stdio && opt.listenPath.empty() && !opt.systemdSocket) {
            while (!g_stopRequested)
                ::usleep(100'000);
            g_metrics.reset();
            logLine("stopped");
            return 0;
        }
    }

    if (opt.stdio) {
        AgentServer server(std::move(ctx), makeServiceHandler);
        const int rc = server.serveStdio(UniqueFd(::dup(0)), UniqueFd(::dup(1)));
        if (server.leftWorkersRunning()) exitLeavingWorkers(rc);
        return rc;
    }
    auto gid = protocol::lookupGroup(opt.allowGroup);
    if (!gid) {
        logLine(gid.error().message + " (" + gid.error().advice + ")");
        return 1;
    }
    ctx.allowedGid = *gid;
    ctx.allowedGroupName = opt.allowGroup;
    UniqueFd listener;
    if (opt.systemdSocket) {
        listener.reset(3); // SD_LISTEN_FDS_START; the unit sets the mode and group (resources/systemd)
        logLine("serving the socket systemd passed, group " + opt.allowGroup);
    } else {
        auto fd = protocol::listenUnix(opt.listenPath, *gid);
        if (!fd) {
            logLine(fd.error().toString());
            return 1;
        }
        listener = std::move(*fd);
        logLine("listening on unix:" + opt.listenPath + " (mode 0660, group " + opt.allowGroup + ")");
    }
    AgentServer server(std::move(ctx), makeServiceHandler);
    const int rc = server.serveListener(std::move(listener), opt.maxClients);
    if (!opt.systemdSocket) ::unlink(opt.listenPath.c_str());
    logLine("stopped");
    if (server.leftWorkersRunning()) exitLeavingWorkers(rc);
    return rc;
}
