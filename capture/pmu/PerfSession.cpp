// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfSession.h"

#include "Tma.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <linux/perf_event.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rdt::pmu {

namespace {

std::vector<int> onlineCpus()
{
    std::vector<int> cpus;
    std::ifstream in("/sys/devices/system/cpu/online");
    std::string list;
    if (in >> list) {
        std::size_t pos = 0;
        while (pos < list.size()) {
            const std::size_t comma = std::min(list.find(',', pos), list.size());
            const std::string part = list.substr(pos, comma - pos);
            const auto dash = part.find('-');
            const int a = std::atoi(part.c_str());
            const int b = dash == std::string::npos ? a : std::atoi(part.c_str() + dash + 1);
            for (int c = a; c <= b; ++c)
                cpus.push_back(c);
            pos = comma + 1;
        }
    }
    if (cpus.empty())
        for (long c = 0; c < ::sysconf(_SC_NPROCESSORS_ONLN); ++c)
            cpus.push_back(static_cast<int>(c));
    return cpus;
}

std::vector<pid_t> threadsOf(pid_t pid)
{
    std::vector<pid_t> tids;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec))
        tids.push_back(static_cast<pid_t>(std::atoi(e.path().filename().c_str())));
    if (tids.empty())
        tids.push_back(pid); // let perf_event_open report ESRCH
    return tids;
}

} // namespace

Result<std::unique_ptr<PerfSession>> PerfSession::open(PerfSyscalls& sys, const Recipe& recipe,
    const PerfTarget& target, std::size_t ringPages)
{
    const int kinds = (target.pids.empty() ? 0 : 1) + (target.command.empty() ? 0 : 1) + (target.systemWide ? 1 : 0);
    if (kinds != 1)
        return makeError("a perf capture needs exactly one target: --pid, a command after --, or system-wide");
    if (recipe.events.empty())
        return makeError("empty recipe");
    if (ringPages == 0 || (ringPages & (ringPages - 1)) != 0)
        return makeError("ring size must be a power of two pages");
    std::unique_ptr<PerfSession> s(new PerfSession(sys, recipe));
    s->m_ids.resize(recipe.events.size());
    // The kernel refuses to mmap an inherited per-task event that is not bound to a CPU ("all children writing to
    // the same rb", kernel/events/core.c perf_mmap), so sampling a task and its children opens it once per CPU, as
    // perf record does. Counting groups stay per task (inherit is off for group reads).
    const std::vector<int> cpus = recipe.sampling ? onlineCpus() : std::vector<int> { -1 };
    if (!target.command.empty()) {
        if (auto st = s->launch(target.command); !st)
            return st.error();
        for (int cpu : cpus)
            if (auto st = s->openGroup(s->m_child, cpu, true, ringPages); !st)
                return st.error(); // the destructor ends the waiting child
    } else if (!target.pids.empty()) {
        for (pid_t pid : target.pids)
            for (pid_t tid : threadsOf(pid))
                for (int cpu : cpus)
                    if (auto st = s->openGroup(tid, cpu, false, ringPages); !st)
                        return st.error();
    } else {
        for (int cpu : onlineCpus())
            if (auto st = s->openGroup(-1, cpu, false, ringPages); !st)
                return st.error();
    }
    for (std::size_t i = 0; i < recipe.events.size(); ++i)
        s->m_decoder.addEvent(recipe.events[i].attr, s->m_ids[i]);
    return s;
}

Status PerfSession::openGroup(pid_t pid, int cpu, bool enableOnExec, std::size_t ringPages)
{
    const PerfEnvironment env = m_sys.environment();
    Group g;
    for (std::size_t i = 0; i < m_recipe.events.size(); ++i) {
        const RecipeEvent& e = m_recipe.events[i];
        EventAttr attr = e.attr;
        if (i == 0) {
            attr.setFlag(EventAttr::FlagDisabled, true);
            attr.setFlag(EventAttr::FlagEnableOnExec, enableOnExec);
        } else {
            attr.setFlag(EventAttr::FlagDisabled, false); // members follow the leader
        }
        if (pid == -1)
            attr.setFlag(1, false); // no inherit for system-wide per-CPU events
        auto fd = m_sys.open(attr, pid, cpu, i == 0 ? -1 : g.fds[0].get(), PERF_FLAG_FD_CLOEXEC);
        if (!fd)
            return openAdvice(fd.error().code, attr, e.name, env, pid == -1);
        std::uint64_t id = 0;
        if (auto st = m_sys.ioctl(fd->get(), PERF_EVENT_IOC_ID, reinterpret_cast<unsigned long>(&id)); st)
            m_ids[i].push_back(id);
        g.fds.push_back(std::move(*fd));
    }
    if (m_recipe.sampling) {
        const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        auto map = m_sys.mmap(g.fds[0].get(), (1 + ringPages) * page);
        if (!map)
            return map.error();
        auto view = RingReader::viewOfMapping(map->data(), map->size(), page);
        if (!view)
            return view.error();
        auto reader = RingReader::create(*view);
        if (!reader)
            return reader.error();
        for (std::size_t i = 1; i < g.fds.size(); ++i)
            if (m_recipe.events[i].attr.samplePeriod != 0)
                if (auto st = m_sys.ioctl(g.fds[i].get(), PERF_EVENT_IOC_SET_OUTPUT,
                        static_cast<unsigned long>(g.fds[0].get()));
                    !st)
                    return st.error();
        m_rings.push_back(Ring { std::move(*map), std::make_unique<RingReader>(std::move(*reader)) });
    }
    m_groups.push_back(std::move(g));
    return {};
}

Status PerfSession::launch(const std::vector<std::string>& argv)
{
    int go[2], err[2];
    if (::pipe2(go, O_CLOEXEC) != 0)
        return errnoError(errno, "pipe");
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(go[0]);
        ::close(go[1]);
        return errnoError(errno, "pipe");
    }
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0)
        return errnoError(errno, "fork");
    if (pid == 0) {
        // Child: wait until the events exist (perf's workload "go" pipe), then exec; EOF means "give up".
        char c = 0;
        if (::read(go[0], &c, 1) != 1 || c != 'g')
            ::_exit(127);
        ::execvp(args[0], args.data());
        const int e = errno;
        (void)!::write(err[1], &e, sizeof e);
        ::_exit(127);
    }
    ::close(go[0]);
    ::close(err[1]);
    m_child = pid;
    m_goFd = go[1];
    m_errFd = err[0];
    return {};
}

Status PerfSession::start()
{
    if (m_child > 0 && m_goFd >= 0) {
        // enable_on_exec: the kernel enables the events at the child's exec.
        const char c = 'g';
        (void)!::write(m_goFd, &c, 1);
        ::close(m_goFd);
        m_goFd = -1;
        int e = 0;
        const ssize_t n = ::read(m_errFd, &e, sizeof e); // EOF (0) when exec succeeded (the fd was CLOEXEC)
        ::close(m_errFd);
        m_errFd = -1;
        if (n == static_cast<ssize_t>(sizeof e))
            return errnoError(e, "cannot run the command", "check the command name and PATH");
        return {};
    }
    for (auto& g : m_groups)
        if (auto st = m_sys.ioctl(g.fds[0].get(), PERF_EVENT_IOC_ENABLE, 0); !st)
            return st;
    return {};
}

Status PerfSession::stop()
{
    for (auto& g : m_groups)
        if (auto st = m_sys.ioctl(g.fds[0].get(), PERF_EVENT_IOC_DISABLE, 0); !st)
            return st;
    return {};
}

RingStats PerfSession::ringStats() const
{
    RingStats sum;
    for (const auto& r : m_rings) {
        const RingStats& s = r.reader->stats();
        sum.records += s.records;
        sum.bytes += s.bytes;
        sum.samples += s.samples;
        sum.straddled += s.straddled;
        sum.lostRecords += s.lostRecords;
        sum.lostEvents += s.lostEvents;
        sum.lostSamples += s.lostSamples;
        sum.throttles += s.throttles;
        sum.unthrottles += s.unthrottles;
        sum.overruns += s.overruns;
        sum.overrunBytes += s.overrunBytes;
        sum.corrupt += s.corrupt;
    }
    return sum;
}

std::uint64_t PerfSession::decodeErrors() const
{
    std::uint64_t n = 0;
    for (const auto& r : m_rings)
        n += r.reader->decodeErrors();
    return n;
}

Result<ReadData> PerfSession::readGroups()
{
    ReadData total;
    total.values.resize(m_recipe.events.size());
    const std::uint64_t fmt = m_recipe.events[0].attr.readFormat;
    std::vector<std::byte> buf(8 * (3 + 3 * m_recipe.events.size()));
    for (auto& g : m_groups) {
        auto n = m_sys.read(g.fds[0].get(), buf);
        if (!n)
            return n.error();
        auto r = parseReadFormat(std::span<const std::byte>(buf.data(), *n), fmt);
        if (!r)
            return r.error();
        total.timeEnabled += r->timeEnabled;
        total.timeRunning += r->timeRunning;
        for (std::size_t i = 0; i < r->values.size() && i < total.values.size(); ++i)
            total.values[i].value += r->values[i].value;
    }
    return total;
}

bool PerfSession::childExited()
{
    if (m_child <= 0)
        return false;
    if (m_childReaped)
        return true;
    int status = 0;
    if (::waitpid(m_child, &status, WNOHANG) == m_child) {
        m_childReaped = true;
        m_childStatus = status;
    }
    return m_childReaped;
}

PerfSession::~PerfSession()
{
    m_groups.clear();
    m_rings.clear();
    if (m_goFd >= 0)
        ::close(m_goFd); // a child still waiting for "go" reads EOF and exits
    if (m_errFd >= 0)
        ::close(m_errFd);
    if (m_child > 0 && !m_childReaped) {
        int status = 0;
        if (::waitpid(m_child, &status, WNOHANG) == 0) {
            ::kill(m_child, SIGTERM); // the capture ended before the command did (as perf record does)
            ::waitpid(m_child, &status, 0);
        }
    }
}

} // namespace rdt::pmu
