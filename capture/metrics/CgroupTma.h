// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// rdtscope-agent --metrics-tma on a real source: a --monitor-pods group's TMA level-1 slots, counted on its pod's
// cgroup (PerfTarget::cgroupFd: the TMA recipe's group once per CPU with PERF_FLAG_PID_CGROUP, docs/PMU.md). The
// pod's cgroup comes from a task's /proc/PID/cgroup (its cgroup v2 "0::" line, up to the pod's own directory).

#include "MetricsState.h"
#include "core/Result.h"
#include "pmu/PerfSession.h"
#include "pmu/PerfSyscalls.h"
#include "pmu/Recipes.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rdt::metrics {

/// The pod's cgroup directory that perf counts in, relative to /sys/fs/cgroup, from the text of a task's
/// /proc/PID/cgroup: on cgroup v2 the pod's directory ("/kubepods.slice/.../kubepods-pod<UID>.slice"); where the
/// perf_event controller is on a v1 hierarchy (v1 and hybrid nodes), the pod's directory in that hierarchy
/// ("/perf_event/kubepods/burstable/pod<UID>"). None when the task is not in a pod.
std::optional<std::string> podCgroupDir(std::string_view procPidCgroup);

class CgroupTmaCounter {
public:
    /// `cgroupRoot`: where the cgroup file systems are mounted (/sys/fs/cgroup).
    CgroupTmaCounter(std::unique_ptr<pmu::PerfSyscalls> sys, pmu::Recipe recipe, std::string cgroupRoot);
    ~CgroupTmaCounter();
    CgroupTmaCounter(const CgroupTmaCounter&) = delete;
    CgroupTmaCounter& operator=(const CgroupTmaCounter&) = delete;

    /// The cgroup's slots since its first count (kept open between calls, keyed by the cgroup directory).
    Result<TmaSlots> count(const std::string& cgroupDir);
    /// Closes the counters of cgroups not in `keep` (pods gone).
    void retain(const std::map<std::string, bool>& keep);

private:
    struct Counted {
        int dirFd = -1;
        std::unique_ptr<pmu::PerfSession> session;
    };
    std::unique_ptr<pmu::PerfSyscalls> m_sys;
    pmu::Recipe m_recipe;
    std::string m_root;
    std::map<std::string, Counted> m_cgroups;
};

} // namespace rdt::metrics
