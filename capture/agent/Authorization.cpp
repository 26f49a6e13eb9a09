// SPDX-License-Identifier: GPL-3.0-or-later
#include "Authorization.h"

#include "core/Time.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace rdt::agent {

const char* actionId(Action action)
{
    switch (action) {
    case Action::Monitor:
        return "org.rdtscope.agent.monitor";
    case Action::Allocate:
        return "org.rdtscope.agent.allocate";
    case Action::Profile:
        return "org.rdtscope.agent.profile";
    case Action::None:
        break;
    }
    return "";
}

Action actionFor(const pb::Request& request)
{
    switch (request.command_case()) {
    case pb::Request::kPing:
        return Action::None;
    case pb::Request::kGroupCommand:
    case pb::Request::kApplyAllocation:
    case pb::Request::kResctrlSetting: // counters, event configurations and CDP change what every group counts
    case pb::Request::kExperiment: // the agent writes the saved allocations back when the client goes
        return Action::Allocate;
    case pb::Request::kStartPmu:
        // The real PMU sees what other processes (or every CPU) execute; the simulated one runs its own program.
        return request.start_pmu().simulated() ? Action::Monitor : Action::Profile;
    case pb::Request::kCountGroupPmu:
        // Counting a group's real threads sees what they execute, as a PMU capture of them does.
        return request.count_group_pmu().simulated() ? Action::Monitor : Action::Profile;
    default:
        // Opening a source, snapshots and sampling only read; pumping, stopping and reporting a capture act on one
        // this connection started (and was allowed to start).
        return Action::Monitor;
    }
}

Result<Subject> subjectOf(pid_t pid, uid_t uid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!std::getline(in, stat)) return errnoError(ESRCH, "the client process " + std::to_string(pid) + " is gone");
    // The command name (field 2) may hold spaces and parentheses: the fields after it start at the last ')'.
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return errnoError(EPROTO, "unreadable /proc/" + std::to_string(pid) + "/stat");
    std::istringstream rest(stat.substr(close + 1));
    std::string field;
    Subject s;
    s.pid = pid;
    s.uid = uid;
    for (int i = 3; i <= 22 && rest >> field; ++i)
        if (i == 22) s.startTime = std::stoull(field);
    if (s.startTime == 0) return errnoError(EPROTO, "no start time in /proc/" + std::to_string(pid) + "/stat");
    return s;
}

namespace {

/// Runs pkcheck for `action` and returns its exit code (0 yes, 1 no, 2 authentication needed, 3 dismissed), or
/// -1 when it could not run or took longer than the bound.
int runPkcheck(const PolkitConfig& cfg, const Subject& s, Action action)
{
    const std::string process = std::to_string(s.pid) + "," + std::to_string(s.startTime) + "," + std::to_string(s.uid);
    std::vector<std::string> args { cfg.pkcheck, "--action-id", actionId(action), "--process", process };
    if (s.interactive) args.push_back("--allow-user-interaction");
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    // pkcheck's stdout and stderr are not the protocol stream (a stdio agent's fd 1).
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, cfg.pkcheck.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return -1;
    const std::uint64_t deadline = monotonicNs() + std::uint64_t(s.interactive ? 120000 : cfg.timeoutMs) * 1000000;
    int status = 0;
    while (true) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) return -1;
        if (monotonicNs() > deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return -1;
        }
        ::usleep(5000);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

Status Authorizer::check(Action action)
{
    if (action == Action::None || !m_cfg.enabled || !m_subject) return {};
    auto& granted = m_granted[static_cast<std::size_t>(action)];
    if (granted) return {};
    const std::string id = actionId(action);
    const int rc = runPkcheck(m_cfg, *m_subject, action);
    if (rc == 0) {
        granted = true;
        return {};
    }
    const std::string user = "uid " + std::to_string(m_subject->uid);
    const std::string rule = "or let the user do it with a polkit rule in /etc/polkit-1/rules.d/ (polkit.addRule: "
                             "return polkit.Result.YES when action.id == \""
        + id + "\" and subject.user is the user)";
    switch (rc) {
    case 1:
        return errnoError(
            EACCES, "polkit does not allow " + user + " the action " + id, "ask an administrator, " + rule);
    case 2:
    case 3:
        return errnoError(EACCES, "polkit allows the action " + id + " to " + user + " only after authentication",
            "connect with --connect local (pkexec asks for the password), " + rule);
    default:
        return errnoError(EACCES, "polkit could not be asked about the action " + id,
            "check that polkitd is running (systemctl status polkit), or start the agent with --no-polkit where "
            "there is no polkit (the group check still applies)");
    }
}

} // namespace rdt::agent
