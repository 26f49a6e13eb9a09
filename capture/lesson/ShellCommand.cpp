// SPDX-License-Identifier: GPL-3.0-or-later
#include "ShellCommand.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rdt::lesson {

namespace {

constexpr std::size_t kKeepBytes = 16 * 1024;

} // namespace

Result<ShellOutput> runShellCommand(const std::string& command, int timeoutMs)
{
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) return errnoError(errno, "cannot run '" + command + "': pipe failed");
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        ::close(out[0]);
        ::close(out[1]);
        return errnoError(err, "cannot run '" + command + "': fork failed");
    }
    if (pid == 0) { // the child: only async-signal-safe calls until exec
        const int null = ::open("/dev/null", O_RDONLY);
        if (null >= 0) ::dup2(null, 0);
        ::dup2(out[1], 1);
        ::dup2(out[1], 2);
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(out[1]);
    ShellOutput result;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    bool timedOut = false;
    for (;;) {
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                  .count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p { out[0], POLLIN, 0 };
        const int ready = ::poll(&p, 1, static_cast<int>(left));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue; // the deadline is checked above
        char buf[4096];
        const ssize_t n = ::read(out[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; // every writer closed: the command (and what it left running with the pipe) ended
        result.output.append(buf, static_cast<std::size_t>(n));
        if (result.output.size() > kKeepBytes) result.output.erase(0, result.output.size() - kKeepBytes);
    }
    ::close(out[0]);
    if (timedOut) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    if (timedOut)
        return errnoError(ETIMEDOUT,
            "'" + command + "' did not finish within " + std::to_string(timeoutMs / 1000) + " s",
            "a step's command must finish; start long-running programs in the background (&) with their output "
            "redirected");
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return result;
}

} // namespace rdt::lesson
