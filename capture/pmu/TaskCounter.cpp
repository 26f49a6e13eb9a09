// SPDX-License-Identifier: GPL-3.0-or-later
#include "TaskCounter.h"

#include "Tma.h"

#include <array>
#include <cerrno>
#include <set>

namespace rdt::pmu {

namespace {

// PERF_COUNT_HW_* [uapi]
struct HardwareEvent {
    const char* name;
    std::uint64_t config;
};
constexpr std::array<HardwareEvent, 3> kEvents { { { "cycles", 0 }, { "instructions", 1 }, { "cache-misses", 3 } } };
constexpr std::uint64_t kReadFormat = perf::ReadTotalTimeEnabled | perf::ReadTotalTimeRunning;

} // namespace

TaskCounter::TaskCounter(PerfSyscalls& sys)
    : m_sys(sys)
    , m_env(sys.environment())
{ }

Status TaskCounter::open(pid_t tid, std::vector<Counter>& out)
{
    // One core PMU (type 0 in config's high bits lets the kernel choose), or each of a hybrid part's.
    std::vector<std::uint32_t> pmuTypes;
    for (const auto& p : m_env.hybridPmus())
        pmuTypes.push_back(p.type);
    if (pmuTypes.empty()) pmuTypes.push_back(0);
    const bool userOnly = !m_env.isRoot && m_env.paranoidKnown && m_env.paranoid >= 2;
    for (unsigned e = 0; e < kEvents.size(); ++e)
        for (const auto type : pmuTypes) {
            EventAttr a;
            a.type = TypeHardware;
            a.config = kEvents[e].config | static_cast<std::uint64_t>(type) << 32; // PERF_PMU_TYPE_SHIFT [uapi]
            a.readFormat = kReadFormat;
            a.setFlag(EventAttr::FlagExcludeKernel, userOnly);
            a.setFlag(EventAttr::FlagExcludeHv, true);
            auto fd = m_sys.open(a, tid, -1, -1, 0);
            if (!fd) {
                if (fd.error().code == ESRCH) return fd.error(); // the thread exited: the caller skips it
                return openAdvice(fd.error().code, a, kEvents[e].name, m_env, false);
            }
            out.push_back({ std::move(*fd), e, 0 });
        }
    return {};
}

Result<double> TaskCounter::read(const Counter& c)
{
    std::array<std::byte, 3 * sizeof(std::uint64_t)> buf {};
    auto n = m_sys.read(c.fd.get(), buf);
    if (!n) return n.error();
    auto data = parseReadFormat(std::span<const std::byte>(buf.data(), *n), kReadFormat);
    if (!data) return data.error();
    if (data->values.empty()) return makeError("empty read() of a perf counter");
    return scaleCount(data->values[0].value, data->timeEnabled, data->timeRunning);
}

Result<TaskCounts> TaskCounter::count(const std::vector<pid_t>& tids)
{
    const std::set<pid_t> now(tids.begin(), tids.end());
    // Tasks that left: their counts up to the last read stay in the sums (so the sums never go back).
    for (auto it = m_tasks.begin(); it != m_tasks.end();) {
        if (now.count(it->first)) {
            ++it;
            continue;
        }
        for (const auto& c : it->second)
            m_gone[c.event] += c.last;
        ++m_goneTasks;
        it = m_tasks.erase(it);
    }
    for (const auto tid : now) {
        if (m_tasks.count(tid)) continue;
        std::vector<Counter> counters;
        if (auto ok = open(tid, counters); !ok) {
            if (ok.error().code == ESRCH) continue;
            return ok.error();
        }
        m_tasks.emplace(tid, std::move(counters));
    }
    TaskCounts out;
    out.tasks = m_tasks.size();
    out.gone = m_goneTasks;
    out.userOnly = !m_env.isRoot && m_env.paranoidKnown && m_env.paranoid >= 2;
    double sums[3] = { m_gone[0], m_gone[1], m_gone[2] };
    for (auto& [tid, counters] : m_tasks)
        for (auto& c : counters) {
            auto v = read(c);
            if (!v)
                return Error { v.error().code,
                    "reading the perf counters of task " + std::to_string(tid) + ": " + v.error().message,
                    v.error().advice };
            c.last = *v;
            sums[c.event] += c.last;
        }
    out.cycles = sums[0];
    out.instructions = sums[1];
    out.llcMisses = sums[2];
    return out;
}

} // namespace rdt::pmu
