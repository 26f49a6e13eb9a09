// SPDX-License-Identifier: GPL-3.0-or-later
#include "TaskGroupCounter.h"

#include "Tma.h"

#include <cerrno>
#include <set>

namespace rdt::pmu {

namespace {

void add(ReadData& into, const ReadData& v)
{
    if (into.values.size() < v.values.size()) into.values.resize(v.values.size());
    for (std::size_t i = 0; i < v.values.size(); ++i)
        into.values[i].value += v.values[i].value;
    into.timeEnabled += v.timeEnabled;
    into.timeRunning += v.timeRunning;
}

} // namespace

TaskGroupCounter::TaskGroupCounter(PerfSyscalls& sys, std::vector<Recipe> groups)
    : m_sys(sys)
    , m_env(sys.environment())
    , m_groups(std::move(groups))
    , m_gone(m_groups.size())
{
    for (std::size_t r = 0; r < m_groups.size(); ++r)
        m_gone[r].values.resize(m_groups[r].events.size());
}

Status TaskGroupCounter::open(pid_t tid, std::vector<Group>& out)
{
    for (const auto& recipe : m_groups) {
        Group g;
        for (const auto& e : recipe.events) {
            EventAttr a = e.attr;
            a.setFlag(EventAttr::FlagDisabled, false); // counting starts at once, as TaskCounter's events do
            const int leader = g.fds.empty() ? -1 : g.fds[0].get();
            auto fd = m_sys.open(a, tid, -1, leader, 0);
            if (!fd) {
                if (fd.error().code == ESRCH) return fd.error(); // the thread exited: the caller skips it
                return openAdvice(fd.error().code, a, e.name, m_env, false);
            }
            g.fds.push_back(std::move(*fd));
        }
        g.last.values.resize(recipe.events.size());
        out.push_back(std::move(g));
    }
    return {};
}

Status TaskGroupCounter::read(Group& g, std::size_t recipe)
{
    const std::size_t nr = m_groups[recipe].events.size();
    std::vector<std::byte> buf((3 + 3 * nr) * sizeof(std::uint64_t));
    auto n = m_sys.read(g.fds[0].get(), buf);
    if (!n) return n.error();
    auto data = parseReadFormat(std::span<const std::byte>(buf.data(), *n), m_groups[recipe].events[0].attr.readFormat);
    if (!data) return data.error();
    if (data->values.size() != nr)
        return makeError("a perf group read returned " + std::to_string(data->values.size()) + " values for "
            + std::to_string(nr) + " events");
    ReadData scaled;
    const bool ran = data->timeRunning > 0;
    scaled.timeEnabled = ran ? data->timeEnabled : 0;
    scaled.timeRunning = scaled.timeEnabled;
    for (const auto& v : data->values)
        scaled.values.push_back(
            { static_cast<std::uint64_t>(scaleCount(v.value, data->timeEnabled, data->timeRunning) + 0.5) });
    g.last = std::move(scaled);
    return {};
}

Result<std::vector<ReadData>> TaskGroupCounter::count(const std::vector<pid_t>& tids)
{
    const std::set<pid_t> now(tids.begin(), tids.end());
    for (auto it = m_tasks.begin(); it != m_tasks.end();) {
        if (now.count(it->first)) {
            ++it;
            continue;
        }
        for (std::size_t r = 0; r < it->second.size(); ++r)
            add(m_gone[r], it->second[r].last);
        it = m_tasks.erase(it);
    }
    for (const auto tid : now) {
        if (m_tasks.count(tid)) continue;
        std::vector<Group> groups;
        if (auto ok = open(tid, groups); !ok) {
            if (ok.error().code == ESRCH) continue;
            return ok.error();
        }
        m_tasks.emplace(tid, std::move(groups));
    }
    std::vector<ReadData> sums = m_gone;
    for (auto& [tid, groups] : m_tasks)
        for (std::size_t r = 0; r < groups.size(); ++r) {
            if (auto ok = read(groups[r], r); !ok)
                return Error { ok.error().code,
                    "reading the perf groups of task " + std::to_string(tid) + ": " + ok.error().message,
                    ok.error().advice };
            add(sums[r], groups[r].last);
        }
    return sums;
}

} // namespace rdt::pmu
