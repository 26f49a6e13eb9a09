// SPDX-License-Identifier: GPL-3.0-or-later
#include "TaskSuspects.h"

#include "core/BoundedFile.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <sstream>

namespace rdt::blame {

namespace {

/// utime + stime of a /proc/PID/stat line (fields 14 and 15, proc(5)); the command name in parentheses may hold
/// spaces and parentheses, so the fields are counted after its last ')'.
std::optional<std::uint64_t> cpuTicksOf(const std::string& stat)
{
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    std::istringstream in(stat.substr(close + 1));
    std::string field;
    std::uint64_t utime = 0, stime = 0;
    // After the ')' come field 3 (state) onwards: utime is field 14, the 12th from here.
    for (int i = 3; i <= 15 && in >> field; ++i) {
        if (i == 14 || i == 15) {
            try {
                (i == 14 ? utime : stime) = std::stoull(field);
            } catch (const std::exception&) {
                return std::nullopt;
            }
        }
        if (i == 15) return utime + stime;
    }
    return std::nullopt;
}

} // namespace

std::map<unsigned, TaskStat> readTaskStats(const std::vector<unsigned>& pids, const std::string& procRoot)
{
    std::map<unsigned, TaskStat> out;
    for (const unsigned pid : pids) {
        const std::string dir = procRoot + "/" + std::to_string(pid);
        TaskStat st;
        if (auto stat = readFileHead(dir + "/stat", 4096, "task stat")) st.cpuTicks = cpuTicksOf(*stat);
        if (auto comm = readFileHead(dir + "/comm", 64, "task name")) {
            st.comm = *comm;
            while (!st.comm.empty() && (st.comm.back() == '\n' || st.comm.back() == '\r'))
                st.comm.pop_back();
        }
        if (st.cpuTicks || !st.comm.empty()) out[pid] = st;
    }
    return out;
}

std::vector<BusyTask> busiestTasks(const std::vector<unsigned>& pids, const std::map<unsigned, TaskStat>& before,
    const std::map<unsigned, TaskStat>& after, double seconds, unsigned ticksPerSecond, std::size_t count)
{
    std::vector<BusyTask> out;
    const bool timed = !before.empty() && !after.empty() && seconds > 0 && ticksPerSecond > 0;
    for (const unsigned pid : pids) {
        BusyTask t;
        t.pid = pid;
        const auto a = before.find(pid), b = after.find(pid);
        if (b != after.end()) t.comm = b->second.comm;
        if (timed) {
            if (a == before.end() || b == after.end() || !a->second.cpuTicks || !b->second.cpuTicks) continue;
            const auto used = *b->second.cpuTicks - std::min(*b->second.cpuTicks, *a->second.cpuTicks);
            if (used == 0) continue;
            t.cpuShare = static_cast<double>(used) / ticksPerSecond / seconds;
        }
        out.push_back(t);
    }
    if (timed)
        std::stable_sort(
            out.begin(), out.end(), [](const BusyTask& x, const BusyTask& y) { return *x.cpuShare > *y.cpuShare; });
    if (out.size() > count) out.resize(count);
    return out;
}

std::string taskSuspectName(unsigned pid, const std::string& comm)
{
    return "default/" + std::to_string(pid) + (comm.empty() ? "" : " " + comm);
}

std::string suspectName(const Suspect& s)
{
    return s.task ? taskSuspectName(*s.task, s.comm) : displayGroup(s.group);
}

} // namespace rdt::blame
