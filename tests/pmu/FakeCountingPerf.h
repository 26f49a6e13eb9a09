// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A fake perf_event_open for counting (pmu/TaskCounter.h and the engine's per-group counts): every open is recorded;
// each counter counts by a fixed step per read (per event config), so sums and ratios are known; chosen PIDs are
// gone (ESRCH) or refused (EACCES), as the kernel answers for an exited or someone else's thread. A leader opened
// with PERF_FORMAT_GROUP reads its whole group ({nr, enabled, running, {value, id}[nr]} [uapi read_format]).

#include "pmu/PerfSyscalls.h"

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <sys/eventfd.h>
#include <vector>

namespace rdt::pmu::test {

struct CountingPerfState {
    struct Open {
        EventAttr attr;
        pid_t pid = 0;
        int cpu = 0;
        int fd = -1;
        int groupFd = -1;
        std::uint64_t reads = 0;
    };
    PerfEnvironment env;
    std::vector<Open> opens;
    std::set<pid_t> gone, refused;
    /// Added per read, by PERF_COUNT_HW_* (config bits 0-31): cycles 1000, instructions 2000, cache-misses 10; raw
    /// events by their config (0 when not listed). A group's members count by their leader's reads.
    std::map<std::uint64_t, std::uint64_t> stepPerRead { { 0, 1000 }, { 1, 2000 }, { 3, 10 } };
    /// time_running as a share of time_enabled (0.5: the counter was multiplexed half the time; scaled back).
    double running = 1.0;
    std::set<std::uint64_t> refusedConfigs; ///< events the "PMU" does not have (EINVAL)
};

class FakeCountingPerf final : public PerfSyscalls {
public:
    explicit FakeCountingPerf(std::shared_ptr<CountingPerfState> state)
        : m_state(std::move(state))
    { }
    Result<UniqueFd> open(const EventAttr& attr, pid_t pid, int cpu, int groupFd, unsigned long) override
    {
        if (m_state->gone.count(pid)) return errnoError(ESRCH, "perf_event_open");
        if (m_state->refused.count(pid)) return errnoError(EACCES, "perf_event_open");
        UniqueFd fd(::eventfd(0, EFD_CLOEXEC));
        if (m_state->refusedConfigs.count(attr.config)) return errnoError(EINVAL, "perf_event_open");
        for (auto& x : m_state->opens) { // the number was closed and is reused: its old open is no group's leader
            if (x.groupFd == fd.get()) x.groupFd = -1;
        }
        m_state->opens.push_back({ attr, pid, cpu, fd.get(), groupFd });
        return fd;
    }
    Status ioctl(int, unsigned long, unsigned long) override { return {}; }
    Result<MappedRegion> mmap(int, std::size_t) override { return makeError("no rings here"); }
    Result<std::size_t> read(int fd, std::span<std::byte> out) override
    {
        CountingPerfState::Open* o = nullptr; // the latest open of this fd number (closed ones are reused)
        for (auto& x : m_state->opens)
            if (x.fd == fd) o = &x;
        if (!o || out.size() < 24) return errnoError(EBADF, "read");
        const std::uint64_t n = ++o->reads;
        const std::uint64_t enabled = 1'000'000 * n;
        const auto running = static_cast<std::uint64_t>(static_cast<double>(enabled) * m_state->running);
        if (o->attr.readFormat & perf::ReadGroup) {
            std::vector<std::uint64_t> words { 0, enabled, running };
            const int leader = o->fd;
            for (const auto& m : m_state->opens)
                if (&m == o || m.groupFd == leader) {
                    words.push_back(step(m.attr) * n);
                    words.push_back(static_cast<std::uint64_t>(m.fd));
                }
            words[0] = (words.size() - 3) / 2;
            if (out.size() < words.size() * 8) return errnoError(ENOSPC, "read");
            std::memcpy(out.data(), words.data(), words.size() * 8);
            return words.size() * 8;
        }
        const std::uint64_t values[3] = { step(o->attr) * n, enabled, running };
        std::memcpy(out.data(), values, sizeof values);
        return sizeof values;
    }
    PerfEnvironment environment() override { return m_state->env; }

private:
    std::uint64_t step(const EventAttr& a) const
    {
        const auto it = m_state->stepPerRead.find(a.config & 0xffffffffu);
        return it == m_state->stepPerRead.end() ? 0 : it->second;
    }
    std::shared_ptr<CountingPerfState> m_state;
};

/// A root user's view of an Intel machine with a core PMU: the state most tests start from.
inline std::shared_ptr<CountingPerfState> intelMachine()
{
    auto s = std::make_shared<CountingPerfState>();
    s->env.hasCpuPmu = true;
    s->env.vendor = "GenuineIntel";
    s->env.isRoot = true;
    return s;
}

} // namespace rdt::pmu::test
