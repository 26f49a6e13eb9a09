// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/UniqueFd.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace rdt::protocol {

/// A transport child (ssh or pkexec) with its stdin and stdout as the byte stream and stderr collected for
/// diagnosis. The destructor terminates and reaps it, so no zombie outlives the client.
class ChildProcess {
public:
    /// Starts argv[0] (looked up in PATH) with the given arguments; the child gets its own process group so a
    /// Ctrl+C in the terminal reaches the client first, which then says goodbye.
    static Result<ChildProcess> spawn(const std::vector<std::string>& argv);

    ChildProcess() = default;
    ChildProcess(ChildProcess&& o) noexcept;
    ChildProcess& operator=(ChildProcess&& o) noexcept;
    ~ChildProcess();

    pid_t pid() const { return m_pid; }
    /// The pipes, taken by the Connection.
    UniqueFd takeStdin() { return std::move(m_stdin); }
    UniqueFd takeStdout() { return std::move(m_stdout); }
    int stderrFd() const { return m_stderr.get(); }

    /// Reads whatever the child wrote to stderr so far (kept, at most 64 KiB).
    void collectStderr();
    const std::string& stderrText() const { return m_stderrText; }
    /// Waits up to `timeoutMs` for the child to exit; its wait status, or -1 when it still runs.
    int waitExit(int timeoutMs);
    /// SIGTERM, then SIGKILL after `graceMs`; reaps.
    void terminate(int graceMs = 1000);
    /// The exit code (0-255) once reaped, or -1 (still running or killed by a signal).
    int exitCode() const;
    /// The signal that ended the child once reaped (SIGKILL when someone killed ssh), or 0.
    int termSignal() const;

private:
    pid_t m_pid = -1;
    int m_status = -1;
    UniqueFd m_stdin;
    UniqueFd m_stdout;
    UniqueFd m_stderr;
    std::string m_stderrText;
};

} // namespace rdt::protocol
