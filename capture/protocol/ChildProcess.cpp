// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChildProcess.h"

#include "core/Time.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

extern char** environ;

namespace rdt::protocol {

namespace {
constexpr std::size_t kMaxStderr = 64 * 1024;

Status pipeCloexec(int fds[2])
{
    if (::pipe2(fds, O_CLOEXEC) != 0) return errnoError(errno, "cannot create a pipe");
    return {};
}
/// The child's stdin is a socket, not a pipe: a write after the child died (ssh killed, pkexec refused) is then
/// sent with MSG_NOSIGNAL (Connection::flush) and fails with EPIPE instead of raising SIGPIPE, which would kill
/// the GUI or the CLI (send(2)).
Status socketCloexec(int fds[2])
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return errnoError(errno, "cannot create a socket pair");
    return {};
}
}

Result<ChildProcess> ChildProcess::spawn(const std::vector<std::string>& argv)
{
    if (argv.empty()) return makeError("no command to start");
    int in[2], out[2], err[2];
    if (auto st = socketCloexec(in); !st) return st.error();
    if (auto st = pipeCloexec(out); !st) {
        ::close(in[0]), ::close(in[1]);
        return st.error();
    }
    if (auto st = pipeCloexec(err); !st) {
        ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
        return st.error();
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(in[1]), ::close(out[0]), ::close(err[0]);
        return errnoError(rc, "cannot start " + argv[0],
            rc == ENOENT ? "install it (" + argv[0] + " is not on PATH)" : std::string {});
    }
    ChildProcess c;
    c.m_pid = pid;
    c.m_stdin.reset(in[1]);
    c.m_stdout.reset(out[0]);
    c.m_stderr.reset(err[0]);
    ::fcntl(err[0], F_SETFL, ::fcntl(err[0], F_GETFL) | O_NONBLOCK);
    return c;
}

ChildProcess::ChildProcess(ChildProcess&& o) noexcept
    : m_pid(std::exchange(o.m_pid, -1))
    , m_status(o.m_status)
    , m_stdin(std::move(o.m_stdin))
    , m_stdout(std::move(o.m_stdout))
    , m_stderr(std::move(o.m_stderr))
    , m_stderrText(std::move(o.m_stderrText))
{ }

ChildProcess& ChildProcess::operator=(ChildProcess&& o) noexcept
{
    if (this != &o) {
        terminate(0);
        m_pid = std::exchange(o.m_pid, -1);
        m_status = o.m_status;
        m_stdin = std::move(o.m_stdin);
        m_stdout = std::move(o.m_stdout);
        m_stderr = std::move(o.m_stderr);
        m_stderrText = std::move(o.m_stderrText);
    }
    return *this;
}

ChildProcess::~ChildProcess()
{
    terminate(1000);
}

void ChildProcess::collectStderr()
{
    if (!m_stderr) return;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(m_stderr.get(), buf, sizeof buf);
        if (n > 0) {
            if (m_stderrText.size() < kMaxStderr)
                m_stderrText.append(
                    buf, std::min<std::size_t>(static_cast<std::size_t>(n), kMaxStderr - m_stderrText.size()));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) m_stderr.reset();
        return;
    }
}

int ChildProcess::waitExit(int timeoutMs)
{
    if (m_pid <= 0) return m_status;
    const std::uint64_t deadline = monotonicNs() + static_cast<std::uint64_t>(timeoutMs) * 1'000'000;
    for (;;) {
        collectStderr();
        int status = 0;
        const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
        if (r == m_pid) {
            m_status = status;
            m_pid = -1;
            collectStderr();
            return status;
        }
        if (r < 0 && errno != EINTR) {
            m_pid = -1;
            return m_status;
        }
        if (monotonicNs() >= deadline) return -1;
        ::usleep(5000);
    }
}

void ChildProcess::terminate(int graceMs)
{
    if (m_pid <= 0) return;
    m_stdin.reset(); // an ssh or agent on the other end sees end of file first and can finish cleanly
    if (waitExit(std::min(graceMs, 200)) != -1) return;
    ::kill(m_pid, SIGTERM);
    if (waitExit(graceMs) != -1) return;
    ::kill(m_pid, SIGKILL);
    waitExit(5000);
}

int ChildProcess::exitCode() const
{
    if (m_pid > 0 || m_status == -1 || !WIFEXITED(m_status)) return -1;
    return WEXITSTATUS(m_status);
}

int ChildProcess::termSignal() const
{
    if (m_pid > 0 || m_status == -1 || !WIFSIGNALED(m_status)) return 0;
    return WTERMSIG(m_status);
}

} // namespace rdt::protocol
