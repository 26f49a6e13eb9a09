// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for the agent tests: run a command and capture its output, a throwaway sshd (tests/agent/sshd-sandbox),
// and a started rdtscope-agent process. Every wait is bounded; every started process is stopped.

#include <string>
#include <sys/types.h>
#include <vector>

namespace rdt::test {

struct CommandOutput {
    int exitCode = -1;
    std::string out; ///< stdout and stderr together, or stdout only when run() was asked to keep them apart
    std::string err; ///< stderr, when kept apart
};

/// Runs argv (PATH lookup, no shell), killing it after `timeoutS` seconds (coreutils timeout). With
/// `separateStderr`, stderr goes to CommandOutput::err instead of being mixed into out.
CommandOutput run(const std::vector<std::string>& argv, int timeoutS = 60, bool separateStderr = false);

/// A real OpenSSH server on 127.0.0.1 with new host and user keys in a temp dir; stopped by the destructor.
class SshSandbox {
public:
    SshSandbox();
    ~SshSandbox();
    bool ok() const { return port > 0; }
    std::string dir;
    std::string sshCommand; ///< "ssh -F DIR/ssh_config"
    int port = 0;
    std::string startOutput;
};

/// rdtscope-agent (or another program) started in the background with its stderr in a log file.
class BackgroundProcess {
public:
    BackgroundProcess(const std::string& program, const std::vector<std::string>& args, const std::string& logPath);
    ~BackgroundProcess();
    pid_t pid() const { return m_pid; }
    /// Waits up to timeoutMs for the process to exit and reaps it: its exit code, or -1 (killed by a signal,
    /// or still running at the timeout).
    int waitExit(int timeoutMs);
    std::string log() const;
    /// Open descriptors and resident memory of the process (from /proc).
    int fdCount() const;
    long rssKiB() const;

private:
    pid_t m_pid = -1;
    std::string m_log;
};

/// Processes whose parent is `parent` (from /proc/PID/stat).
std::vector<pid_t> childrenOf(pid_t parent);
/// Processes running `exe` (the /proc/PID/exe link) whose command line contains `argument`.
std::vector<pid_t> processesOf(const std::string& exe, const std::string& argument);

/// A fresh temp dir path (created, mode 0755 so that the nobody-user tests can reach sockets in it).
std::string makeTempDir(const std::string& prefix);

} // namespace rdt::test
