// SPDX-License-Identifier: GPL-3.0-or-later
#include "Workload.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rdt::pmu {

namespace {

void closeFd(int& fd)
{
    if (fd >= 0) ::close(fd);
    fd = -1;
}

/// The child between fork and exec: only async-signal-safe calls (the parent may be a multi-threaded GUI).
[[noreturn]] void childMain(int corkFd, int errFd, char* const* args)
{
    // A thread of the parent may have blocked or redirected signals; the command must start with the defaults,
    // or SIGTERM from stop() would not end it.
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction dfl { };
    dfl.sa_handler = SIG_DFL;
    for (int sig : { SIGPIPE, SIGTERM, SIGINT, SIGCHLD })
        ::sigaction(sig, &dfl, nullptr);
    // Wait for the cork (perf's go_pipe). EOF means the parent gave up (no events, or it died): never exec.
    char c = 0;
    ssize_t n = 0;
    do
        n = ::read(corkFd, &c, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1) ::_exit(127);
    ::execvp(args[0], args);
    // exec failed: tell the parent why. The pipe is close-on-exec, so a successful exec reads as EOF there.
    const int e = errno;
    ssize_t w = 0;
    do
        w = ::write(errFd, &e, sizeof e);
    while (w < 0 && errno == EINTR);
    ::_exit(127);
}

} // namespace

Result<std::shared_ptr<Workload>> Workload::prepare(const std::vector<std::string>& argv)
{
    if (argv.empty() || argv[0].empty()) return makeError("no command to launch");
    // The cork is a socket, not a pipe, so start() can use MSG_NOSIGNAL: a child that died before being uncorked
    // must give an error, not a SIGPIPE that kills the GUI.
    int cork[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, cork) != 0)
        return errnoError(errno, "cannot create the launch socket");
    int err[2];
    if (::pipe2(err, O_CLOEXEC) != 0) {
        const int e = errno;
        ::close(cork[0]);
        ::close(cork[1]);
        return errnoError(e, "cannot create the exec-error pipe");
    }
    std::vector<char*> args; // built before fork: the child must not allocate
    args.reserve(argv.size() + 1);
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        for (int fd : { cork[0], cork[1], err[0], err[1] })
            ::close(fd);
        return errnoError(e, "cannot fork to launch '" + argv[0] + "'");
    }
    if (pid == 0) {
        ::close(cork[1]); // else the child holds the parent's end open and never sees EOF
        ::close(err[0]);
        childMain(cork[0], err[1], args.data());
    }
    ::close(cork[0]);
    ::close(err[1]);
    std::shared_ptr<Workload> w(new Workload);
    w->m_pid = pid;
    w->m_name = argv[0];
    w->m_corkFd = cork[1];
    w->m_errFd = err[0];
    return w;
}

Status Workload::start()
{
    if (m_started) return m_startFailed ? Status(m_startError) : Status {};
    m_started = true;
    auto fail = [&](Error e) -> Status {
        m_startFailed = true;
        m_startError = std::move(e);
        return m_startError;
    };
    const char go = 'g';
    ssize_t n = 0;
    do
        n = ::send(m_corkFd, &go, 1, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    const int sendErr = errno;
    closeFd(m_corkFd);
    if (n != 1) {
        reap(0);
        closeFd(m_errFd);
        return fail(errnoError(sendErr, "cannot start '" + m_name + "': it exited before exec"));
    }
    int e = 0;
    std::size_t got = 0;
    while (got < sizeof e) {
        const ssize_t r = ::read(m_errFd, reinterpret_cast<char*>(&e) + got, sizeof e - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break; // EOF: exec succeeded and closed the close-on-exec pipe
        got += static_cast<std::size_t>(r);
    }
    closeFd(m_errFd);
    if (got == sizeof e) {
        reap(0); // the child _exits right after reporting; no zombie
        return fail(errnoError(e, "cannot run '" + m_name + "'",
            e == ENOENT       ? "check the command name and PATH"
                : e == EACCES ? "the file is not executable (chmod +x) or a directory in its path is not searchable"
                              : std::string {}));
    }
    return {};
}

void Workload::reap(int options)
{
    if (m_pid <= 0 || m_reaped) return;
    int st = 0;
    pid_t r = 0;
    do
        r = ::waitpid(m_pid, &st, options);
    while (r < 0 && errno == EINTR);
    if (r == m_pid) {
        m_reaped = true;
        m_status = st;
    } else if (r < 0 && errno == ECHILD) {
        m_reaped = true; // reaped elsewhere (SIGCHLD set to SIG_IGN by the host program): gone all the same
    }
}

bool Workload::exited()
{
    reap(WNOHANG);
    return m_reaped;
}

void Workload::stop(int graceMs)
{
    if (m_pid <= 0 || m_reaped) return;
    if (m_corkFd >= 0) { // still corked: EOF makes it _exit(127) without exec
        closeFd(m_corkFd);
        reap(0);
        closeFd(m_errFd);
        return;
    }
    reap(WNOHANG);
    if (m_reaped) return;
    ::kill(m_pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(graceMs);
    while (!m_reaped && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        reap(WNOHANG);
    }
    if (!m_reaped) {
        ::kill(m_pid, SIGKILL); // ignores SIGTERM: the capture is over, so is the command
        reap(0);
    }
}

Workload::~Workload()
{
    stop();
    closeFd(m_corkFd);
    closeFd(m_errFd);
}

} // namespace rdt::pmu
