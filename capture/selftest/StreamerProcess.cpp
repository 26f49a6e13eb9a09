// SPDX-License-Identifier: GPL-3.0-or-later
#include "StreamerProcess.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <new>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <time.h>
#include <unistd.h>

namespace rdt::selftest {

namespace {

constexpr std::size_t kLine = 64; ///< x86 cache line size (SDM Vol. 3A 12.1): one load per line pulls it in
constexpr std::size_t kChunk = 1 << 20; ///< bytes read between updates of the shared count

double monotonicSeconds()
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

/// The child: never returns. Only async-signal-safe calls and its own memory after fork().
[[noreturn]] void stream(unsigned cpu, std::size_t bytes, int go, std::atomic<std::uint64_t>* counted)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (::sched_setaffinity(0, sizeof set, &set) != 0) ::_exit(3);
    char start = 0;
    if (::read(go, &start, 1) != 1) ::_exit(0); // the parent closed the pipe without starting: nothing to do
    void* mem = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) ::_exit(4);
    auto* buf = static_cast<volatile unsigned char*>(mem);
    for (std::size_t i = 0; i < bytes; i += 4096)
        buf[i] = 1; // real pages, not the shared zero page
    const double end = monotonicSeconds() + StreamerProcess::kMaxSeconds;
    unsigned sink = 0;
    while (monotonicSeconds() < end) {
        for (std::size_t chunk = 0; chunk < bytes; chunk += kChunk) {
            const std::size_t stop = chunk + kChunk < bytes ? chunk + kChunk : bytes;
            for (std::size_t i = chunk; i < stop; i += kLine)
                sink += buf[i];
            counted->fetch_add(stop - chunk, std::memory_order_relaxed);
        }
    }
    ::_exit(sink == 0xffffffffu ? 1 : 0);
}

} // namespace

StreamerProcess::StreamerProcess(const std::atomic<bool>* cancel, std::string unobservable)
    : m_cancel(cancel)
    , m_unobservable(std::move(unobservable))
{ }

StreamerProcess::~StreamerProcess()
{
    while (!m_children.empty())
        stop(m_children.begin()->first);
}

Result<unsigned> StreamerProcess::start(unsigned cpu, std::uint64_t workingSetBytes)
{
    void* shared = ::mmap(
        nullptr, sizeof(std::atomic<std::uint64_t>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) return errnoError(errno, "cannot map the streamer's shared counter");
    auto* bytes = new (shared) std::atomic<std::uint64_t>(0);
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        ::munmap(shared, sizeof *bytes);
        return errnoError(errno, "cannot make the streamer's start pipe");
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        ::close(pipeFds[0]);
        ::close(pipeFds[1]);
        ::munmap(shared, sizeof *bytes);
        return errnoError(e, "cannot fork the streamer");
    }
    if (pid == 0) {
        ::close(pipeFds[1]);
        stream(cpu, std::size_t(workingSetBytes), pipeFds[0], bytes);
    }
    ::close(pipeFds[0]);
    m_children[unsigned(pid)] = Child { pid, pipeFds[1], bytes };
    return unsigned(pid);
}

void StreamerProcess::stop(unsigned task)
{
    auto it = m_children.find(task);
    if (it == m_children.end()) return;
    Child& c = it->second;
    ::kill(c.pid, SIGKILL);
    if (c.go >= 0) ::close(c.go);
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) { }
    ::munmap(static_cast<void*>(c.bytes), sizeof *c.bytes);
    m_children.erase(it);
}

bool StreamerProcess::run(std::uint64_t ns)
{
    for (auto& [task, c] : m_children) {
        if (c.go < 0) continue;
        const char start = 1;
        (void)!::write(c.go, &start, 1);
        ::close(c.go);
        c.go = -1;
    }
    const auto end = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns);
    while (std::chrono::steady_clock::now() < end) {
        if (m_cancel && m_cancel->load()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return !(m_cancel && m_cancel->load());
}

std::optional<std::uint64_t> StreamerProcess::bytesMoved(unsigned task) const
{
    auto it = m_children.find(task);
    if (it == m_children.end()) return std::nullopt;
    return it->second.bytes->load(std::memory_order_relaxed);
}

} // namespace rdt::selftest
