// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs rdtscope-cli through the shell, as a user would, and keeps its exit code and its output.

#include <cstdio>
#include <string>
#include <sys/wait.h>

struct CliRun {
    int exitCode = -1; ///< -1 when the CLI did not exit normally (killed by a signal)
    std::string output; ///< stdout and stderr
};

/// Runs `command` through the shell (popen) and keeps its exit code and its standard output (append `2>&1` to
/// keep stderr too). The one helper every test uses to run a program as a user would.
inline CliRun runShell(const std::string& command)
{
    CliRun r;
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        r.output.append(buf, n);
    const int status = ::pclose(p);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

/// `args` is pasted into a shell command line after the CLI's path; stdin is /dev/null so nothing waits for
/// input, stderr goes where stdout goes, and `timeout` bounds a run that would hang (exit 124 then).
/// `shellPrefix` runs first in the same shell (`ulimit -f 8; `), so limits set there apply to the CLI.
inline CliRun runCli(const std::string& args, int seconds = 60, const std::string& shellPrefix = {})
{
    // Redirections first, so `args` may end with its own (`>/dev/full` then applies to stdout only).
    return runShell(shellPrefix + "timeout " + std::to_string(seconds) + " " + std::string(RDTSCOPE_CLI)
        + " </dev/null 2>&1 " + args);
}
