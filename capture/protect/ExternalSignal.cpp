// SPDX-License-Identifier: GPL-3.0-or-later
#include "ExternalSignal.h"

#include "core/Text.h"

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rdt::protect {

ExternalSignal::ExternalSignal(std::string command, std::chrono::milliseconds timeout)
    : m_command(std::move(command))
    , m_timeout(timeout)
{ }

Result<double> ExternalSignal::read() const
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return errnoError(errno, "signal command: pipe failed");
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        return errnoError(e, "signal command: fork failed");
    }
    if (pid == 0) {
        ::dup2(fds[1], STDOUT_FILENO);
        const char* argv[] = { "/bin/sh", "-c", m_command.c_str(), nullptr };
        ::execv("/bin/sh", const_cast<char* const*>(argv));
        ::_exit(127);
    }
    ::close(fds[1]);
    std::string out;
    const auto deadline = std::chrono::steady_clock::now() + m_timeout;
    bool timedOut = false;
    for (;;) {
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timedOut = true;
            break;
        }
        pollfd p { fds[0], POLLIN, 0 };
        const int r = ::poll(&p, 1, static_cast<int>(left.count()));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            timedOut = r == 0;
            break;
        }
        char buf[512];
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (out.size() < 4096) out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    if (timedOut) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    if (timedOut)
        return errnoError(ETIMEDOUT,
            "signal command '" + m_command + "' printed nothing within " + std::to_string(m_timeout.count()) + " ms",
            "make it answer faster or raise the interval");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return errnoError(EIO,
            "signal command '" + m_command + "' failed (exit status "
                + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
    // The first word that is a whole number ("p99 1830" reads 1830).
    std::size_t i = 0;
    while (i < out.size()) {
        while (i < out.size() && std::isspace(static_cast<unsigned char>(out[i])))
            ++i;
        std::size_t j = i;
        while (j < out.size() && !std::isspace(static_cast<unsigned char>(out[j])))
            ++j;
        // core/Text.h's reader: the same in every locale (strtod follows LC_NUMERIC, which the GUI sets).
        const std::string_view word(out.data() + i, j - i);
        std::size_t used = 0;
        if (const auto v = parseFiniteDouble(word, &used); v && used == word.size() && !word.empty()) return *v;
        i = j;
    }
    return errnoError(EINVAL, "signal command '" + m_command + "' printed no number",
        "it must print the signal's value (e.g. 1830) on standard output");
}

} // namespace rdt::protect
