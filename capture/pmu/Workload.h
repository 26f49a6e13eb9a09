// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A command launched for profiling, the way perf launches one (tools/perf/util/evlist.c evlist__prepare_workload
// and evlist__start_workload): fork once, let the child block on a "cork" before exec, open every event on the
// child's pid with enable_on_exec=1, then uncork it. Counting starts exactly at exec, every recipe sees the same
// single process, and nothing of rdtscope's own fork/exec path is counted. Several PerfSessions share one Workload.

#include "core/Result.h"

#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rdt::pmu {

class Workload {
public:
    /// Forks `argv` (argv[0] looked up in PATH) into a child that waits for start(). Nothing runs yet: a child
    /// whose Workload is destroyed before start() exits without exec.
    static Result<std::shared_ptr<Workload>> prepare(const std::vector<std::string>& argv);
    ~Workload();
    Workload(const Workload&) = delete;
    Workload& operator=(const Workload&) = delete;

    pid_t pid() const { return m_pid; }
    const std::string& name() const { return m_name; }
    /// Lets the child exec. Idempotent: later calls return the first call's outcome, so every session sharing the
    /// workload may call it. When exec fails the child is reaped and the error reads "cannot run 'foo': No such
    /// file or directory" (the child sends exec's errno back on a close-on-exec pipe).
    Status start();
    bool started() const { return m_started; }
    /// True once the child has exited; reaps it without blocking (exit status in status()).
    bool exited();
    /// The wait(2) status of an exited child (WIFEXITED/WEXITSTATUS); meaningful once exited() is true.
    int status() const { return m_status; }
    /// Ends the command if it still runs (SIGTERM, then SIGKILL after `graceMs`, as perf record ends its workload
    /// when the capture stops first) and reaps it, so no zombie is left. A corked child is just released to exit.
    void stop(int graceMs = 1000);

private:
    Workload() = default;
    void reap(int options);

    pid_t m_pid = -1;
    std::string m_name; ///< argv[0], for messages
    int m_corkFd = -1; ///< parent end of the socket the child waits on before exec
    int m_errFd = -1; ///< read end of the pipe a failed exec reports its errno on
    bool m_started = false;
    bool m_reaped = false;
    int m_status = 0;
    Error m_startError; ///< code != 0 or message set: start() failed
    bool m_startFailed = false;
};

} // namespace rdt::pmu
