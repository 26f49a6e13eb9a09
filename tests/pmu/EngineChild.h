// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// libpfm4 keeps process-wide state and reads LIBPFM_FORCE_PMU only in pfm_initialize(), so each forced PMU is
// tested in its own forked child (docs/PMU.md "libpfm4"): the child sets the environment, runs `body` and sends
// back its text; the parent asserts on it.

#include <cstdlib>
#include <functional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace rdt::pmu::test {

inline std::string runInChild(const char* forcePmu, const std::function<std::string()>& body)
{
    int fds[2];
    if (::pipe(fds) != 0) return "pipe failed";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        if (forcePmu) {
            ::setenv("LIBPFM_FORCE_PMU", forcePmu, 1);
            ::setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
        }
        const std::string out = body();
        std::size_t off = 0;
        while (off < out.size()) {
            const ssize_t n = ::write(fds[1], out.data() + off, out.size() - off);
            if (n <= 0) break;
            off += static_cast<std::size_t>(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
        text.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return text;
}

} // namespace rdt::pmu::test
